package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.json.JavalinJackson;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST query service: {@code GET /health} and {@code POST /v1/tools/{name}}, whose bodies
 * and responses follow the seeds' JSON. Errors are JSON {@code {"error": {code, message, field}}}.
 */
public final class QueryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);

    private final RestClientTransport transport;
    private final ElasticsearchClient es;
    private final Map<String, Tool> tools = new TreeMap<>();
    private final Javalin app;

    public QueryServer(String esUrl) {
        this.transport = EsClients.transport(esUrl);
        this.es = EsClients.sync(transport);
        VideoTools video = new VideoTools(new VideoRepository(es), new SegmentRepository(es));
        tools.put("get_video_info", video::getVideoInfo);
        tools.put("get_temporal_structure", video::getTemporalStructure);
        this.app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.jsonMapper(new JavalinJackson(Json.MAPPER, false));
        });
        app.get("/health", this::health);
        app.get("/v1/tools", ctx -> ctx.json(Map.of("tools", tools.keySet())));
        app.post("/v1/tools/{name}", this::callTool);
        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.code(), e.field(), e.getMessage()));
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("request {} failed", ctx.path(), e);
            error(ctx, 500, "internal", null, "internal error: " + e.getClass().getSimpleName());
        });
    }

    /** Starts listening; port 0 picks a free port. */
    public QueryServer start(String host, int port) {
        app.start(host, port);
        return this;
    }

    public int port() {
        return app.port();
    }

    private void health(Context ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            String status = es.cluster().health().status().jsonValue();
            out.put("status", "ok");
            out.put("elasticsearch", status);
            ctx.json(out);
        } catch (Exception e) {
            out.put("status", "degraded");
            out.put("elasticsearch", "unreachable: " + e.getMessage());
            ctx.status(503).json(out);
        }
    }

    private void callTool(Context ctx) throws Exception {
        String name = ctx.pathParam("name");
        Tool tool = tools.get(name);
        if (tool == null) {
            throw new ApiException(404, "unknown_tool", null, "no tool named '" + name + "'; GET /v1/tools lists them");
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(ctx.body().isBlank() ? "{}" : ctx.body());
        } catch (JsonProcessingException e) {
            throw ApiException.badField(null, "request body is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
        }
        ctx.json(tool.call(Args.of(body)));
    }

    private static void error(Context ctx, int status, String code, String field, String message) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("code", code);
        err.put("message", message);
        if (field != null) {
            err.put("field", field);
        }
        ctx.status(status).json(Map.of("error", err));
    }

    @Override
    public void close() throws Exception {
        app.stop();
        transport.close();
    }
}
