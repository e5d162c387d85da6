package io.videoworld.jobs;

import io.videoworld.connectors.kafka.KafkaTopics;
import java.nio.file.Path;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The local stack in one JVM: an in-JVM Kafka broker (KRaft) and the ingest job on a local Flink
 * cluster with its web dashboard. Elasticsearch and the query service run as their own processes,
 * started by {@code bin/videoworld demo}. Stops cleanly on SIGTERM/Ctrl-C.
 */
@Command(name = "local-stack", mixinStandardHelpOptions = true,
        description = "Run Kafka and the ingest job on a local Flink with the dashboard.")
public final class LocalLauncher implements Callable<Integer> {
    @Option(names = "--home", defaultValue = ".vw", description = "state folder (default: ${DEFAULT-VALUE})")
    Path home;

    @Option(names = "--kafka-port", defaultValue = "9092", description = "Kafka port (default: ${DEFAULT-VALUE})")
    int kafkaPort;

    @Option(names = "--flink-port", defaultValue = "8081", description = "Flink dashboard port (default: ${DEFAULT-VALUE})")
    int flinkPort;

    @Option(names = "--flink-metrics-port", defaultValue = "9249", description = "port of Flink's Prometheus endpoint "
            + "(http://HOST:PORT/metrics: the job's vw* counters, Flink's own metrics); 0 for none (default: ${DEFAULT-VALUE})")
    int flinkMetricsPort;

    @Option(names = "--es-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE})")
    String esUrl;

    @Option(names = "--parallelism", defaultValue = "2", description = "job parallelism (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(names = "--detect-fps", description = "frames per second sampled for detection and tracking (default: 4)")
    Double detectFps;

    @Option(names = "--no-detect", description = "run without object detection and tracking")
    boolean noDetect;

    @Option(names = "--detect-model", description = "centernet (default), yolo:PATH.onnx or torchscript:PATH.pt")
    String detectModel;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalLauncher()).execute(args));
    }

    /** Factory of Flink's Prometheus reporter, as deploy/cluster.sh, docker-compose.yml and deploy/k8s name it too. */
    static final String PROMETHEUS_FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

    /**
     * Adds Flink's Prometheus reporter to {@code flink}, serving on {@code port} (a port or a range such as
     * {@code 9249-9259}, each process taking the next free one). The local cluster runs the JobManager
     * and TaskManager in this JVM, so one port serves both.
     */
    static void prometheus(Configuration flink, String port) {
        flink.setString("metrics.reporter.prom.factory.class", PROMETHEUS_FACTORY);
        flink.setString("metrics.reporter.prom.port", port);
    }

    @Override
    public Integer call() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(home.resolve("kafka"), kafkaPort);
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, kafka.bootstrap());
        conf.set(IngestOptions.ES_URL, esUrl);
        conf.set(ShotOptions.FRAME_STORE, home.resolve("frames").toAbsolutePath().toString());
        conf.set(PerceptionOptions.MODELS, home.resolve("models").toAbsolutePath().toString());
        conf.set(IngestOptions.CHECKPOINT_DIR, home.resolve("checkpoints").toAbsolutePath().toUri().toString());
        if (detectFps != null) {
            conf.set(DetectOptions.FPS, detectFps);
        }
        if (detectModel != null) {
            conf.set(DetectOptions.MODEL, detectModel);
        }
        conf.set(DetectOptions.ENABLED, !noDetect);
        KafkaTopics.ensure(kafka.bootstrap(), parallelism, conf.get(IngestOptions.FRAMES_TOPIC), conf.get(IngestOptions.DLQ_TOPIC),
                conf.get(AudioOptions.TOPIC));

        Configuration flink = new Configuration();
        flink.set(RestOptions.PORT, flinkPort);
        flink.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        flink.setString("taskmanager.numberOfTaskSlots", String.valueOf(parallelism));
        flink.setString("state.checkpoints.dir", home.resolve("checkpoints").toAbsolutePath().toUri().toString());
        if (flinkMetricsPort > 0) {
            prometheus(flink, Integer.toString(flinkMetricsPort));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
        env.setParallelism(parallelism);
        IngestJob.build(env, conf);
        JobClient job = env.executeAsync("videoworld-ingest");

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                job.cancel().get();
            } catch (Exception ignored) {
                // shutting down anyway
            }
            kafka.close();
            stopped.countDown();
        }));
        System.out.println("kafka " + kafka.bootstrap() + " | flink dashboard http://127.0.0.1:" + flinkPort
                + " | ingest job " + job.getJobID() + " -> " + esUrl);
        System.out.println("ready");
        stopped.await();
        return 0;
    }

}
