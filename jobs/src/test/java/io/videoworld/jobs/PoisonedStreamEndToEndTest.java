package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.testkit.MalformedRecords;
import io.videoworld.testkit.MalformedRecords.Poison;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile corpus interleaved with a good stream, through the whole job (perception and
 * detection on) with restarts switched off, so any exception would fail the job: the good
 * stream arrives whole, the job never stops, and every bad record is in the dead-letter topic
 * exactly once (read committed) with its reason, counted by {@code vwDeadLetters}.
 */
class PoisonedStreamEndToEndTest {
    private static final String STREAM = "poisoned-walk";
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;

    @Test
    void badRecordsAreDeadLettersOnceAndTheGoodStreamArrivesWhole(@InjectMiniCluster MiniCluster cluster) throws Exception {
        TestInfra infra = TestInfra.get();
        List<Poison> corpus = MalformedRecords.corpus(EPOCH);
        List<ProducerRecord<byte[], byte[]>> good = goodBatches(infra);
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, "poison.frames", "poison.dlq");
        try (KafkaProducer<byte[], byte[]> p = KafkaProducers.create(infra.kafkaBootstrap())) {
            int perGap = (corpus.size() + good.size() - 1) / good.size();
            for (int i = 0; i < good.size(); i++) {
                p.send(new ProducerRecord<>("poison.frames", good.get(i).key(), good.get(i).value())).get();
                for (Poison bad : corpus.subList(Math.min(corpus.size(), i * perGap), Math.min(corpus.size(), (i + 1) * perGap))) {
                    p.send(new ProducerRecord<>("poison.frames", bad.key(), bad.value())).get();
                }
            }
        }
        JobClient job = IngestRun.start(infra, "poison", tmp.resolve("frames"),
                conf -> conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"));
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            Query mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM))
                    .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
            IngestRun.await("all 20 good frames and 3 shots", 180, () -> IngestRun.count(es, Names.FRAMES_INDEX, mine) == 20
                    && IngestRun.count(es, Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b.filter(mine).filter(IngestRun.term("kind", "shot")))))
                    == 3);
            IngestRun.await("the good keyframes perceived", 120, () -> IngestRun.count(es, Names.PERCEPTION_INDEX, mine) >= 3);
            assertThat(IngestRun.count(es, Names.PERCEPTION_INDEX, Query.of(q -> q.bool(b -> b.filter(mine)
                    .filter(IngestRun.term("perception_status", "failed")))))).isZero();

            List<ConsumerRecord<byte[], byte[]>> dead = readCommitted(infra, corpus.size());
            Map<String, Integer> seen = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                seen.merge(fingerprint(r.key(), r.value()), 1, Integer::sum);
            }
            for (Poison bad : corpus) {
                boolean late = !DeadLetter.INGEST.equals(bad.stage());
                byte[] value = late ? MalformedRecords.frameJpeg(bad) : bad.value();
                List<ConsumerRecord<byte[], byte[]>> mineOnly = dead.stream()
                        .filter(r -> Arrays.equals(r.value(), value) && (late || Arrays.equals(r.key(), bad.key()))).toList();
                assertThat(mineOnly).as("dead letters for %s", bad).hasSize(1);
                ConsumerRecord<byte[], byte[]> r = mineOnly.get(0);
                assertThat(header(r, Names.DLQ_STAGE_HEADER)).isEqualTo(bad.stage());
                assertThat(header(r, Names.DLQ_REASON_HEADER)).as("reason for %s", bad).contains(bad.reason());
            }
            assertThat(dead).as("nothing but the corpus in the dead-letter topic, each once").hasSize(corpus.size());
            assertThat(seen.values()).allMatch(n -> n == 1);
            assertThat(deadLetterMetric(job, cluster.getRestAddress().get())).isEqualTo(corpus.size());
            assertThat(job.getJobStatus().get()).as("restarts are off: any failure would have failed the job").isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get();
        }
    }

    /** The good stream's records, made by the real CLI into a staging topic so they can be interleaved. */
    private static List<ProducerRecord<byte[], byte[]>> goodBatches(TestInfra infra) throws Exception {
        Path video = tmp.resolve("walk.mp4");
        SampleVideo.write(video, 640, 360, 25, 4.0, List.of(1.5, 3.0));
        KafkaTopics.ensure(infra.kafkaBootstrap(), 1, "poison.staging");
        assertThat(VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "poison.staging",
                "--stream-id", STREAM, "--fps", "5", "--batch-frames", "5", "--epoch-ms", String.valueOf(EPOCH))).isZero();
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : IngestRun.read(infra, "poison.staging", 4, false)) {
            out.add(new ProducerRecord<>("poison.frames", r.key(), r.value()));
        }
        assertThat(out).hasSize(4);
        return out;
    }

    private static List<ConsumerRecord<byte[], byte[]>> readCommitted(TestInfra infra, int expected) {
        List<ConsumerRecord<byte[], byte[]>> got = IngestRun.read(infra, "poison.dlq", expected, true);
        // A little longer: a duplicate would arrive after the expected count.
        got.addAll(IngestRun.read(infra, "poison.dlq", Integer.MAX_VALUE, true, got.size(), 3_000));
        return got;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static String fingerprint(byte[] key, byte[] value) {
        return Arrays.hashCode(key) + ":" + Arrays.hashCode(value) + ":" + (value == null ? -1 : value.length);
    }

    /** The job's vwDeadLetters, summed over subtasks, from the cluster's REST API (what /health reads). */
    private static long deadLetterMetric(JobClient job, URI rest) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String jobPath = rest + "/jobs/" + job.getJobID();
        long[] sum = {-1};
        IngestRun.await("vwDeadLetters reported", 60, () -> {
            long total = 0;
            boolean found = false;
            for (JsonNode v : get(http, jobPath).get("vertices")) {
                String vertex = jobPath + "/vertices/" + v.get("id").asText() + "/subtasks/metrics";
                for (JsonNode m : get(http, vertex)) {
                    String id = m.get("id").asText();
                    if (id.endsWith("vwDeadLetters")) {
                        JsonNode value = get(http, vertex + "?get=" + id + "&agg=sum");
                        total += value.get(0).get("sum").asLong();
                        found = true;
                    }
                }
            }
            sum[0] = total;
            return found && total > 0;
        });
        return sum[0];
    }

    private static JsonNode get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        return Json.MAPPER.readTree(r.body());
    }
}
