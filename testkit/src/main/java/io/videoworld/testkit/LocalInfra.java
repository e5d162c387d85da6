package io.videoworld.testkit;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * The Docker-free path: Kafka's own in-JVM KRaft test cluster (one combined node) and the real
 * Elasticsearch server. An Elasticsearch already running at {@code VW_ES_URL} (as {@code .ci/run}
 * starts it) is reused; otherwise the script starts one on port {@code VW_TEST_ES_PORT} (default
 * 9250, away from a demo on 9200) and this JVM stops it on exit.
 */
final class LocalInfra implements TestInfra {
    private KafkaClusterTestKit kafka;
    private final String esUrl;
    private final String esOrigin;

    private LocalInfra(String esUrl, String esOrigin) {
        this.esUrl = esUrl;
        this.esOrigin = esOrigin;
    }

    /** The broker starts on first use, so tests that need only Elasticsearch do not pay for it. */
    private static KafkaClusterTestKit startKafka() throws Exception {
        // A broker that loses its log directories while the JVM exits (the test kit deletes them in
        // a shutdown hook of its own) halts the process; the test JVM's exit code must stay the tests'.
        // Expected while the JVM exits, so not worth a warning on a bench's console.
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> LOG.info("in-JVM broker asked to halt ({}): {}", code, message));
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> LOG.info("in-JVM broker asked to exit ({}): {}", code, message));
        // The test kit deletes its log directories in shutdown hooks of its own, which ran beside the
        // hook that closes the broker: the closing broker then logged storage errors with stack traces.
        // Its hooks are collected here and run after the broker has closed.
        java.util.List<Runnable> afterClose = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.apache.kafka.common.utils.Exit.setShutdownHookAdder((name, hook) -> afterClose.add(hook));
        KafkaClusterTestKit kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("message.max.bytes", "8388608")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .build();
        java.io.PrintStream out = System.out;
        try {
            // Formatting prints the bootstrap metadata on standard output, where benches print their results.
            System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            kafka.format();
        } finally {
            System.setOut(out);
        }
        kafka.startup();
        kafka.waitForReadyBrokers();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                kafka.close();
            } catch (Exception ignored) {
                // the JVM is exiting
            }
            for (Runnable hook : afterClose) {
                try {
                    hook.run();
                } catch (RuntimeException ignored) {
                    // a temporary directory left behind
                }
            }
        }));
        LOG.info("in-JVM Kafka broker started at {}", kafka.bootstrapServers());
        return kafka;
    }

    static LocalInfra start() throws Exception {
        String given = System.getenv("VW_ES_URL");
        if (given != null && !given.isBlank()) {
            // A busy machine can answer slowly; an Elasticsearch someone else started is never
            // started again or stopped from here.
            long deadline = System.currentTimeMillis() + 90_000;
            while (!healthy(given)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("VW_ES_URL=" + given + " does not answer /_cluster/health");
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return new LocalInfra(given, "already running at " + given);
        }
        String port = System.getenv().getOrDefault("VW_TEST_ES_PORT", "9250");
        if (healthy("http://127.0.0.1:" + port)) {
            // Someone else's server (another build, CI's): use it, and never stop it from here.
            return new LocalInfra("http://127.0.0.1:" + port, "already running on port " + port);
        }
        Path script = Versions.repoRoot().resolve("deploy/elasticsearch.sh");
        String url = run(script, port, "start").trim();
        String[] lines = url.split("\n");
        url = lines[lines.length - 1].trim();
        if (!healthy(url)) {
            throw new IllegalStateException("Elasticsearch at " + url + " is not healthy");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(script, port, "stop");
            } catch (Exception ignored) {
                // the JVM is exiting
            }
        }));
        return new LocalInfra(url, "started by deploy/elasticsearch.sh at " + url);
    }

    private static String run(Path script, String port, String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), command).redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("VW_ES_PORT", port);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("deploy/elasticsearch.sh " + command + " failed: " + out);
        }
        return out;
    }

    static boolean healthy(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url + "/_cluster/health").toURL().openConnection();
            c.setConnectTimeout(2000);
            c.setReadTimeout(5000);
            return c.getResponseCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public synchronized String kafkaBootstrap() {
        if (kafka == null) {
            try {
                kafka = startKafka();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-JVM Kafka broker", e);
            }
        }
        return kafka.bootstrapServers();
    }

    @Override
    public String elasticsearchUrl() {
        return esUrl;
    }

    @Override
    public String description() {
        return "in-JVM Kafka " + Versions.get("KAFKA_VERSION") + " (KRaft, started on first use) + Elasticsearch " + Versions.get("ES_VERSION") + " " + esOrigin + " (no Docker engine answered)";
    }
}
