package io.videoworld.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.json.JavalinJackson;
import io.videoworld.core.Json;
import io.videoworld.query.agent.AskService;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Endpoints;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.InputBounds;
import io.videoworld.query.api.OpenApi;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.live.IndexTail;
import io.videoworld.query.live.LiveEvents;
import io.videoworld.query.mcp.McpHttp;
import io.videoworld.query.video.FrameRenderer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * The query service over HTTP: {@code /health}, {@code /openapi.json}, {@code /docs},
 * {@code /timeline}, {@code /v1/tools} and {@code /v1/tools/{name}}, {@code /v1/frames/{id}}, {@code /v1/streams} (list,
 * {@code DELETE /v1/streams/{id}}), {@code /v1/ask} (JSON, or server-sent events), {@code /v1/streams/{id}/events}
 * (server-sent events), {@code /v1/alerts}, and the same tools over MCP at {@code /mcp} ({@link McpHttp}). It only serves: what answers is put together by
 * {@link QueryWiring} from one {@link QueryConfig}. Errors are JSON
 * {@code {"error": {code, message, field}}}, mapped in one place ({@link ErrorMapper}).
 */
public final class QueryServer implements AutoCloseable {
    private final QueryConfig config;
    private final QueryWiring wiring;
    private final JsonBodies bodies;
    private final Javalin app;
    private final McpHttp mcp;
    /** Where {@link #start} binds; read by the connector Javalin creates when it starts. */
    private volatile String bindHost;
    private volatile int bindPort;

