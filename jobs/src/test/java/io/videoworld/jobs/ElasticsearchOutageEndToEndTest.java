package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Names;
import io.videoworld.testkit.TestInfra;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Elasticsearch stopped for 30 s in the middle of an ingest: its own server on another port
 * (the shared test server stays up for the other tests), restarts off so any failure would fail
 * the job. The sink backs off, the memory context waits, and once the server is back the job
 * catches up: every frame, shot and episode of both pushes is there.
 */
class ElasticsearchOutageEndToEndTest {
    private static final int PORT = Integer.parseInt(System.getenv().getOrDefault("VW_TEST_ES_OUTAGE_PORT", "9251"));
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;

    @Test
    void theJobRidesOutThirtySecondsWithoutElasticsearchAndLosesNothing() throws Exception {
        TestInfra infra = TestInfra.get();
        String url = elasticsearch("start");
        JobClient job = null;
        try (RestClientTransport transport = EsClients.transport(url)) {
            ElasticsearchClient es = EsClients.sync(transport);
            job = IngestRun.start(infra, "outage", tmp.resolve("frames"), conf -> {
                conf.set(IngestOptions.ES_URL, url);
                conf.set(DetectOptions.ENABLED, false);
                conf.set(PerceptionOptions.ENABLED, false);
                conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            });
            push(infra, "before-outage");
            IngestRun.await("the first push indexed", 120, () -> frames(es, "before-outage") == 50);

            elasticsearch("stop");
            push(infra, "during-outage");
            Thread.sleep(30_000);
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
            elasticsearch("start");

            IngestRun.await("the second push indexed once Elasticsearch is back", 180, () -> frames(es, "during-outage") == 50
                    && count(es, Names.SHOTS_INDEX, "during-outage", "shot") == 3
                    && count(es, Names.EPISODES_INDEX, "during-outage", null) >= 1);
            assertThat(frames(es, "before-outage")).isEqualTo(50);
            assertThat(count(es, Names.SHOTS_INDEX, "before-outage", "shot")).isEqualTo(3);
            assertThat(job.getJobStatus().get()).as("restarts are off: a failure would have failed the job").isEqualTo(JobStatus.RUNNING);
        } finally {
            if (job != null) {
                job.cancel().get();
            }
            elasticsearch("stop");
        }
    }

    private static void push(TestInfra infra, String stream) throws Exception {
        Path video = tmp.resolve(stream + ".mp4");
        SampleVideo.write(video, 320, 180, 25, 10.0, List.of(3.0, 6.5));
        assertThat(VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "outage.frames",
                "--stream-id", stream, "--fps", "5", "--batch-frames", "5", "--epoch-ms", String.valueOf(EPOCH))).isZero();
    }

    private static long frames(ElasticsearchClient es, String stream) throws Exception {
        return count(es, Names.FRAMES_INDEX, stream, null);
    }

    private static long count(ElasticsearchClient es, String index, String stream, String kind) throws Exception {
        return IngestRun.count(es, index, Query.of(q -> q.bool(b -> {
            b.filter(IngestRun.term("stream_id", stream)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)));
            if (kind != null) {
                b.filter(IngestRun.term("kind", kind));
            }
            return b;
        })));
    }

    /** Starts or stops this test's own server with the project's script; returns its URL. */
    private static String elasticsearch(String verb) throws IOException, InterruptedException {
        Path script = Path.of("..", "deploy", "elasticsearch.sh").toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), verb).redirectErrorStream(true);
        pb.environment().put("VW_ES_PORT", String.valueOf(PORT));
        pb.environment().put("VW_ES_HEAP", "384m");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("deploy/elasticsearch.sh %s: %s", verb, out).isZero();
        String[] lines = out.split("\n");
        return lines[lines.length - 1];
    }
}
