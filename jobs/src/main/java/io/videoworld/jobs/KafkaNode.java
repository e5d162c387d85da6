package io.videoworld.jobs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One KRaft node (combined broker and controller) of a multi-broker Kafka cluster, in its own JVM:
 * what {@code bin/videoworld cluster} starts three times. Formats its log directory on first use with
 * the cluster id every node shares, then runs until SIGTERM.
 */
@Command(name = "kafka-node", mixinStandardHelpOptions = true, description = "Run one node of a KRaft Kafka cluster.")
public final class KafkaNode implements Callable<Integer> {
    @Option(names = "--node-id", required = true)
    int nodeId;

    @Option(names = "--dir", required = true, description = "log directory")
    Path dir;

    @Option(names = "--port", required = true, description = "client port on 127.0.0.1")
    int port;

    @Option(names = "--controller-port", required = true)
    int controllerPort;

    @Option(names = "--voters", required = true, description = "controller quorum, e.g. 1@127.0.0.1:19193,2@127.0.0.1:19293")
    String voters;

    @Option(names = "--cluster-id", required = true, description = "the same base64 UUID on every node")
    String clusterId;

    @Option(names = "--replication", defaultValue = "3", description = "replication of internal topics (default: ${DEFAULT-VALUE})")
    int replication;

    @Option(names = "--min-isr", defaultValue = "2", description = "min.insync.replicas (default: ${DEFAULT-VALUE})")
    int minIsr;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaNode()).execute(args));
    }

    static Properties config(int nodeId, Path dir, int port, int controllerPort, String voters, int replication, int minIsr) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.toString());
        p.put("offsets.topic.replication.factor", String.valueOf(replication));
        p.put("transaction.state.log.replication.factor", String.valueOf(replication));
        p.put("transaction.state.log.min.isr", String.valueOf(minIsr));
        p.put("default.replication.factor", String.valueOf(replication));
        p.put("min.insync.replicas", String.valueOf(minIsr));
        p.put("unclean.leader.election.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("message.max.bytes", "8388608");
        p.put("replica.fetch.max.bytes", "8388608");
        p.put("log.retention.hours", "168");
        return p;
    }

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(dir);
        KafkaConfig config = KafkaConfig.fromProps(config(nodeId, dir, port, controllerPort, voters, replication, minIsr), false);
        if (!Files.exists(dir.resolve("meta.properties"))) {
            new Formatter()
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setDirectories(List.of(dir.toString()))
                    .setMetadataLogDirectory(dir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
                    .run();
        }
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
            stopped.countDown();
        }));
        server.startup();
        System.out.println("ready kafka node " + nodeId + " on 127.0.0.1:" + port);
        stopped.await();
        return 0;
    }

    /** Voters string for {@code n} nodes whose controller ports are {@code base + 100 * id}. */
    static String voters(int n, int base) {
        List<String> v = new ArrayList<>();
        for (int id = 1; id <= n; id++) {
            v.add(id + "@127.0.0.1:" + (base + 100 * id));
        }
        return String.join(",", v);
    }
}
