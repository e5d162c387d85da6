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
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.live.IndexTail;
import io.videoworld.query.live.LiveEvents;
import io.videoworld.query.limits.DeadlineExceeded;
import io.videoworld.query.limits.LimitExceeded;
import io.videoworld.query.limits.Traffic;
import io.videoworld.query.mcp.McpHttp;
import io.videoworld.query.metrics.ServiceMetrics;
import io.videoworld.query.video.FrameRenderer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * The query service over HTTP: {@code /health}, {@code /openapi.json}, {@code /docs},
 * {@code /timeline}, {@code /v1/tools} and {@code /v1/tools/{name}}, {@code /v1/frames/{id}}, {@code /v1/streams} (list,
 * {@code DELETE /v1/streams/{id}}), {@code /v1/ask} (JSON, or server-sent events), {@code /v1/streams/{id}/events}
 * (server-sent events), {@code /v1/alerts}, {@code /metrics} (Prometheus), and the same tools over MCP at {@code /mcp} ({@link McpHttp}).
 * JSON answers are computed under the request deadline and every request under the traffic limits ({@link Traffic}). It only serves: what answers is put together by
 * {@link QueryWiring} from one {@link QueryConfig}. Errors are JSON
 * {@code {"error": {code, message, field}}}, mapped in one place ({@link ErrorMapper}).
 */
public final class QueryServer implements AutoCloseable {
    private static final String TOOL_ROUTE = "/v1/tools/{name}";
    /** The routes a request is counted under: every listed endpoint and the tools. */
    private static final Set<String> ROUTES = routes();
    private final QueryConfig config;
    private final QueryWiring wiring;
    private final JsonBodies bodies;
    private final Javalin app;
    private final McpHttp mcp;
    private final ServiceMetrics metrics;
    private final Traffic traffic;
    /** Where {@link #start} binds; read by the connector Javalin creates when it starts. */
    private volatile String bindHost;
    private volatile int bindPort;

