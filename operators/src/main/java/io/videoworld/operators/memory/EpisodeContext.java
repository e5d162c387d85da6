package io.videoworld.operators.memory;

import io.videoworld.engines.memory.EpisodePolicy;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.Fallback;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.DecidedBatch;
import io.videoworld.operators.deadletters.GuardedAsyncFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O half of the episode decision, as Flink async I/O: looks up the stream's ten events most
 * similar to a batch (kNN on {@code vw-episodes}), and, for batches the rules left ambiguous and
 * only those, asks an OpenAI-compatible model with MIRIX's single-function-call protocol (one
 * {@code episodic_memory_decision} call: insert, or merge into the latest event or, naming it, into
 * any of the stored events listed, MIRIX's merge into any recent event, which becomes a return
 * linked to that event). The model's verdict is stored in
 * {@code vw-episode-decisions} under the batch's id before it is used and read back on replay,
 * so a restarted job makes the same decision as before and event writes stay exactly once. A
 * timeout, an error or a malformed call falls back to the rules' lean. Metrics:
 * {@code vwEpisodeLlmCalls}, {@code vwEpisodeLlmFallbacks}, {@code vwEpisodeAmbiguous}.
 */
public final class EpisodeContext extends GuardedAsyncFunction<EpisodeBatch, DecidedBatch> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "episode-context";
    private static final Logger LOG = LoggerFactory.getLogger(EpisodeContext.class);
    static final String FUNCTION = "episodic_memory_decision";
    static final String PROMPT = "You are the episodic memory manager of a screen and camera recorder. Each call you get the "
            + "recent activity of one stream (oldest first), the most similar stored events, and a new batch of what was seen. "
            + "Decide with exactly one call of " + FUNCTION + ": 'merge' when the new batch continues an activity (same task, "
            + "same document or conversation): the latest one, or, with its event_id, one of the stored events listed (a return "
            + "to an earlier task); 'insert' when it is a different activity. Do not answer in text.";

    private final String esUrl;
    private final LlmConfig llm;
    private final int threads;
    private final long retryForMs;
    private transient RestClientTransport transport;
    private transient ElasticsearchClient es;
    private transient LlmClient client;
    private transient ExecutorService pool;
    private transient Counter llmCalls;
    private transient Counter fallbacks;
    private transient Counter ambiguous;

    /** @param llm the model for ambiguous batches; null settles them by the rules' lean */
    public EpisodeContext(String esUrl, LlmConfig llm, int threads) {
        this(esUrl, llm, threads, 30_000);
    }

    /**
     * {@code retryForMs}: how long an unreachable Elasticsearch is retried (with backoff) before the
     * batch falls back to the rules without relevant events; keep it under the async timeout.
     */
    public EpisodeContext(String esUrl, LlmConfig llm, int threads, long retryForMs) {
        super(STAGE);
        this.retryForMs = retryForMs;
        this.esUrl = esUrl;
        this.llm = llm;
        this.threads = threads;
    }

    @Override
    public void open(OpenContext ctx) {
        start(getRuntimeContext().getMetricGroup());
    }

    /** Opens the clients; separate from {@link #open} so tests can run the decision without a job. */
    void start(org.apache.flink.metrics.MetricGroup metrics) {
        transport = EsClients.transport(esUrl);
        es = EsClients.sync(transport);
        client = llm == null ? null : new LlmClient(llm);
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "episode-context");
            t.setDaemon(true);
            return t;
        });
        llmCalls = metrics.counter("vwEpisodeLlmCalls");
        fallbacks = metrics.counter("vwEpisodeLlmFallbacks");
        ambiguous = metrics.counter("vwEpisodeAmbiguous");
    }

    @Override
    protected DecidedBatch deadLettered(EpisodeBatch b, DeadLetter deadLetter) {
        return new DecidedBatch(null, deadLetter);
    }

    @Override
    protected long eventTimeMs(EpisodeBatch b) {
        return b.endEventTimeMs();
    }

    @Override
    protected void invoke(EpisodeBatch b, ResultFuture<DecidedBatch> result) {
        pool.submit(() -> {
            // Elasticsearch down or failing: wait for it (the job slows down) rather than fail the job; past the time, the rules decide.
            Fallback<EpisodeBatch> rulesDecide = Fallback.<EpisodeBatch>builder(e -> {
                LOG.warn("memory context for {} batch {} gave up on Elasticsearch after {} ms, rules decide: {}", b.streamId(), b.batchSeq(),
                        retryForMs, String.valueOf(e.getLastException()));
                fallbacks.inc();
                return b.with(EpisodeBatch.AMBIGUOUS.equals(b.relation()) ? EpisodePolicy.lean(b) : b.relation(), b.relatedBatch(), "fallback",
                        List.of());
            }).handle(IOException.class, ElasticsearchException.class).build();
            try {
                EpisodeBatch decided = Failsafe.with(rulesDecide).compose(waitForElasticsearch(retryForMs)).get(() -> decide(b));
                result.complete(Collections.singletonList(DecidedBatch.of(decided)));
            } catch (FailsafeException e) {
                if (e.getCause() instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return;
                }
                result.completeExceptionally(e.getCause() == null ? e : e.getCause());
            } catch (Exception e) {
                result.completeExceptionally(e);
            }
        });
    }

    /**
     * Tries again after 200 ms, doubling up to 5 s, as long as the next wait still ends within
     * {@code retryForMs} of the first try (counted on the waits alone, and bounded by the clock too).
     */
    static RetryPolicy<EpisodeBatch> waitForElasticsearch(long retryForMs) {
        int retries = 0;
        long waited = 0;
        for (long d = 200; waited + d <= retryForMs; d = Math.min(5_000, d * 2)) {
            waited += d;
            retries++;
        }
        var p = RetryPolicy.<EpisodeBatch>builder().handle(IOException.class, ElasticsearchException.class).withMaxRetries(retries);
        if (retries > 0) {
            p.withBackoff(Duration.ofMillis(200), Duration.ofMillis(5_000));
        }
        if (retryForMs > 200) {
            p.withMaxDuration(Duration.ofMillis(retryForMs));
        }
        return p.build();
    }

    @Override
    public void timeout(EpisodeBatch b, ResultFuture<DecidedBatch> result) {
        fallbacks.inc();
        result.complete(Collections.singletonList(DecidedBatch.of(b.with(b.relation(), b.relatedBatch(), "fallback", List.of()))));
    }

    EpisodeBatch decide(EpisodeBatch b) throws Exception {
        List<EpisodeBatch.RelevantEvent> relevant = relevant(b);
        if (!EpisodeBatch.AMBIGUOUS.equals(b.relation())) {
            return b.with(b.relation(), b.relatedBatch(), "rules", relevant);
        }
        ambiguous.inc();
        if (client == null) {
            return b.with(EpisodePolicy.lean(b), -1, "fallback", relevant);
        }
        String id = b.streamId() + ":" + b.epochMs() + ":" + b.batchSeq();
        var stored = es.get(g -> g.index(Names.EPISODE_DECISIONS_INDEX).id(id), JsonNode.class);
        if (stored.found()) {
            String eventId = stored.source().path("event_id").asText(null);
            return b.with(stored.source().path("relation").asText(), -1, stored.source().path("decided_by").asText(), named(relevant, eventId));
        }
        String relation;
        String by;
        String reason = "";
        String eventId = null;
        try {
            llmCalls.inc();
            ChatMessage reply = client.chat(List.of(ChatMessage.system(PROMPT), ChatMessage.user(prompt(b, relevant))),
                    List.of(new LlmClient.ToolSpec(FUNCTION, "Record how the new batch relates to the latest activity.", schema())), false);
            Verdict verdict = parse(reply, relevant);
            relation = verdict.relation();
            reason = verdict.reason();
            eventId = verdict.eventId();
            by = "llm";
        } catch (Exception e) {
            LOG.warn("episode decision for {} fell back to the rules: {}", id, e.getMessage());
            fallbacks.inc();
            relation = EpisodePolicy.lean(b);
            by = "fallback";
        }
        ObjectNode doc = Json.MAPPER.createObjectNode().put("stream_id", b.streamId()).put("epoch_ms", b.epochMs())
                .put("batch_seq", b.batchSeq()).put("relation", relation).put("related_batch", -1).put("decided_by", by).put("reason", reason);
        if (eventId != null) {
            doc.put("event_id", eventId);
        }
        es.index(i -> i.index(Names.EPISODE_DECISIONS_INDEX).id(id).document(doc));
        return b.with(relation, -1, by, named(relevant, eventId));
    }

    /** The model's call: continue, new, or return to the stored event {@code eventId} (null otherwise). */
    record Verdict(String relation, String eventId, String reason) {}

    /**
     * The relevant events with the one the model named first, which the writer links a return to
     * (on a replay the lookup may not find it any more: it is put back by id).
     */
    static List<EpisodeBatch.RelevantEvent> named(List<EpisodeBatch.RelevantEvent> relevant, String eventId) {
        if (eventId == null) {
            return relevant;
        }
        List<EpisodeBatch.RelevantEvent> out = new ArrayList<>(relevant);
        EpisodeBatch.RelevantEvent hit = out.stream().filter(r -> r.eventId().equals(eventId)).findFirst()
                .orElse(new EpisodeBatch.RelevantEvent(eventId, "", null, 0, 1));
        out.remove(hit);
        out.add(0, hit);
        return out;
    }

    /**
     * The model's single call; anything else is refused, and so is a merge into an event that was
     * not offered (a made-up id).
     */
    static Verdict parse(ChatMessage reply, List<EpisodeBatch.RelevantEvent> offered) {
        List<ChatMessage.ToolCall> calls = reply.toolCalls();
        if (calls.size() != 1 || !FUNCTION.equals(calls.get(0).name())) {
            throw new IllegalArgumentException("expected one " + FUNCTION + " call, got " + calls.size() + " calls"
                    + (reply.content() == null ? "" : " and text"));
        }
        JsonNode args;
        try {
            args = Json.MAPPER.readTree(calls.get(0).arguments());
        } catch (Exception e) {
            throw new IllegalArgumentException("arguments are not JSON: " + calls.get(0).arguments());
        }
        String action = args.path("action").asText("");
        String reason = args.path("reason").asText("");
        String eventId = args.path("event_id").asText("");
        if (action.equals("merge") && !eventId.isEmpty()) {
            if (offered.stream().noneMatch(r -> r.eventId().equals(eventId))) {
                throw new IllegalArgumentException("event_id '" + eventId + "' is not one of the stored events offered");
            }
            return new Verdict(EpisodeBatch.RETURN, eventId, reason);
        }
        return switch (action) {
            case "merge" -> new Verdict(EpisodeBatch.CONTINUE, null, reason);
            case "insert" -> new Verdict(EpisodeBatch.NEW, null, reason);
            default -> throw new IllegalArgumentException("action must be insert or merge, was '" + action + "'");
        };
    }

    static JsonNode schema() {
        ObjectNode s = Json.MAPPER.createObjectNode().put("type", "object");
        ObjectNode props = s.putObject("properties");
        props.putObject("action").put("type", "string").putArray("enum").add("insert").add("merge");
        props.putObject("event_id").put("type", "string")
                .put("description", "merge only: the id of the stored event the batch continues; leave out for the latest activity");
        props.putObject("reason").put("type", "string");
        s.putArray("required").add("action");
        return s;
    }

    static String prompt(EpisodeBatch b, List<EpisodeBatch.RelevantEvent> relevant) {
        StringBuilder sb = new StringBuilder("Recent activity (oldest first):\n");
        for (EpisodeBatch.Digest d : b.recent()) {
            sb.append("- [").append(d.startPtsMs() / 1000).append("-").append(d.endPtsMs() / 1000).append(" s] ")
                    .append(d.title() == null ? "(no title)" : d.title()).append(": ").append(d.text()).append('\n');
        }
        sb.append("\nMost similar stored events:\n");
        for (EpisodeBatch.RelevantEvent r : relevant) {
            sb.append("- ").append(r.eventId()).append(" (").append(String.format("%.2f", r.score())).append("): ").append(r.summary()).append('\n');
        }
        sb.append("\nNew batch [").append(b.startPtsMs() / 1000).append("-").append(b.endPtsMs() / 1000).append(" s]: ")
                .append(b.title() == null ? "(no title)" : b.title()).append('\n');
        b.lines().stream().limit(12).forEach(l -> sb.append("  ").append(l).append('\n'));
        if (!b.labels().isEmpty()) {
            sb.append("  objects: ").append(String.join(", ", b.labels())).append('\n');
        }
        // What was said, quoted as data (double quotes made single), each stretch with its times.
        b.said().stream().filter(u -> u.text() != null && !u.text().isBlank()).limit(12).forEach(u -> sb.append("  said [")
                .append(u.startPtsMs() / 1000).append("-").append(u.endPtsMs() / 1000).append(" s]: \"")
                .append(abbreviate(u.text().replaceAll("\\s+", " ").replace('"', '\'').trim(), 300)).append("\"\n"));
        return sb.toString();
    }

    private static String abbreviate(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "..." : text;
    }

    private List<EpisodeBatch.RelevantEvent> relevant(EpisodeBatch b) throws Exception {
        if (b.embedding() == null) {
            return List.of();
        }
        List<Float> qv = new ArrayList<>();
        for (float f : b.embedding()) {
            qv.add(f);
        }
        try {
            List<EpisodeBatch.RelevantEvent> out = new ArrayList<>();
            for (Hit<JsonNode> h : es.search(s -> s.index(Names.EPISODES_INDEX).size(10).source(src -> src.filter(f -> f.excludes("embedding", "details")))
                    .knn(k -> k.field("embedding").queryVector(qv).k(10).numCandidates(50)
                            .filter(f -> f.term(t -> t.field("stream_id").value(b.streamId())))), JsonNode.class).hits().hits()) {
                JsonNode d = h.source();
                out.add(new EpisodeBatch.RelevantEvent(d.path("event_id").asText(), d.path("summary").asText(), d.path("app").asText(null),
                        d.path("occurred_at").asLong(), h.score() == null ? 0 : h.score()));
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404 || e.status() == 400) {
                return List.of();
            }
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (transport != null) {
            transport.close();
        }
    }
}
