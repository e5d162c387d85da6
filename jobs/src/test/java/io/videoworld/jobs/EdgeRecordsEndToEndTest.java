package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Names;
import io.videoworld.testkit.EdgeRecords;
import io.videoworld.testkit.MalformedRecords;
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Records valid at the edge with extreme values in every field (from {@link EdgeRecords}), each
 * batch a stream of its own, through the whole job (perception, detection, gates and memory on)
 * with restarts off, so any exception that escaped a stage would fail the job: the job stays
 * RUNNING, every frame of every batch is indexed, nothing valid is dead-lettered, and the one
 * record the edge refuses (the frame index near 2^62 that once put the job in a restart loop) is
 * in the dead-letter topic exactly once. One try, a fixed seed: a failure names the corpus.
 */
class EdgeRecordsEndToEndTest {

    @Provide
    Arbitrary<List<FrameBatch>> corpora() {
        return EdgeRecords.batches().list().ofSize(30);
    }

    @Property(tries = 1, seed = "20261127", shrinking = ShrinkingMode.OFF)
    void edgeValidRecordsAreIndexedAndTheJobKeepsRunning(@ForAll("corpora") List<FrameBatch> generated) throws Exception {
        TestInfra infra = TestInfra.get();
        List<FrameBatch> corpus = new ArrayList<>();
        for (int i = 0; i < generated.size(); i++) {
            corpus.add(ownStream(generated.get(i), i));
        }
        FrameBatch tooFar = new FrameBatch("edge-index-2-62", io.videoworld.core.SourceKind.VIDEO, null, 0, System.currentTimeMillis(), null,
                List.of(new Frame((1L << 62) + 5, 0, null, 32, 18, MalformedRecords.jpeg(32, 18, Color.GRAY), null)));
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, "edge.frames", "edge.dlq");
        try (KafkaProducer<byte[], byte[]> p = KafkaProducers.create(infra.kafkaBootstrap())) {
            for (FrameBatch b : corpus) {
                p.send(new ProducerRecord<>("edge.frames", key(b.streamId()), FrameBatchCodec.encode(b))).get();
            }
            p.send(new ProducerRecord<>("edge.frames", key(tooFar.streamId()), FrameBatchCodec.encode(tooFar))).get();
        }
        Path store = Files.createTempDirectory("edge-frames");
        JobClient job = IngestRun.start(infra, "edge", store, conf -> conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"));
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            List<String> missing = new ArrayList<>();
            IngestRun.await("every frame of every edge-valid batch indexed", 300, () -> {
                missing.clear();
                for (FrameBatch b : corpus) {
                    Query mine = Query.of(q -> q.bool(x -> x.filter(IngestRun.term("stream_id", b.streamId()))
                            .filter(IngestRun.term("epoch_ms", String.valueOf(b.epochMs())))));
                    if (IngestRun.count(es, Names.FRAMES_INDEX, mine) != b.frames().size()) {
                        missing.add(b.streamId());
                    }
                }
                if (job.getJobStatus().get() != JobStatus.RUNNING) {
                    throw new AssertionError("the job stopped: " + job.getJobStatus().get());
                }
                return missing.isEmpty();
            });
            List<ConsumerRecord<byte[], byte[]>> dead = IngestRun.read(infra, "edge.dlq", 1, true);
            // A little longer: a later stage's dead letter, or a duplicate, would arrive after the first.
            dead.addAll(IngestRun.read(infra, "edge.dlq", Integer.MAX_VALUE, true, dead.size(), 10_000));
            List<String> letters = dead.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8) + ": "
                    + new String(r.headers().lastHeader(Names.DLQ_STAGE_HEADER).value(), StandardCharsets.UTF_8) + ": "
                    + new String(r.headers().lastHeader(Names.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8)).toList();
            assertThat(letters).as("the one refused record, once, and nothing valid").singleElement()
                    .satisfies(l -> assertThat(l).startsWith("edge-index-2-62: " + DeadLetter.INGEST + ": ").contains("index is over"));
            Set<String> distinct = new HashSet<>();
            dead.forEach(r -> distinct.add(Arrays.hashCode(r.key()) + ":" + Arrays.hashCode(r.value())));
            assertThat(distinct).hasSameSizeAs(dead);
            assertThat(job.getJobStatus().get()).as("restarts are off: any failure would have failed the job").isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get();
        }
    }

    /** The batch as a stream of its own (so no batch is taken for another's retry), its id still as long as generated. */
    private static FrameBatch ownStream(FrameBatch b, int i) {
        String suffix = "-e" + i;
        String id = b.streamId().length() + suffix.length() <= 128 ? b.streamId() + suffix
                : b.streamId().substring(0, 128 - suffix.length()) + suffix;
        return new FrameBatch(id, b.sourceKind(), b.sourceUri(), b.seq(), b.epochMs(), b.source(), b.frames(), b.last());
    }

    private static byte[] key(String streamId) {
        return streamId.getBytes(StandardCharsets.UTF_8);
    }
}
