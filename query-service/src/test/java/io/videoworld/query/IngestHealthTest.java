package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /health} against a real Flink (a MiniCluster with its REST API): no job, a healthy job
 * counting dead letters, a job in a restart loop, Flink down, and no Flink configured.
 */
class IngestHealthTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path tmp;
    private static MiniCluster flink;
    private static QueryServer server;

    @BeforeAll
    static void start() throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        // The REST API reads task metrics through a fetcher that refreshes every 10 s by default.
        conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(200));
        flink = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(4).build());
        flink.start();
        server = server(flink.getRestAddress().get().toString());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        flink.close();
    }

    private static QueryServer server(String flinkUrl) {
        return new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())
                .withIngest(IngestHealth.of(flinkUrl))).start("127.0.0.1", 0);
    }

    @Test
    void healthFollowsTheIngestJobThroughAHealthyRunAndARestartLoop() throws Exception {
        Health none = health(server);
        assertThat(none.status).isEqualTo(503);
        assertThat(none.json.get("status").asText()).isEqualTo("degraded");
        assertThat(none.json.at("/ingest_job/state").asText()).isEqualTo("not_found");
        assertThat(none.json.at("/speech/audio").asText()).isEqualTo("unknown");

        JobID healthy = submit(false);
        Health ok = waitFor(server, h -> h.status == 200 && h.json.at("/ingest_job/dead_letters").asLong() > 0
                && h.json.at("/ingest_job/perception_failures").asLong() > 0);
        assertThat(ok.json.get("status").asText()).isEqualTo("ok");
        assertThat(ok.json.at("/ingest_job/state").asText()).isEqualTo("RUNNING");
        assertThat(ok.json.at("/ingest_job/restarts_last_10_min").asLong()).isZero();
        assertThat(ok.json.has("problems")).isFalse();
        // The job runs an operator under the speech stage's name, so the audio branch reads as on.
        assertThat(ok.json.at("/ingest_job/audio").asText()).isEqualTo("on");
        assertThat(ok.json.at("/speech/audio").asText()).isEqualTo("on");
        System.out.println("[health] a healthy ingest job: " + ok.json);
        // Both subtasks count: 1 dead letter in 10 and 1 perception failure in 20, summed over the parallel maps.
        assertThat(ok.json.at("/ingest_job/dead_letters").asLong()).isGreaterThanOrEqualTo(ok.json.at("/ingest_job/perception_failures").asLong());

        flink.cancelJob(healthy).get();
        submit(true);
        Health loop = waitFor(server, h -> h.status == 503 && h.json.at("/ingest_job/restarts_last_10_min").asLong() > 0);
        System.out.println("[health] an ingest job in a restart loop: " + loop.json);
        assertThat(loop.json.get("status").asText()).isEqualTo("degraded");
        assertThat(loop.json.at("/ingest_job/job_id").asText()).isNotEqualTo(healthy.toHexString());
        assertThat(loop.json.get("problems").toString()).contains("ingest job");
        assertThat(loop.json.get("elasticsearch").asText()).isIn("green", "yellow");
        assertThat(loop.json.toString()).doesNotContain("Exception").doesNotContain("java.");
        assertThat(loop.json.at("/ingest_job/audio").asText()).isEqualTo("off");
    }

    @Test
    void healthNamesTheRecogniserOfTheNewestTranscriptTheJobWrote() throws Exception {
        long now = System.currentTimeMillis();
        String recognizer = "scripted-asr:health-" + now;
        try (RestClientTransport t = EsClients.transport(TestInfra.get().elasticsearchUrl())) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, EsIndices.ALL);
            SnapshotStreams.write(c, EsDocuments.transcript(new TranscriptDoc("health-speech", now - 60_000, 1_000, 2_000, 0.9, -20,
                    "silero-vad:v5", "sphinx4:en-us", TranscriptDoc.OK, "older words", List.of(), null)));
            SnapshotStreams.write(c, EsDocuments.transcript(new TranscriptDoc("health-speech", now, 500, 1_500, 0.9, -20,
                    "silero-vad:v5", recognizer, TranscriptDoc.OK, "newest words", List.of(), null)));
            c.indices().refresh(r -> r.index(Names.TRANSCRIPTS_INDEX));
        }
        try (QueryServer off = server("none")) {
            Health h = health(off);
            System.out.println("[health] speech: " + h.json.get("speech"));
            assertThat(h.json.at("/speech/recognizer").asText()).isEqualTo(recognizer);
            assertThat(h.json.at("/speech/vad").asText()).isEqualTo("silero-vad:v5");
            assertThat(h.json.at("/speech/stream_id").asText()).isEqualTo("health-speech");
            assertThat(h.json.at("/speech/heard_at").asText()).isEqualTo(java.time.Instant.ofEpochMilli(now + 500).toString());
            assertThat(h.json.at("/speech/audio").asText()).isEqualTo("unknown");
        }
    }

    @Test
    void flinkOrElasticsearchNotAnsweringIsDegradedAndNoFlinkConfiguredIsNot() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        try (QueryServer down = server("http://127.0.0.1:" + closed)) {
            Health h = health(down);
            assertThat(h.status).isEqualTo(503);
            assertThat(h.json.at("/ingest_job/state").asText()).isEqualTo("unreachable");
            assertThat(h.json.at("/ingest_job/reason").asText()).isEqualTo("connection refused");
        }
        try (QueryServer off = server("none")) {
            Health h = health(off);
            assertThat(h.status).isEqualTo(200);
            assertThat(h.json.get("status").asText()).isEqualTo("ok");
            assertThat(h.json.at("/ingest_job/state").asText()).isEqualTo("not_configured");
        }
        try (QueryServer noEs = new QueryServer(QueryConfig.of("http://127.0.0.1:" + closed, tmp.toString())
                .withIngest(IngestHealth.of("none"))).start("127.0.0.1", 0)) {
            Health h = health(noEs);
            assertThat(h.status).isEqualTo(503);
            assertThat(h.json.get("elasticsearch").asText()).isEqualTo("unreachable");
            assertThat(h.json.get("problems").toString()).contains("Elasticsearch does not answer");
        }
    }

    /** Submits a job named like the ingest job: parallel maps counting dead letters, or (failing) a map that throws on its 50th record, restarted forever. */
    private static JobID submit(boolean failing) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        var counted = env.fromSequence(0, Long.MAX_VALUE).map(new Counting(failing)).name("route dead letters");
        (failing ? counted : counted.map(x -> x).returns(Long.class).name(Names.SPEECH_STAGE)).sinkTo(new DiscardingSink<>());
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(IngestHealth.JOB_NAME);
        return flink.submitJob(graph).get().getJobID();
    }

    /** Counts one dead letter in ten records and one perception failure in twenty, a few hundred records a second. */
    static final class Counting extends RichMapFunction<Long, Long> {
        private final boolean failing;
        private transient Counter deadLetters;
        private transient Counter perceptionFailures;

        Counting(boolean failing) {
            this.failing = failing;
        }

        @Override
        public void open(OpenContext ctx) {
            deadLetters = getRuntimeContext().getMetricGroup().counter("vwDeadLetters");
            perceptionFailures = getRuntimeContext().getMetricGroup().counter("vwPerceptionFailures");
        }

        @Override
        public Long map(Long value) throws Exception {
            if (failing && value % 1000 == 50) {
                throw new IllegalStateException("poisoned record " + value);
            }
            if (value % 10 == 0) {
                deadLetters.inc();
            }
            if (value % 20 == 0) {
                perceptionFailures.inc();
            }
            Thread.sleep(2);
            return value;
        }
    }

    private record Health(int status, JsonNode json) {}

    private static Health health(QueryServer s) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Health(r.statusCode(), Json.MAPPER.readTree(r.body()));
    }

    private static Health waitFor(QueryServer s, Predicate<Health> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Health h = health(s);
        while (!done.test(h)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("/health never got there; last answer " + h.status + " " + h.json);
            }
            Thread.sleep(300);
            h = health(s);
        }
        return h;
    }
}
