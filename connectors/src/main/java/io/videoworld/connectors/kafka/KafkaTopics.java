package io.videoworld.connectors.kafka;

import io.videoworld.connectors.producer.KafkaProducers;
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

/** Creates the topics VideoWorld uses, sized for frame batches of up to a few megabytes. */
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
                admin.createTopics(missing).all().get();
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topics: " + e.getCause().getMessage(), e.getCause());
            }
        }
    }
}
