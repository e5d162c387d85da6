package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.kafka.KafkaTopics;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a broker never asked for a consumer group, {@link KafkaTopics#ensure} returns only once the
 * group coordinator answers ({@code __consumer_offsets} made), so a job's Kafka sources, submitted
 * next, look up their committed offsets at once instead of waiting seconds for it while the frames
 * are pushed. A fresh broker of its own, since the shared test broker's coordinator may already run.
 */
class KafkaTopicsCoordinatorTest {

    @Test
    void ensureLeavesTheGroupCoordinatorAnsweringOnAFreshBroker(@TempDir Path dir) throws Exception {
        int port = freePortPair();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), port)) {
            assertThat(internalTopics(kafka.bootstrap())).as("a fresh broker has no offsets topic").doesNotContain("__consumer_offsets");

            KafkaTopics.ensure(kafka.bootstrap(), 1, "frames-coordinator-test");

            assertThat(internalTopics(kafka.bootstrap())).contains("__consumer_offsets", "frames-coordinator-test");
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
            p.put(ConsumerConfig.GROUP_ID_CONFIG, "a-group-never-seen");
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                long t0 = System.nanoTime();
                // Throws a TimeoutException where the coordinator does not answer within the second.
                Map<TopicPartition, OffsetAndMetadata> committed =
                        c.committed(Set.of(new TopicPartition("frames-coordinator-test", 0)), Duration.ofSeconds(1));
                assertThat(committed.get(new TopicPartition("frames-coordinator-test", 0))).as("nothing committed yet").isNull();
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms for a new group's committed offsets").isLessThan(1_000);
            }
        }
    }

    private static Set<String> internalTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
        }
    }

    /** A free port whose next one (the embedded broker's controller) is free too. */
    private static int freePortPair() throws Exception {
        for (int i = 0; i < 20; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            try (ServerSocket next = new ServerSocket(port + 1)) {
                return port;
            } catch (java.io.IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no two adjacent free ports");
    }
}
