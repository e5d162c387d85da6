package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.TestInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on real separate processes, at a size that fits CI: a Flink JobManager and two TaskManagers,
 * each its own JVM, run the ingest job (submitted over REST) against the test Kafka and Elasticsearch.
 * A generated video is ingested once without failure and once while TaskManager tm2 is killed with
 * SIGKILL and started again; Elasticsearch must then hold the same frames, shots, scenes, tracks,
 * episodes and stream document for both (counts and a hash of every document, stream id normalised),
 * and the frame store the same keyframes. Recovery times are printed. Killing a Kafka broker or an
 * Elasticsearch node needs the three-broker, two-node cluster of deploy/cluster-faults.sh.
 */
class ClusterFaultsTest {
    /** The same start time for both pushes, so every event time, and so every document, is the same. */
    private static final long EPOCH = 1_700_000_000_000L;
    private static final double SECONDS = 24;
    private static final int FPS = 25;
    private static final ObjectMapper SORTED = Json.MAPPER.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    @TempDir
    static Path tmp;

    @Test
    void aTaskManagerKilledMidStreamLosesAndDuplicatesNothing() throws Exception {
        TestInfra infra = TestInfra.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        String clean = "cfclean" + run;
        String fault = "cffault" + run;
        String prefix = "faults" + run;
        Path video = tmp.resolve("faults.mp4");
        SampleVideo.write(video, 640, 360, FPS, SECONDS, List.of(6.0, 12.0, 18.0));
        long expected = Math.round(SECONDS * FPS);
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, prefix + ".frames", prefix + ".dlq");
        try (FlinkProcesses flink = new FlinkProcesses(tmp.resolve("flink"), 2);
                RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            long t0 = System.nanoTime();
            flink.start("jm");
            flink.start("tm1");
            flink.start("tm2");
            IngestRun.await("2 TaskManagers registered (logs in " + flink.logs() + ")", 150, () -> flink.taskManagers() == 2);
            JobClient job = submit(infra, prefix, flink.restPort());
            String jobId = job.getJobID().toString();
            IngestRun.await("the job running", 90, () -> flink.running(jobId));
            report("cluster up and the job running (1 JobManager, 2 TaskManagers, 3 JVMs)", t0);

            long t1 = System.nanoTime();
            assertThat(push(infra, prefix, clean, video)).isZero();
            IngestRun.await("the clean run's " + expected + " frames", 120, () -> frames(es, clean) == expected && ended(es, clean));
            List<Digest> baseline = settled(es, clean);
            report("clean run: " + expected + " frames ingested and settled", t1);

            int failuresBefore = flink.failures(jobId);
            CompletableFuture<Integer> pushing = CompletableFuture.supplyAsync(() -> push(infra, prefix, fault, video));
            IngestRun.await("the faulty run's first frames", 60, () -> frames(es, fault) > 0);
            long atKill = frames(es, fault);
            long kill = System.nanoTime();
            flink.kill("tm2");
            IngestRun.await("the job restarted without tm2", 120, () -> flink.failures(jobId) > failuresBefore && flink.running(jobId));
            report("kill -9 tm2 at " + atKill + "/" + expected + " frames: job restarted, all tasks RUNNING", kill);
            long atRecovery = frames(es, fault);
            IngestRun.await("frames indexed again", 120, () -> atRecovery == expected || frames(es, fault) > atRecovery);
            report("frames indexed again after the kill", kill);
            long restart = System.nanoTime();
            flink.start("tm2");
            IngestRun.await("tm2 back", 120, () -> flink.taskManagers() == 2);
            report("tm2 restarted and registered", restart);
            assertThat(pushing.get()).isZero();
            assertThat(atKill).as("the kill came mid-stream").isLessThan(expected);

            IngestRun.await("the faulty run's documents", 120, () -> digests(es, fault).equals(baseline));
            List<Digest> faulty = settled(es, fault);
            report("faulty run settled", kill);
            System.out.printf("[faults] %-9s %6s %6s  %s%n", "index", "clean", "fault", "hash clean / fault");
            for (int i = 0; i < baseline.size(); i++) {
                System.out.printf("[faults] %-9s %6d %6d  %s / %s%n", baseline.get(i).what(), baseline.get(i).count(), faulty.get(i).count(),
                        baseline.get(i).hash(), faulty.get(i).hash());
            }
            System.out.println("[faults] failures in the job's exception history: " + flink.failures(jobId));
            assertThat(faulty).isEqualTo(baseline);
            assertThat(baseline.get(0).count()).as("every frame of the clean run").isEqualTo(expected);
            assertThat(keyframes(clean)).isEqualTo(keyframes(fault)).isPositive();
            job.cancel().get();
        }
    }

    private static JobClient submit(TestInfra infra, String prefix, int restPort) throws Exception {
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, prefix + ".frames");
        conf.set(IngestOptions.DLQ_TOPIC, prefix + ".dlq");
        conf.set(IngestOptions.GROUP_ID, prefix);
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(1));
        conf.set(IngestOptions.CHECKPOINT_DIR, tmp.resolve("checkpoints").toUri().toString());
        conf.set(ShotOptions.FRAME_STORE, tmp.resolve("frames").toUri().toString());
        conf.set(PerceptionOptions.ENABLED, false);
        conf.set(PerceptionOptions.MODELS, ModelDirectory.locate().toString());
        conf.set(DetectOptions.ENABLED, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment("127.0.0.1", restPort, new Configuration());
        env.configure(conf);
        env.setParallelism(2);
        IngestJob.build(env, conf);
        return env.executeAsync(prefix + "-ingest");
    }

    private static int push(TestInfra infra, String prefix, String stream, Path video) {
        return VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", prefix + ".frames",
                "--stream-id", stream, "--epoch-ms", String.valueOf(EPOCH));
    }

    private static void report(String what, long since) {
        System.out.printf("[faults] %s: %.1f s%n", what, (System.nanoTime() - since) / 1e9);
    }

    private static long frames(ElasticsearchClient es, String stream) throws Exception {
        return IngestRun.count(es, Names.FRAMES_INDEX, IngestRun.term("stream_id", stream));
    }

    private static boolean ended(ElasticsearchClient es, String stream) throws Exception {
        var v = es.get(g -> g.index(Names.VIDEOS_INDEX).id(stream), JsonNode.class);
        return v.found() && v.source().path("status").asText().equals("ended");
    }

    /** An index's documents of one stream: how many, and a hash over all of them with the stream id normalised. */
    record Digest(String what, long count, String hash) {}

    /** The digests once they have held still for 5 s: late writes (a duplicate, a second merge) would show. */
    private static List<Digest> settled(ElasticsearchClient es, String stream) throws Exception {
        List<Digest> last = digests(es, stream);
        for (int still = 0; still < 5; ) {
            Thread.sleep(1000);
            List<Digest> now = digests(es, stream);
            still = now.equals(last) ? still + 1 : 0;
            last = now;
        }
        return last;
    }

    static List<Digest> digests(ElasticsearchClient es, String stream) throws Exception {
        es.indices().refresh(r -> r.index("vw-*"));
        List<Digest> out = new ArrayList<>();
        for (String[] what : new String[][] {{"frames", Names.FRAMES_INDEX, null}, {"shots", Names.SHOTS_INDEX, "shot"},
                {"scenes", Names.SHOTS_INDEX, "scene"}, {"tracks", Names.TRACKS_INDEX, null}, {"episodes", Names.EPISODES_INDEX, null},
                {"streams", Names.VIDEOS_INDEX, null}}) {
            Query q = Query.of(b -> b.bool(f -> {
                f.filter(IngestRun.term("stream_id", stream));
                return what[2] == null ? f : f.filter(IngestRun.term("kind", what[2]));
            }));
            List<String> docs = new ArrayList<>();
            if (es.indices().exists(e -> e.index(what[1])).value()) {
                for (Hit<ObjectNode> h : es.search(s -> s.index(what[1]).size(10_000).query(q), ObjectNode.class).hits().hits()) {
                    ObjectNode doc = h.source().deepCopy();
                    doc.put("_id", h.id());
                    docs.add(SORTED.writeValueAsString(SORTED.convertValue(doc, Map.class)).replace(stream, "STREAM"));
                }
            }
            docs.sort(null);
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(String.join("\n", docs).getBytes(StandardCharsets.UTF_8));
            out.add(new Digest(what[0], docs.size(), HexFormat.of().formatHex(sha, 0, 8)));
        }
        return out;
    }

    /** Keyframe JPEGs of a stream in the file:// frame store. */
    private static long keyframes(String stream) throws Exception {
        Path dir = tmp.resolve("frames").resolve(stream);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".jpg")).count();
        }
    }
}
