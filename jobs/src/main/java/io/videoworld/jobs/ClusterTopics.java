package io.videoworld.jobs;

import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.core.Names;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Creates the job's topics on a multi-broker cluster: partitions, replication factor, min.insync.replicas. */
@Command(name = "cluster-topics", mixinStandardHelpOptions = true, description = "Create vw.frames and vw.dlq on a Kafka cluster.")
public final class ClusterTopics implements Callable<Integer> {
    @Option(names = "--bootstrap", required = true)
    String bootstrap;

    @Option(names = "--partitions", defaultValue = "4")
    int partitions;

    @Option(names = "--replication", defaultValue = "3")
    int replication;

    @Option(names = "--min-insync", defaultValue = "2")
    int minInsync;

    @Option(names = "--check-isr", description = "only check: exit 0 when every partition of the topics has a leader and at least this many in-sync replicas")
    Integer checkIsr;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClusterTopics()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (checkIsr != null) {
            java.util.Properties p = new java.util.Properties();
            p.put("bootstrap.servers", bootstrap);
            p.put("default.api.timeout.ms", "3000");
            p.put("request.timeout.ms", "2000");
            try (var admin = org.apache.kafka.clients.admin.Admin.create(p)) {
                var topics = admin.describeTopics(java.util.List.of(Names.FRAMES_TOPIC, Names.DLQ_TOPIC)).allTopicNames().get();
                boolean ok = topics.values().stream().flatMap(t -> t.partitions().stream())
                        .allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty() && pi.isr().size() >= checkIsr);
                return ok ? 0 : 1;
            }
        }
        KafkaTopics.ensure(bootstrap, partitions, replication, minInsync, Names.FRAMES_TOPIC, Names.DLQ_TOPIC);
        System.out.println("topics " + Names.FRAMES_TOPIC + ", " + Names.DLQ_TOPIC + ": " + partitions + " partitions, replication "
                + replication + ", min.insync.replicas " + minInsync);
        return 0;
    }
}
