package io.videoworld.jobs;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import io.videoworld.connectors.kafka.KafkaProducers;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The ingest job on the test's MiniCluster, reading its own topics, and waits on what it writes. */
final class IngestRun {
    private IngestRun() {}

    /** The Flink cluster every end-to-end test runs its job on: one TaskManager, two slots. */
    static org.apache.flink.test.junit5.MiniClusterExtension miniCluster() {
        return new org.apache.flink.test.junit5.MiniClusterExtension(new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
    }

    /** Creates {@code prefix.frames} and {@code prefix.dlq} and starts the job on them, detection off. */
    static JobClient start(TestInfra infra, String prefix, Path frameStore) throws Exception {
        return start(infra, prefix, frameStore, conf -> conf.set(DetectOptions.ENABLED, false));
    }

    /** The same, with settings of the test's own on top. */
    static JobClient start(TestInfra infra, String prefix, Path frameStore, java.util.function.Consumer<Configuration> settings) throws Exception {
        return start(infra, prefix, frameStore, settings, java.util.function.UnaryOperator.identity());
    }

    /** The same, with a stage of the test's own before the episode writer. */
    static JobClient start(TestInfra infra, String prefix, Path frameStore, java.util.function.Consumer<Configuration> settings,
            java.util.function.UnaryOperator<org.apache.flink.streaming.api.datastream.DataStream<io.videoworld.core.EpisodeBatch>> tap)
            throws Exception {
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, prefix + ".frames", prefix + ".dlq");
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, prefix + ".frames");
        conf.set(IngestOptions.DLQ_TOPIC, prefix + ".dlq");
        conf.set(IngestOptions.GROUP_ID, prefix + "-" + System.nanoTime());
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(1));
        conf.set(ShotOptions.FRAME_STORE, frameStore.toString());
        conf.set(PerceptionOptions.MODELS, io.videoworld.perception.ModelDirectory.locate().toString());
        settings.accept(conf);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.configure(conf);
        env.setParallelism(2);
        IngestJob.build(env, conf, tap);
        return env.executeAsync(prefix + "-ingest");
    }


    /** Documents in an index matching a query, after a refresh; 0 while the index does not exist. */
    static long count(ElasticsearchClient es, String index, Query query) throws Exception {
        if (!es.indices().exists(e -> e.index(index)).value()) {
            return 0;
        }
        es.indices().refresh(r -> r.index(index));
        return es.count(c -> c.index(index).query(query)).count();
    }

    /** Polls until the condition holds, failing with {@code what} after {@code seconds}. */
    static void await(String what, int seconds, Check check) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        Exception last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (Exception e) {
                // An index the job has not created yet, say; the next poll may see it.
                last = e;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(what + " did not happen in " + seconds + " s", last);
    }

    /** A condition that may touch Elasticsearch. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    static Query term(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(value)));
    }

    /** The first {@code expected} records of a topic, waiting up to two minutes; read committed when asked. */
    static List<ConsumerRecord<byte[], byte[]>> read(TestInfra infra, String topic, int expected, boolean committed) {
        return read(infra, topic, expected, committed, 0, 120_000);
    }

    /** Records of a topic after the first {@code skip}, until {@code expected} arrived or {@code ms} passed. */
    static List<ConsumerRecord<byte[], byte[]>> read(TestInfra infra, String topic, int expected, boolean committed, int skip, long ms) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, committed ? "read_committed" : "read_uncommitted");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(2 * KafkaProducers.MAX_RECORD_BYTES));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        int skipped = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + ms;
            while (out.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (skipped++ >= skip) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }
}
