package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.json.JavalinJackson;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.FrameRepository;
import io.videoworld.connectors.es.MemoryRepository;
import io.videoworld.connectors.es.ObjectRepository;
import io.videoworld.connectors.es.PerceptionRepository;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.connectors.llm.LlmClient;
import io.videoworld.connectors.producer.VideoSeeker;
import io.videoworld.core.Json;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.agent.AskService;
import io.videoworld.query.agent.FrameCaptioner;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.InputBounds;
import io.videoworld.query.api.OpenApi;
import io.videoworld.query.api.RequestLimits;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.entity.EntityTools;
import io.videoworld.query.entity.SpatialRelations;
import io.videoworld.query.entity.TrajectoryTools;
import io.videoworld.query.memory.MemoryTools;
import io.videoworld.query.perception.ActivityTools;
import io.videoworld.query.perception.AudioTools;
import io.videoworld.query.perception.DescribeTools;
import io.videoworld.query.perception.ObjectFinder;
import io.videoworld.query.perception.ObjectTools;
import io.videoworld.query.perception.SceneTools;
import io.videoworld.query.retrieval.EvidenceSearch;
import io.videoworld.query.retrieval.RetrievalTools;
import io.videoworld.query.retrieval.SimilarityTools;
import io.videoworld.query.video.CropTools;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.FrameRenderer;
import io.videoworld.query.video.FrameTools;
import io.videoworld.query.video.VideoTools;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.ServerConnector;
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
    private final ToolDispatcher dispatcher;
    private final Javalin app;
    private final RequestLimits limits;
    private final JsonBodies bodies;
    private final IngestHealth ingest;
    /** Where {@link #start} binds; read by the connector Javalin creates when it starts. */
    private volatile String bindHost;
    private volatile int bindPort;

    private final VideoRepository videos;
    private final FrameAccess frames;
    private final FrameRenderer renderer;
    private final VideoSeeker seeker;
    private final Auth auth;
    /** Reads of stream and shot documents are reused this long; the index itself refreshes once a second. */
    static final long READ_CACHE_MS = 500;
    private final LlmClient llm;
    private final AskService ask;

    /**
     * @param esUrl Elasticsearch
     * @param frameStore the keyframe store the ingest job writes (a directory)
     */
    public QueryServer(String esUrl, String frameStore) {
        this(esUrl, frameStore, Auth.off());
    }

    /** A server that answers only callers {@code auth} accepts, each only about its own streams. */
    public QueryServer(String esUrl, String frameStore, Auth auth) {
        this(esUrl, frameStore, auth, null);
    }

    /**
     * @param llm the model for {@code /v1/ask}; null runs it in evidence mode
     */
    public QueryServer(String esUrl, String frameStore, Auth auth, LlmClient llm) {
        this(esUrl, frameStore, auth, llm, null);
    }

    /**
     * @param embedder embeds questions for the vector half of evidence search; null searches text only
     */
    public QueryServer(String esUrl, String frameStore, Auth auth, LlmClient llm, TextEmbedder embedder) {
        this(esUrl, frameStore, auth, llm, embedder, null);
    }

    /**
     * @param detector runs on decoded frames where the ingest job stored no detections near the
     *     asked time; null answers only from stored detections
     */
    public QueryServer(String esUrl, String frameStore, Auth auth, LlmClient llm, TextEmbedder embedder, ObjectDetector detector) {
        this(esUrl, frameStore, auth, llm, embedder, detector, null);
    }

    /** @param transcriber an OpenAI-compatible transcription endpoint for get_transcript; null for subtitles only */
    public QueryServer(String esUrl, String frameStore, Auth auth, LlmClient llm, TextEmbedder embedder, ObjectDetector detector,
            io.videoworld.connectors.audio.Transcriber transcriber) {
        this(esUrl, frameStore, auth, llm, embedder, detector, transcriber, RequestLimits.defaults(), IngestHealth.of(null));
    }

    /**
     * @param limits how much one request may ask (body size, JSON depth, id lengths, pixels)
     * @param ingest where {@code /health} reads the ingest job's state
     */
    public QueryServer(String esUrl, String frameStore, Auth auth, LlmClient llm, TextEmbedder embedder, ObjectDetector detector,
            io.videoworld.connectors.audio.Transcriber transcriber, RequestLimits limits, IngestHealth ingest) {
        this.auth = auth;
        this.llm = llm;
        this.limits = limits;
        this.bodies = new JsonBodies(limits);
        this.ingest = ingest;
        this.dispatcher = new ToolDispatcher(ToolCatalog.load(), limits);
        this.transport = EsClients.transport(esUrl);
        this.es = EsClients.sync(transport);
        this.videos = new VideoRepository(es, READ_CACHE_MS);
        SegmentRepository segments = new SegmentRepository(es, READ_CACHE_MS);
        FrameRepository frameDocs = new FrameRepository(es);
        this.seeker = new VideoSeeker();
        this.frames = new FrameAccess(frameDocs, FrameStore.open(frameStore), seeker);
        this.renderer = new FrameRenderer(videos, frames, limits);
        VideoTools video = new VideoTools(videos, segments);
        FrameTools frameTools = new FrameTools(videos, segments, frameDocs, frames, limits);
        dispatcher.register("get_video_info", video::getVideoInfo)
                .register("get_temporal_structure", video::getTemporalStructure)
                .register("sample_frames", frameTools::sampleFrames)
                .register("crop_region", new CropTools(videos, frames, limits)::cropRegion)
                .register("get_segment", video::getSegment);
        PerceptionRepository perception = new PerceptionRepository(es);
        EvidenceSearch evidence = new EvidenceSearch(videos, segments, perception, embedder);
        if (llm != null && llm.config().vision()) {
            dispatcher.register("describe_visual", new DescribeTools(videos, frames, llm)::describeVisual);
        }
        AudioTools audio = new AudioTools(videos, transcriber);
        MemoryRepository memory = new MemoryRepository(es);
        RetrievalTools retrieval = new RetrievalTools(videos, evidence, memory, embedder, audio);
        MemoryTools memoryTools = new MemoryTools(videos, memory, perception, embedder, llm);
        dispatcher.register("temporal_search", retrieval::temporalSearch)
                .register("search_segments_by_semantics", retrieval::searchSegmentsBySemantics)
                .register("get_transcript", audio::getTranscript)
                .register("detect_audio_events", audio::detectAudioEvents)
                .register("write_memory", memoryTools::writeMemory)
                .register("read_memory", memoryTools::readMemory)
                .register("merge_events", memoryTools::mergeEvents);
        ObjectRepository objects = new ObjectRepository(es);
        dispatcher.register("find_similar_segments", new SimilarityTools(videos, segments, perception, objects)::findSimilarSegments);
        ObjectFinder finder = new ObjectFinder(objects, frames, detector);
        LlmClient vlm = llm != null && llm.config().vision() ? llm : null;
        EntityTools entities = new EntityTools(videos, objects, finder, embedder);
        TrajectoryTools trajectories = new TrajectoryTools(videos, segments, perception, entities, finder, frames, vlm);
        dispatcher.register("detect_objects", new ObjectTools(videos, finder, embedder)::detectObjects)
                .register("spatial_relation", new SpatialRelations(videos, finder, entities)::spatialRelation)
                .register("get_scene_attributes", new SceneTools(videos, finder)::getSceneAttributes)
                .register("recognize_activity", new ActivityTools(videos, objects)::recognizeActivity)
                .register("register_entity", entities::registerEntity)
                .register("track_entity", trajectories::trackEntity)
                .register("query_entity_state", trajectories::queryEntityState)
                .register("list_entities", entities::listEntities);
        this.ask = new AskService(llm, evidence, videos, (v, times) -> frames.at(v, times).stream()
                .map(i -> new FrameCaptioner.Shot(i.frameId(), i.ptsMs() / 1000.0, i.jpeg())).toList(), dispatcher);
        this.app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.jsonMapper(new JavalinJackson(Json.MAPPER, false));
            cfg.http.maxRequestSize = limits.maxBodyBytes();
            // Jetty reports a client that broke off or stalled mid-body as EofException or an idle
            // timeout, which Javalin answers itself (500 by default) before any exception handler.
            cfg.jetty.clientAbortStatus = 400;
            cfg.jetty.timeoutStatus = 408;
            cfg.jetty.modifyHttpConfiguration(http -> http.setIdleTimeout(limits.bodyIdleTimeoutMs()));
            cfg.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, new ClientErrorConnectionFactory(http));
                connector.setHost(bindHost);
                connector.setPort(bindPort);
                return connector;
            });
        });
        app.beforeMatched("/v1/*", this::authenticate);
        app.get("/health", this::health);
        app.get("/v1/tools", this::listTools);
        app.get("/openapi.json", ctx -> ctx.json(OpenApi.document(dispatcher.catalog(), dispatcher.available())));
        app.get("/docs", ctx -> ctx.html(page("/docs.html")));
        app.get("/timeline", ctx -> ctx.html(page("/timeline.html")));
        app.post("/v1/tools/{name}", this::callTool);
        app.get("/v1/frames/{id}", this::frame);
        app.post("/v1/ask", this::ask);
        app.exception(Exception.class, ErrorMapper::respond);
    }

    /** Starts listening; port 0 picks a free port. */
    public QueryServer start(String host, int port) {
        bindHost = host;
        bindPort = port;
        app.start(host, port);
        return this;
    }

    public int port() {
        return app.port();
    }

    /**
     * {@code GET /health}: 200 and {@code "ok"} while Elasticsearch answers (not red) and the ingest
     * job runs without restarts in the last 10 minutes (or no Flink URL is configured); otherwise
     * 503 and {@code "degraded"} with the reasons in {@code problems}.
     */
    private void health(Context ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        out.put("status", "ok");
        try {
            String status = es.cluster().health().status().jsonValue();
            out.put("elasticsearch", status);
            if ("red".equals(status)) {
                problems.add("Elasticsearch is red: some indices cannot be searched");
            }
        } catch (Exception e) {
            LOG.warn("health: Elasticsearch does not answer: {}", e.toString());
            out.put("elasticsearch", "unreachable");
            problems.add("Elasticsearch does not answer");
        }
        IngestHealth.Reading job = ingest.read();
        out.put("ingest_job", job.json());
        if (!job.healthy()) {
            problems.add(job.problem());
        }
        out.put("auth", auth.enabled() ? "bearer" : "off");
        out.put("llm", llm == null ? "none (evidence mode)" : llm.config().model() + " at " + llm.config().baseUrl());
        if (llm != null) {
            out.put("llm_usage", llm.usage().snapshot());
        }
        if (!problems.isEmpty()) {
            out.put("status", "degraded");
            out.put("problems", problems);
        }
        ctx.status(problems.isEmpty() ? 200 : 503).json(out);
    }

    private void callTool(Context ctx) throws Exception {
        ctx.json(dispatcher.call(ctx.attribute("caller"), ctx.pathParam("name"), bodies.read(ctx.req())));
    }

    /**
     * A frame's JPEG, optionally cropped ({@code crop=x,y,w,h} normalised, {@code padding}) and
     * resized ({@code width}, {@code height}); the {@code X-VideoWorld-Origin} header says whether
     * it was decoded from the source or is a stored keyframe.
     */
    private void frame(Context ctx) throws Exception {
        String id = ctx.pathParam("id");
        int sep = id.indexOf(":f:");
        if (sep <= 0 || id.length() > limits.maxIdLength()) {
            throw ApiException.badField("id", "'" + ApiException.quote(id) + "' is not a frame id (stream:f:index, at most "
                    + limits.maxIdLength() + " characters)");
        }
        String stream = InputBounds.streamId(id.substring(0, sep), "id");
        // Every parameter is checked before anything is read, so a bad one costs nothing.
        int width = intParam(ctx, "width");
        int height = intParam(ctx, "height");
        double[] crop = cropParam(ctx);
        double padding = numberParam(ctx, "padding", 0, 1);
        ToolDispatcher.requireRead(ctx.attribute("caller"), stream, "id");
        FrameRenderer.Rendered img = renderer.render(id, stream, width, height, crop, padding);
        ctx.header("X-VideoWorld-Origin", img.origin());
        ctx.header("Cache-Control", "max-age=3600");
        ctx.contentType("image/jpeg").result(img.jpeg());
    }

    /**
     * {@code POST /v1/ask}. With {@code "stream": true} (or {@code Accept: text/event-stream}) the
     * trace steps arrive as server-sent {@code step} events and the result as a {@code result} event.
     */
    private void ask(Context ctx) throws Exception {
        JsonNode body = bodies.read(ctx.req());
        if (body.isObject()) {
            InputBounds.check(body, limits);
        }
        Caller caller = ctx.attribute("caller");
        boolean sse = body.path("stream").asBoolean(false) || "text/event-stream".equals(ctx.header("Accept"));
        if (!sse) {
            ctx.json(ask.ask(caller, body, null));
            return;
        }
        // Validation errors still answer as plain 4xx JSON: nothing is streamed before the request is known to be good.
        io.videoworld.query.agent.AskService.validate(body);
        ctx.contentType("text/event-stream");
        ctx.header("Cache-Control", "no-cache");
        var out = ctx.res().getOutputStream();
        java.util.function.BiConsumer<String, Object> send = (event, data) -> {
            try {
                out.write(("event: " + event + "\ndata: " + Json.MAPPER.writeValueAsString(data) + "\n\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                out.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        try {
            send.accept("result", ask.ask(caller, body, step -> send.accept("step", step)));
        } catch (Exception e) {
            // The status line is long sent: the error travels as an event, mapped like any other.
            ErrorMapper.Answer a = ErrorMapper.answer(e, "POST /v1/ask (stream)");
            send.accept("error", Map.of("code", a.code(), "message", a.message()));
        }
    }

    private void listTools(Context ctx) {
        ctx.json(Map.of("tools", dispatcher.catalog().all().stream().map(t -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("family", t.family());
            m.put("aliases", t.aliases());
            m.put("description", t.description());
            m.put("available", dispatcher.available().contains(t.name()));
            return m;
        }).toList()));
    }

    private static String page(String resource) throws java.io.IOException {
        try (var in = QueryServer.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private void authenticate(Context ctx) {
        Caller caller = auth.authenticate(ctx.header("Authorization")).orElseThrow(() -> {
            ctx.header("WWW-Authenticate", "Bearer");
            return new ApiException(401, "unauthorized", null, ctx.header("Authorization") == null
                    ? "an Authorization: Bearer <token> header is required" : "the bearer token is not known");
        });
        ctx.attribute("caller", caller);
    }

    /** A query parameter given once, or null when absent; 400 naming it when it is repeated. */
    private static String param(Context ctx, String name) {
        List<String> values = ctx.queryParams(name);
        if (values.size() > 1) {
            throw ApiException.badField(name, "'" + name + "' must be given at most once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    private int intParam(Context ctx, String name) {
        String v = param(ctx, name);
        if (v == null) {
            return 0;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n < 1 || n > limits.maxImageSide()) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiException.badField(name, "'" + name + "' must be a whole number from 1 to " + limits.maxImageSide());
        }
    }

    /** A finite number within [min, max]; 0 when absent. */
    private static double numberParam(Context ctx, String name, double min, double max) {
        String v = param(ctx, name);
        if (v == null) {
            return 0;
        }
        double d;
        try {
            d = Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!Double.isFinite(d) || d < min || d > max) {
            throw ApiException.badField(name, "'" + name + "' must be a number from " + min + " to " + max);
        }
        return d;
    }

    /** {@code crop=x,y,w,h}, normalised and inside the picture, or null when absent. */
    private static double[] cropParam(Context ctx) {
        String crop = param(ctx, "crop");
        if (crop == null) {
            return null;
        }
        String[] parts = crop.split(",", -1);
        double[] b = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                b[i] = Double.parseDouble(parts[i].strip());
            } catch (NumberFormatException e) {
                b[i] = Double.NaN;
            }
        }
        // FrameUrls writes boxes with four decimals, so x + w of a box touching the edge can come back as 1.0001.
        boolean ok = b.length == 4 && java.util.Arrays.stream(b).allMatch(Double::isFinite)
                && b[0] >= 0 && b[1] >= 0 && b[0] < 1 && b[1] < 1 && b[2] > 0 && b[3] > 0 && b[0] + b[2] <= 1.0002 && b[1] + b[3] <= 1.0002;
        if (!ok) {
            throw ApiException.badField("crop", "'crop' must be x,y,width,height: four numbers inside [0, 1] with positive size");
        }
        return b;
    }

    @Override
    public void close() throws Exception {
        app.stop();
        transport.close();
        seeker.close();
    }
}