    /** A server for {@code config}; it listens once {@link #start}ed and releases everything on {@link #close}. */
    public QueryServer(QueryConfig config) {
        this.config = config;
        this.metrics = new ServiceMetrics();
        this.traffic = new Traffic(config.traffic(), metrics);
        this.wiring = new QueryWiring(config, metrics);
        this.bodies = new JsonBodies(config.limits());
        this.mcp = new McpHttp(config.auth(), wiring.dispatcher(), config.limits().maxBodyBytes(), this::admit);
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
            // Called once a request is answered, whatever answered it (a route, an error, a 404), so
            // every status is counted, and after an asynchronous answer is written.
            cfg.requestLogger.http(this::record);
        });
        ToolDispatcher dispatcher = wiring.dispatcher();
        app.beforeMatched("/v1/*", this::authenticate);
        json("GET", "/health", this::health);
        route("GET", "/metrics", ctx -> ctx.contentType(ServiceMetrics.contentType()).result(metrics.scrape()));
        json("GET", "/v1/tools", ctx -> Map.of("tools", dispatcher.listing()));
        json("GET", "/openapi.json", ctx -> OpenApi.document(dispatcher.catalog(), dispatcher.available()));
        route("GET", "/docs", ctx -> ctx.html(page("/docs.html")));
        route("GET", "/timeline", ctx -> ctx.html(page("/timeline.html")));
        // Each tool is documented under its own /v1/tools/<name> path, from the catalog.
        app.post(TOOL_ROUTE, ctx -> underDeadline(ctx, () -> dispatcher.call(ctx.attribute("caller"), ctx.pathParam("name"),
                bodies.read(ctx.req())), (c, v) -> c.json(v)));
        route("GET", "/v1/frames/{id}", ctx -> underDeadline(ctx, () -> frame(ctx), QueryServer::writeFrame));
        route("POST", "/v1/ask", this::ask);
        route("GET", "/v1/streams/{id}/events", this::events);
        json("GET", "/v1/streams/{id}/timeline", ctx -> {
            String stream = InputBounds.streamId(ctx.pathParam("id"), "id");
            ToolDispatcher.requireRead(ctx.attribute("caller"), stream, "id");
            return wiring.timeline().lanes(stream);
        });
        json("GET", "/v1/streams", ctx -> wiring.streams().list(ctx.attribute("caller")));
        json("DELETE", "/v1/streams/{id}", ctx -> wiring.streams().delete(ctx.attribute("caller"), ctx.pathParam("id")));
        json("POST", "/v1/streams/{id}/forget", ctx -> wiring.streams().forget(ctx.attribute("caller"), ctx.pathParam("id"),
                bodies.read(ctx.req())));
        json("POST", "/v1/streams/budget", ctx -> {
            com.fasterxml.jackson.databind.JsonNode b = bodies.read(ctx.req());
            return wiring.streams().budget(ctx.attribute("caller"), b == null ? 0 : b.path("per_stream_bytes").asLong(0),
                    b == null ? 0 : b.path("total_bytes").asLong(0), b == null || !b.has("streams") ? java.util.List.of()
                            : java.util.stream.StreamSupport.stream(b.get("streams").spliterator(), false).map(com.fasterxml.jackson.databind.JsonNode::asText).toList());
        });
        json("GET", "/v1/streams/{id}/exclusions", ctx -> wiring.exclusions().get(ctx.attribute("caller"), ctx.pathParam("id")));
        json("PUT", "/v1/streams/{id}/exclusions", ctx -> wiring.exclusions().put(ctx.attribute("caller"), ctx.pathParam("id"),
                bodies.read(ctx.req())));
        json("GET", "/v1/people/{id}", ctx -> wiring.people().record(ctx.attribute("caller"), ctx.pathParam("id")));
        json("DELETE", "/v1/people/{id}", ctx -> wiring.people().forget(ctx.attribute("caller"), ctx.pathParam("id")));
        route("POST", "/v1/alerts", ctx -> underDeadline(ctx, () -> wiring.alerts().create(ctx.attribute("caller"), bodies.read(ctx.req())),
                (c, alert) -> c.status(201).json(alert)));
        json("GET", "/v1/alerts", ctx -> wiring.alerts().list(ctx.attribute("caller")));
        json("DELETE", "/v1/alerts/{id}", ctx -> wiring.alerts().delete(ctx.attribute("caller"), ctx.pathParam("id")));
        json("GET", "/v1/alerts/{id}/deliveries", ctx -> wiring.alerts().deliveries(ctx.attribute("caller"), ctx.pathParam("id"),
                FrameParams.intParam(ctx, "limit", 100, 1, 1000)));
        app.exception(Exception.class, QueryServer::fail);
    }

    /** An answer computed from the request, written as JSON with the status the route sets. */
    @FunctionalInterface
    private interface JsonAnswer {
        Object answer(Context ctx) throws Exception;
    }

    /** Registers a route that {@link Endpoints} lists (and so {@code /openapi.json} shows). */
    private void route(String method, String path, Handler handler) {
        Endpoints.require(method, path);
        app.addHttpHandler(HandlerType.valueOf(method), path, handler);
    }

    /** A route whose JSON answer is computed under the request deadline. */
    private void json(String method, String path, JsonAnswer answer) {
        route(method, path, ctx -> underDeadline(ctx, () -> answer.answer(ctx), (c, v) -> c.json(v)));
    }

    /**
     * Computes the answer on a worker and writes it with {@code write}, or answers 504 once the
     * deadline passes, whichever comes first: only the first of the two ever touches the response.
     */
    private <T> void underDeadline(Context ctx, Callable<T> work, BiConsumer<Context, T> write) {
        ctx.future(() -> traffic.withDeadline(work).handle((value, error) -> {
            if (error == null) {
                write.accept(ctx, value);
            } else {
                fail(error, ctx);
            }
            return null;
        }));
    }

    /** Starts listening; port 0 picks a free port. */
    public QueryServer start(String host, int port) {
        bindHost = host;
        bindPort = port;
        app.start(host, port);
        wiring.alerts().start();
        return this;
    }

    /** Its meters, for binders from outside (caches of an embedding application, tests). */
    public ServiceMetrics metrics() {
        return metrics;
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    /** {@code GET /health}: 200 while healthy, 503 with the reasons when degraded. */
    private Object health(Context ctx) {
        ServiceHealth.Health h = wiring.health().read();
        ctx.status(h.ok() ? 200 : 503);
        return h;
    }

    /**
     * A frame's JPEG, optionally cropped and resized (see {@link FrameParams}); the
     * {@code X-VideoWorld-Origin} header says whether it was decoded from the source or is a stored keyframe.
     */
    private FrameRenderer.Rendered frame(Context ctx) throws IOException {
        FrameParams p = FrameParams.of(ctx, config.limits());
        ToolDispatcher.requireRead(ctx.attribute("caller"), p.stream(), "id");
        return wiring.frames().render(p.frameId(), p.stream(), p.width(), p.height(), p.crop(), p.padding());
    }

    private static void writeFrame(Context ctx, FrameRenderer.Rendered img) {
        ctx.header("X-VideoWorld-Origin", img.origin());
        ctx.header("Cache-Control", "max-age=3600");
        ctx.contentType("image/jpeg").result(img.jpeg());
    }

    /**
     * {@code POST /v1/ask}. With {@code "stream": true} (or {@code Accept: text/event-stream}) the
     * trace steps arrive as server-sent {@code step} events and the result as a {@code result} event.
     */
    private void ask(Context ctx) throws IOException {
        // Held until the agent run ends, even past the deadline, since until then it still works.
        Traffic.Permit permit = traffic.ask();
        boolean handedOver = false;
        try {
            JsonNode body = bodies.read(ctx.req());
            if (body.isObject()) {
                InputBounds.check(body, config.limits());
            }
            Caller caller = ctx.attribute("caller");
            AskService ask = wiring.ask();
            boolean sse = body.path("stream").asBoolean(false) || "text/event-stream".equals(ctx.header("Accept"));
            if (!sse) {
                handedOver = true;
                ctx.future(() -> traffic.withDeadline(() -> {
                    try {
                        return ask.ask(caller, body, null);
                    } finally {
                        permit.close();
                    }
                }).handle((answer, error) -> {
                    if (error == null) {
                        ctx.json(answer);
                    } else {
                        if (!(unwrap(error) instanceof DeadlineExceeded)) {
                            permit.close();
                        }
                        fail(error, ctx);
                    }
                    return null;
                }));
                return;
            }
            // Validation errors still answer as plain 4xx JSON: nothing is streamed before the request is known to be good.
            AskService.validate(body);
            try (Traffic.Permit stream = traffic.sse()) {
                EventStream events = EventStream.open(ctx);
                try {
                    events.send("result", ask.ask(caller, body, step -> events.send("step", step)));
                } catch (Exception e) {
                    // The status line is long sent: the error travels as an event, mapped like any other.
                    ErrorMapper.Answer a = ErrorMapper.answer(e, "POST /v1/ask (stream)");
                    events.send("error", new ErrorMapper.Detail(a.code(), a.message(), null));
                }
            }
        } finally {
            if (!handedOver) {
                permit.close();
            }
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
        try (Traffic.Permit open = traffic.sse()) {
            EventStream events = EventStream.open(ctx);
            follow(stream, start, events);
        }
    }

    private void follow(String stream, IndexTail.Position start, EventStream events) {
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

    private static Set<String> routes() {
        Set<String> r = new HashSet<>();
        Endpoints.ALL.forEach(e -> r.add(e.method() + " " + e.path()));
        r.add("POST " + TOOL_ROUTE);
        return Set.copyOf(r);
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
        admit(auth.enabled() ? "token:" + caller.name() : "ip:" + ctx.ip());
    }

    /** Counts a request against its caller's rate: by token name, or by address while authentication is off. */
    private void admit(String caller) {
        traffic.admit(caller);
    }

    /** Writes the error answer for {@code e}; a refusal by a traffic limit also says when to retry. */
    private static void fail(Throwable e, Context ctx) {
        Throwable t = unwrap(e);
        if (t instanceof LimitExceeded limit) {
            ctx.header("Retry-After", Long.toString(limit.retryAfterSeconds()));
        }
        ErrorMapper.respond(t instanceof Exception x ? x : new IllegalStateException(t), ctx);
    }

    private static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** Counts one answered request by its route (never the raw path, so a scan of random paths adds no series). */
    private void record(Context ctx, Float ms) {
        String route;
        try {
            route = ctx.endpointHandlerPath();
        } catch (RuntimeException none) {
            route = null;
        }
        if (route == null || !(ROUTES.contains(ctx.method().name() + " " + route))) {
            route = "unmatched";
        }
        String tool = "none";
        if (TOOL_ROUTE.equals(route)) {
            String name = ctx.pathParamMap().get("name");
            tool = name == null ? "unknown" : wiring.dispatcher().catalog().find(name).map(ToolCatalog.ToolDef::name).orElse("unknown");
        }
        metrics.request(ctx.method().name(), route, tool, ctx.statusCode(), (long) (ms * 1_000_000L));
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
            try {
                traffic.close();
                wiring.close();
            } finally {
                metrics.close();
            }
        }
    }
}
