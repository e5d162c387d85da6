package io.videoworld.query;

import io.videoworld.clients.asr.Transcriber;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.alerts.WebhookEgress;
import io.videoworld.query.limits.TrafficLimits;
import io.videoworld.query.api.RequestLimits;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.streams.RetentionPolicy;
import java.util.Objects;

/**
 * Everything a query server is started with, in one record, so a new option is a new field and a
 * {@code with} method rather than another constructor. Start from {@link #of} and add what the
 * server should have; what is left null is not there, and the tools that need it say so.
 *
 * @param esUrl Elasticsearch
 * @param frameStore the keyframe store the ingest job writes: the same URI ({@code file://}, {@code s3://}, {@code hdfs://}, read
 *     through Flink's FileSystem) or a directory
 * @param auth who may call, and which streams each may read
 * @param llm the model for {@code /v1/ask}, merges and, with vision, describe_visual; null runs the agent in evidence mode
 * @param embedder embeds questions and texts for the vector half of hybrid search; null searches text only
 * @param detector runs on decoded frames where the ingest job stored no detections near the asked time; null answers
 *     only from stored detections
 * @param transcriber an OpenAI-compatible transcription endpoint for get_transcript; null for subtitles only
 * @param limits how much one request may ask (body size, JSON depth, id lengths, pixels)
 * @param ingest where {@code /health} reads the ingest job's state
 * @param sources where the source URIs the producer recorded are opened here (source roots for another machine's paths)
 * @param retention how long indexed data is kept ({@code vw.retention}); null keeps it
 * @param budget how many bytes of stored keyframes are kept, applied on a schedule; null keeps them all
 * @param webhooks where alert webhooks may point
 * @param traffic how much traffic the server takes: per-caller rate, deadline, concurrent asks and event streams
 */
public record QueryConfig(String esUrl, String frameStore, Auth auth, LlmClient llm, TextEmbedder embedder, ObjectDetector detector,
        Transcriber transcriber, RequestLimits limits, IngestHealth ingest, SourceLocator sources, RetentionPolicy retention,
        io.videoworld.query.streams.BudgetPolicy budget, WebhookEgress webhooks, TrafficLimits traffic) {

    public QueryConfig {
        Objects.requireNonNull(esUrl, "esUrl");
        Objects.requireNonNull(frameStore, "frameStore");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(webhooks, "webhooks");
        Objects.requireNonNull(traffic, "traffic");
    }

    /**
     * A server over Elasticsearch and a frame store, with auth off, no models, the default limits, no ingest job check and
     * alert webhooks to public addresses only and the default traffic limits.
     */
    public static QueryConfig of(String esUrl, String frameStore) {
        return new QueryConfig(esUrl, frameStore, Auth.off(), null, null, null, null, RequestLimits.defaults(), IngestHealth.of(null),
                SourceLocator.direct(), null, null, WebhookEgress.publicOnly(),
                TrafficLimits.defaults());
    }

    public QueryConfig withAuth(Auth auth) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withLlm(LlmClient llm) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withEmbedder(TextEmbedder embedder) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withDetector(ObjectDetector detector) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withTranscriber(Transcriber transcriber) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withLimits(RequestLimits limits) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withIngest(IngestHealth ingest) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withSources(SourceLocator sources) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withRetention(RetentionPolicy retention) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withBudget(io.videoworld.query.streams.BudgetPolicy budget) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    public QueryConfig withWebhooks(WebhookEgress webhooks) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }

    /** The model when it accepts images, else null. */
    LlmClient vision() {
        return llm != null && llm.config().vision() ? llm : null;
    }

    public QueryConfig withTraffic(TrafficLimits traffic) {
        return new QueryConfig(esUrl, frameStore, auth, llm, embedder, detector, transcriber, limits, ingest, sources, retention, budget, webhooks, traffic);
    }
}
