package io.videoworld.jobs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker in KRaft mode (combined broker and controller) inside this JVM,
 * for the local launcher. Its log directory survives restarts, so pushed frames stay until
 * {@code .vw/} is removed.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final KafkaRaftServer server;
    private final String bootstrap;

    private EmbeddedKafka(KafkaRaftServer server, String bootstrap) {
        this.server = server;
        this.bootstrap = bootstrap;
    }

    /** Formats the log directory on first use, then starts the broker on 127.0.0.1:{@code port}. */
    public static EmbeddedKafka start(Path logDir, int port) throws Exception {
        Files.createDirectories(logDir);
        int controllerPort = port + 1;
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("message.max.bytes", "8388608");
        p.put("log.retention.hours", "168");
        KafkaConfig config = KafkaConfig.fromProps(p, false);
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            new Formatter()
                    .setNodeId(1)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(logDir.toString()))
                    .setMetadataLogDirectory(logDir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
                    .run();
        }
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new EmbeddedKafka(server, "127.0.0.1:" + port);
    }

    public String bootstrap() {
        return bootstrap;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}