    /** A server for {@code config}; it listens once {@link #start}ed and releases everything on {@link #close}. */
    public QueryServer(QueryConfig config) {
        this.config = config;
        this.wiring = new QueryWiring(config);
        this.bodies = new JsonBodies(config.limits());
        this.mcp = new McpHttp(config.auth(), wiring.dispatcher(), config.limits().maxBodyBytes());
        this.app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.jsonMapper(new JavalinJackson(Json.MAPPER, false));
            cfg.http.maxRequestSize = config.limits().maxBodyBytes();
            // Jetty reports a client that broke off or stalled mid-body as EofException or an idle
            // timeout, which Javalin answers itself (500 by default) before any exception handler.
            cfg.jetty.clientAbortStatus = 400;
            cfg.jetty.timeoutStatus = 408;
            cfg.jetty.modifyHttpConfiguration(http -> http.setIdleTimeout(config.limits().bodyIdleTimeoutMs()));
            cfg.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, new ClientErrorConnectionFactory(http));
                connector.setHost(bindHost);
                connector.setPort(bindPort);
                return connector;
            });
            // MCP's servlet beside Javalin's: an exact path mapping wins over Javalin's "/*".
            cfg.jetty.modifyServletContextHandler(handler -> {
                ServletHolder holder = new ServletHolder(mcp);
                holder.setAsyncSupported(true);
                handler.addServlet(holder, Endpoints.require("POST", McpHttp.PATH).path());
            });
        });
        ToolDispatcher dispatcher = wiring.dispatcher();
        app.beforeMatched("/v1/*", this::authenticate);
        route("GET", "/health", this::health);
        route("GET", "/v1/tools", ctx -> ctx.json(Map.of("tools", dispatcher.listing())));
        route("GET", "/openapi.json", ctx -> ctx.json(OpenApi.document(dispatcher.catalog(), dispatcher.available())));
        route("GET", "/docs", ctx -> ctx.html(page("/docs.html")));
        route("GET", "/timeline", ctx -> ctx.html(page("/timeline.html")));
        // Each tool is documented under its own /v1/tools/<name> path, from the catalog.
        app.post("/v1/tools/{name}", ctx -> ctx.json(dispatcher.call(ctx.attribute("caller"), ctx.pathParam("name"), bodies.read(ctx.req()))));
        route("GET", "/v1/frames/{id}", this::frame);
        route("POST", "/v1/ask", this::ask);
        route("GET", "/v1/streams/{id}/events", this::events);
        route("GET", "/v1/streams/{id}/timeline", ctx -> {
            String stream = InputBounds.streamId(ctx.pathParam("id"), "id");
            ToolDispatcher.requireRead(ctx.attribute("caller"), stream, "id");
            ctx.json(wiring.timeline().lanes(stream));
        });
        route("GET", "/v1/streams", ctx -> ctx.json(wiring.streams().list(ctx.attribute("caller"))));
        route("DELETE", "/v1/streams/{id}", ctx -> ctx.json(wiring.streams().delete(ctx.attribute("caller"), ctx.pathParam("id"))));
        route("POST", "/v1/alerts", ctx -> ctx.status(201).json(wiring.alerts().create(ctx.attribute("caller"), bodies.read(ctx.req()))));
        route("GET", "/v1/alerts", ctx -> ctx.json(wiring.alerts().list(ctx.attribute("caller"))));
        route("DELETE", "/v1/alerts/{id}", ctx -> ctx.json(wiring.alerts().delete(ctx.attribute("caller"), ctx.pathParam("id"))));
        route("GET", "/v1/alerts/{id}/deliveries", ctx -> ctx.json(wiring.alerts().deliveries(ctx.attribute("caller"), ctx.pathParam("id"),
                FrameParams.intParam(ctx, "limit", 100, 1, 1000))));
        app.exception(Exception.class, ErrorMapper::respond);
    }

    /** Registers a route that {@link Endpoints} lists (and so {@code /openapi.json} shows). */
    private void route(String method, String path, Handler handler) {
        Endpoints.require(method, path);
        app.addHttpHandler(HandlerType.valueOf(method), path, handler);
    }

    /** Starts listening; port 0 picks a free port. */
    public QueryServer start(String host, int port) {
        bindHost = host;
        bindPort = port;
        app.start(host, port);
        wiring.alerts().start();
        return this;
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    /** {@code GET /health}: 200 while healthy, 503 with the reasons when degraded. */
    private void health(Context ctx) {
        ServiceHealth.Health h = wiring.health().read();
        ctx.status(h.ok() ? 200 : 503).json(h);
    }

    /**
     * A frame's JPEG, optionally cropped and resized (see {@link FrameParams}); the
     * {@code X-VideoWorld-Origin} header says whether it was decoded from the source or is a stored keyframe.
     */
    private void frame(Context ctx) throws IOException {
        FrameParams p = FrameParams.of(ctx, config.limits());
        ToolDispatcher.requireRead(ctx.attribute("caller"), p.stream(), "id");
        FrameRenderer.Rendered img = wiring.frames().render(p.frameId(), p.stream(), p.width(), p.height(), p.crop(), p.padding());
        ctx.header("X-VideoWorld-Origin", img.origin());
        ctx.header("Cache-Control", "max-age=3600");
        ctx.contentType("image/jpeg").result(img.jpeg());
    }

    /**
     * {@code POST /v1/ask}. With {@code "stream": true} (or {@code Accept: text/event-stream}) the
     * trace steps arrive as server-sent {@code step} events and the result as a {@code result} event.
     */
    private void ask(Context ctx) throws IOException {
        JsonNode body = bodies.read(ctx.req());
        if (body.isObject()) {
            InputBounds.check(body, config.limits());
        }
        Caller caller = ctx.attribute("caller");
        AskService ask = wiring.ask();
        boolean sse = body.path("stream").asBoolean(false) || "text/event-stream".equals(ctx.header("Accept"));
        if (!sse) {
            ctx.json(ask.ask(caller, body, null));
            return;
        }
        // Validation errors still answer as plain 4xx JSON: nothing is streamed before the request is known to be good.
        AskService.validate(body);
        EventStream events = EventStream.open(ctx);
        try {
            events.send("result", ask.ask(caller, body, step -> events.send("step", step)));
        } catch (Exception e) {
            // The status line is long sent: the error travels as an event, mapped like any other.
            ErrorMapper.Answer a = ErrorMapper.answer(e, "POST /v1/ask (stream)");
            events.send("error", new ErrorMapper.Detail(a.code(), a.message(), null));
        }
    }

    /**
     * {@code GET /v1/streams/{id}/events}: the stream's shots, episodes and tracks as server-sent
     * events as they are indexed ({@link LiveEvents}); {@code Last-Event-ID} resumes, {@code from=start}
     * replays what is indexed already.
     */
    private void events(Context ctx) throws Exception {
        String stream = InputBounds.streamId(ctx.pathParam("id"), "id");
        ToolDispatcher.requireRead(ctx.attribute("caller"), stream, "id");
        String lastEventId = ctx.header("Last-Event-ID") != null ? ctx.header("Last-Event-ID") : ctx.queryParam("last_event_id");
        IndexTail.Position start = LiveEvents.start(lastEventId, ctx.queryParam("from"));
        EventStream events = EventStream.open(ctx);
        try {
            wiring.live().follow(stream, start, new LiveEvents.Sink() {
                @Override
                public void event(String id, String name, Object data) {
                    events.send(id, name, data);
                }

                @Override
                public void keepAlive() {
                    events.comment("keep-alive");
                }
            });
        } catch (java.io.UncheckedIOException gone) {
            // The client closed the connection: nothing to answer.
        } catch (Exception e) {
            // Elasticsearch gone mid-stream: the status line is long sent, so the error is the last event.
            ErrorMapper.Answer a = ErrorMapper.answer(e, "GET /v1/streams/{id}/events");
            try {
                events.send("error", new ErrorMapper.Detail(a.code(), a.message(), null));
            } catch (java.io.UncheckedIOException gone) {
                // Nobody left to tell.
            }
        }
    }

    private static String page(String resource) throws IOException {
        try (InputStream in = QueryServer.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private void authenticate(Context ctx) {
        Auth auth = config.auth();
        Caller caller = auth.authenticate(ctx.header("Authorization")).orElseThrow(() -> {
            ctx.header("WWW-Authenticate", "Bearer");
            return new ApiException(401, "unauthorized", null, ctx.header("Authorization") == null
                    ? "an Authorization: Bearer <token> header is required" : "the bearer token is not known");
        });
        ctx.attribute("caller", caller);
    }

    /** Stops serving, then closes the Elasticsearch client and the decoder's open files. */
    @Override
    public void close() throws Exception {
        try {
            // Open event streams poll until told to stop; Jetty would otherwise wait for them.
            wiring.live().close();
            mcp.close();
            app.stop();
        } finally {
            wiring.close();
        }
    }
}
