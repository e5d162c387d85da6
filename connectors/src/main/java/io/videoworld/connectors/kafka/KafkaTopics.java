package io.videoworld.connectors.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topics VideoWorld uses, sized for frame batches of up to a few megabytes, and makes sure
 * the brokers' group coordinator answers before a job's consumers need it.
 */
public final class KafkaTopics {
    private KafkaTopics() {}

    /** Creates each missing topic with the given partition count; existing topics are left alone. */
    public static void ensure(String bootstrap, int partitions, String... topics) throws InterruptedException {
        ensure(bootstrap, partitions, 1, 1, topics);
    }

    /** The same with a replication factor and min.insync.replicas, for a multi-broker cluster. */
    public static void ensure(String bootstrap, int partitions, int replication, int minInsync, String... topics) throws InterruptedException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            for (String t : topics) {
                if (!existing.contains(t)) {
                    missing.add(new NewTopic(t, partitions, (short) replication).configs(Map.of(
                            "max.message.bytes", String.valueOf(2 * KafkaProducers.MAX_RECORD_BYTES),
                            "min.insync.replicas", String.valueOf(minInsync))));
                }
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            awaitGroupCoordinator(admin);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Asks for a consumer group's offsets, which a broker answers only once its group coordinator runs: on a broker
     * never asked before that means creating {@code __consumer_offsets} (50 partitions by default) first. Done here,
     * with the topics, rather than by the job's Kafka sources as they start, where it held the first fetch of every
     * source for about 3 s (2 cores) while the frames were already being pushed.
     */
    private static void awaitGroupCoordinator(Admin admin) throws InterruptedException {
        try {
            admin.listConsumerGroupOffsets("videoworld-coordinator-probe").partitionsToOffsetAndMetadata().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the Kafka group coordinator does not answer: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
