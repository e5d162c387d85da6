package io.videoworld.query;

import io.videoworld.clients.asr.Transcriber;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.limits.TrafficLimits;
import io.videoworld.query.streams.RetentionPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every way of serving the tools shares (REST and MCP over stdio): where the indexed
 * state is, the models, the tokens. A picocli mixin, so both commands read them the same way.
 */
public final class ServiceOptions {
    @Option(names = "--es-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE})")
    String esUrl;

    @Option(names = "--frame-store", defaultValue = ".vw/frames", description = "keyframe store: the ingest job's vw.frame-store URI "
            + "(file://, s3://, hdfs://; settings from $VW_FS_CONF_DIR/config.yaml) or a directory (default: ${DEFAULT-VALUE})")
    String frameStore;

    @Option(names = "--source-root", paramLabel = "FROM=TO", description = "open recorded sources under FROM (a path or URI prefix, "
            + "as the producer recorded it) at TO here (a path or an http(s) URL prefix); repeatable, the first match wins")
    List<String> sourceRoots = new java.util.ArrayList<>();

    @Option(names = "--tokens", description = "JSON file of bearer tokens and the streams each may read; "
            + "VW_ADMIN_TOKEN adds an admin token; with neither, authentication is off")
    Path tokens;

    @Option(names = "--llm-url", description = "OpenAI-compatible endpoint base, e.g. http://localhost:11434/v1 (none: evidence mode)")
    String llmUrl;

    @Option(names = "--llm-model", description = "model name for --llm-url")
    String llmModel;

    @Option(names = "--llm-vision", description = "the model accepts images")
    boolean llmVision;

    @Option(names = "--llm-timeout", defaultValue = "60", description = "seconds per model call (default: ${DEFAULT-VALUE})")
    int llmTimeout;

    @Option(names = "--models", defaultValue = ".vw/models", description = "models from deploy/models.sh, for question embeddings (default: ${DEFAULT-VALUE})")
    Path models;

    @Option(names = "--asr-url", description = "OpenAI-compatible transcription endpoint (…/v1) for get_transcript; "
            + "key from $VW_ASR_KEY (default: subtitles beside the source only)")
    String asrUrl;

    @Option(names = "--asr-model", defaultValue = "whisper-1", description = "transcription model name (default: ${DEFAULT-VALUE})")
    String asrModel;

    @Option(names = "--detect-model", defaultValue = "centernet", description = "detector for frames with no stored detections: "
            + "centernet, yolo:PATH.onnx, torchscript:PATH.pt or none (default: ${DEFAULT-VALUE})")
    String detectModel;

    @Option(names = "--flink-url", defaultValue = "http://localhost:8081", description = "Flink's REST API (the dashboard), "
            + "where /health reads the ingest job's state; 'none' to not check it (default: ${DEFAULT-VALUE})")
    String flinkUrl;

    @Option(names = "--retention", defaultValue = "${sys:vw.retention}", description = "vw.retention: how long indexed data is kept, "
            + "e.g. 30d, 12h, P7D; older documents and stored frames are deleted on a schedule (default: kept)")
    String retention;

    @Option(names = "--budget-per-stream", defaultValue = "${sys:vw.budget.per-stream}", description = "vw.budget.per-stream: the most "
            + "bytes of stored keyframes one stream keeps, e.g. 20GB; the oldest go first, on a schedule (default: no bound)")
    String budgetPerStream;

    @Option(names = "--budget-total", defaultValue = "${sys:vw.budget.total}", description = "vw.budget.total: the most bytes of "
            + "stored keyframes all streams keep together, e.g. 100GB; the oldest of any stream go first (default: no bound)")
    String budgetTotal;

    @Option(names = "--budget-every", defaultValue = "10m", description = "how often the storage budget is applied, e.g. 10m, 1h "
            + "(default: ${DEFAULT-VALUE})")
    String budgetEvery;

    @Option(names = "--webhook-hosts", split = ",", description = "alert webhooks may name only these hosts (name or *.domain, "
            + "comma separated; default: any host with public addresses)")
    List<String> webhookHosts = new java.util.ArrayList<>();

    @Option(names = "--webhook-networks", split = ",", description = "CIDRs alert webhooks may reach even when loopback, private or "
            + "link-local, e.g. 127.0.0.1/32,10.8.0.0/16 (default: none, public addresses only)")
    List<String> webhookNetworks = new java.util.ArrayList<>();

