package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.query.auth.Auth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code GET /health} reports: {@code ok} while Elasticsearch answers (and is not red) and the
 * ingest job runs without restarts in the last 10 minutes (or no Flink URL is configured);
 * otherwise {@code degraded}, with the reasons in {@code problems}.
 */
final class ServiceHealth {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceHealth.class);

    /** The report; {@code llm_usage} only with a model, {@code problems} only when degraded. */
    record Health(String status, String elasticsearch, Map<String, Object> ingestJob, String auth, String llm, Map<String, Long> llmUsage,
            List<String> problems) {
        boolean ok() {
            return problems == null;
        }
    }

    private final ElasticsearchClient es;
    private final IngestHealth ingest;
    private final Auth auth;
    private final LlmClient llm;

    ServiceHealth(ElasticsearchClient es, IngestHealth ingest, Auth auth, LlmClient llm) {
        this.es = es;
        this.ingest = ingest;
        this.auth = auth;
        this.llm = llm;
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
        return new Health(problems.isEmpty() ? "ok" : "degraded", elasticsearch, job.json(), auth.enabled() ? "bearer" : "off",
                llm == null ? "none (evidence mode)" : llm.config().model() + " at " + llm.config().baseUrl(),
                llm == null ? null : llm.usage().snapshot(), problems.isEmpty() ? null : problems);
    }
}
