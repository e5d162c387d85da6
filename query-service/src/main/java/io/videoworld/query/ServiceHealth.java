package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.connectors.esread.TranscriptRepository;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.query.auth.Auth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code GET /health} reports: {@code ok} while Elasticsearch answers (and is not red) and the
 * ingest job runs without restarts in the last 10 minutes (or no Flink URL is configured);
 * otherwise {@code degraded}, with the reasons in {@code problems}. {@code speech} names the
 * recogniser and voice-activity model of the newest transcript the job wrote, and whether the
 * running job has its audio branch on; it never makes the report degraded.
 */
final class ServiceHealth {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceHealth.class);

    /** The report; {@code llm_usage} only with a model, {@code problems} only when degraded. */
    record Health(String status, String elasticsearch, Map<String, Object> ingestJob, Map<String, Object> speech, String auth, String llm,
            Map<String, Long> llmUsage, List<String> problems) {
        boolean ok() {
            return problems == null;
        }
    }

    private final ElasticsearchClient es;
    private final IngestHealth ingest;
    private final Auth auth;
    private final LlmClient llm;
    private final TranscriptRepository transcripts;

    ServiceHealth(ElasticsearchClient es, IngestHealth ingest, Auth auth, LlmClient llm) {
        this.es = es;
        this.ingest = ingest;
        this.auth = auth;
        this.llm = llm;
        this.transcripts = new TranscriptRepository(es);
    }

    /**
     * {@code audio}: on/off from the job's plan, unknown without a Flink reading; {@code recognizer},
     * {@code vad}, {@code stream_id} and {@code heard_at} from the newest {@code vw-transcripts}
     * document, or {@code recognizer: none} when the job has written none.
     */
    private Map<String, Object> speech(IngestHealth.Reading job) {
        Map<String, Object> out = new LinkedHashMap<>();
        Object audio = job.json().get("audio");
        out.put("audio", audio == null ? "unknown" : audio);
        try {
            Optional<TranscriptDoc> t = transcripts.newest();
            if (t.isEmpty()) {
                out.put("recognizer", "none");
                out.put("reason", "no transcript has been written yet");
            } else {
                out.put("recognizer", t.get().recognizer());
                out.put("vad", t.get().vad());
                out.put("stream_id", t.get().streamId());
                out.put("heard_at", Instant.ofEpochMilli(t.get().epochMs() + t.get().startMs()).toString());
            }
        } catch (Exception e) {
            LOG.warn("health: transcripts not readable: {}", e.toString());
            out.put("recognizer", "unknown");
            out.put("reason", "vw-transcripts could not be read");
        }
        return out;
    }

    Health read() {
        List<String> problems = new ArrayList<>();
        String elasticsearch;
        try {
            elasticsearch = es.cluster().health().status().jsonValue();
            if ("red".equals(elasticsearch)) {
                problems.add("Elasticsearch is red: some indices cannot be searched");
            }
        } catch (Exception e) {
            LOG.warn("health: Elasticsearch does not answer: {}", e.toString());
            elasticsearch = "unreachable";
            problems.add("Elasticsearch does not answer");
        }
        IngestHealth.Reading job = ingest.read();
        if (!job.healthy()) {
            problems.add(job.problem());
        }
        return new Health(problems.isEmpty() ? "ok" : "degraded", elasticsearch, job.json(), speech(job), auth.enabled() ? "bearer" : "off",
                llm == null ? "none (evidence mode)" : llm.config().model() + " at " + llm.config().baseUrl(),
                llm == null ? null : llm.usage().snapshot(), problems.isEmpty() ? null : problems);
    }
}