    @Option(names = "--rate-limit", defaultValue = "400", description = "requests per second each caller (a token, or an IP address "
            + "while authentication is off) may make on /v1/* and /mcp; past it 429 with Retry-After; 0 for no limit (default: ${DEFAULT-VALUE})")
    double rateLimit;

    @Option(names = "--rate-burst", defaultValue = "800", description = "requests a caller may make at once before --rate-limit "
            + "applies (default: ${DEFAULT-VALUE})")
    int rateBurst;

    @Option(names = "--request-deadline", defaultValue = "120", description = "seconds a JSON answer may take before the client "
            + "gets 504; event streams are not bounded by it; 0 for none (default: ${DEFAULT-VALUE})")
    double requestDeadline;

    @Option(names = "--max-concurrent-ask", defaultValue = "64", description = "/v1/ask requests served at once; more get 503 "
            + "with Retry-After (default: ${DEFAULT-VALUE})")
    int maxConcurrentAsk;

    @Option(names = "--max-sse-clients", defaultValue = "256", description = "server-sent event streams open at once (live events "
            + "and streamed /v1/ask); more get 503 with Retry-After (default: ${DEFAULT-VALUE})")
    int maxSseClients;

    @Option(names = "--max-workers", defaultValue = "256", description = "JSON answers computed at once; more get 503 with "
            + "Retry-After (default: ${DEFAULT-VALUE})")
    int maxWorkers;

    /** The traffic limits these options name. */
    TrafficLimits traffic() {
        if (requestDeadline < 0 || Double.isNaN(requestDeadline)) {
            throw new IllegalArgumentException("--request-deadline must be 0 (none) or a positive number of seconds");
        }
        try {
            return new TrafficLimits(rateLimit, rateBurst, Math.round(requestDeadline * 1000), maxConcurrentAsk, maxSseClients, maxWorkers);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--rate-limit, --rate-burst, --max-concurrent-ask, --max-sse-clients, --max-workers: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The configuration these options name; models that fail to load are left out with one line on
     * stderr saying what is lost.
     *
     * @throws IllegalArgumentException for an option that cannot be used (the message says which)
     */
    QueryConfig config() throws IOException {
        SourceLocator sources;
        try {
            sources = SourceLocator.withRoots(sourceRoots);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--source-root: " + e.getMessage(), e);
        }
        QueryConfig config = QueryConfig.of(esUrl, frameStore).withIngest(IngestHealth.of(flinkUrl)).withSources(sources)
                .withAuth(Auth.load(tokens, System.getenv("VW_ADMIN_TOKEN"))).withTraffic(traffic());
        try {
            config = config.withWebhooks(io.videoworld.query.alerts.WebhookEgress.of(webhookHosts, webhookNetworks));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--webhook-hosts/--webhook-networks: " + e.getMessage(), e);
        }
        if (retention != null && !retention.isBlank()) {
            config = config.withRetention(RetentionPolicy.of(RetentionPolicy.parse("--retention", retention)));
        }
        long perStream = io.videoworld.query.streams.BudgetPolicy.parseSize("--budget-per-stream", budgetPerStream);
        long total = io.videoworld.query.streams.BudgetPolicy.parseSize("--budget-total", budgetTotal);
        if (perStream > 0 || total > 0) {
            config = config.withBudget(new io.videoworld.query.streams.BudgetPolicy(perStream, total,
                    RetentionPolicy.parse("--budget-every", budgetEvery), java.util.List.of()));
        }
        if (llmUrl != null) {
            config = config.withLlm(new LlmClient(new LlmConfig(llmUrl, llmModel, System.getenv("VW_LLM_KEY"),
                    Duration.ofSeconds(llmTimeout), 2, llmVision)));
        }
        try {
            config = config.withEmbedder(TextEmbedder.load(models));
        } catch (IOException e) {
            System.err.println("evidence search without embeddings: " + e.getMessage());
        }
        if (!"none".equals(detectModel)) {
            try {
                config = config.withDetector(ObjectDetector.load(models, detectModel, List.of(), 0, 0.1));
            } catch (IOException | RuntimeException e) {
                System.err.println("detect_objects answers from stored detections only: " + e.getMessage());
            }
        }
        if (asrUrl != null) {
            config = config.withTranscriber(new Transcriber(asrUrl, asrModel, System.getenv("VW_ASR_KEY"), Duration.ofMinutes(5)));
        }
        return config;
    }
}
