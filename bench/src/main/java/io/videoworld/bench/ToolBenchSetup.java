package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.producer.PushSummary;
import io.videoworld.producer.Pusher;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Names;
import io.videoworld.jobs.DetectOptions;
import io.videoworld.jobs.IngestJob;
import io.videoworld.jobs.IngestOptions;
import io.videoworld.jobs.PerceptionOptions;
import io.videoworld.jobs.ShotOptions;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * What {@code bench tools --setup} stands on, the way {@code bin/videoworld demo} builds it: a
 * generated video of the asked length pushed to Kafka and the real ingest job on a local Flink
 * writing into the real Elasticsearch, both in this JVM, and the query service with the demo's
 * models in a JVM of its own.
 * A second push of the same video, paced in real time, is the "ingestion running" load.
 */
final class ToolBenchSetup implements AutoCloseable {
    private final TestInfra infra = TestInfra.get();
    private final Path dir;
    private final String topic = "bench.tools.frames";
    private final double pushFps;
    private JobClient job;
    private ServiceProcess server;
    private Thread live;
    private volatile boolean stopLive;
    private boolean detecting;

    ToolBenchSetup(Path dir, double pushFps) {
        this.dir = dir;
        this.pushFps = pushFps;
    }

    /** The generated video of {@code seconds}: a hard cut every 6-14 s (seeded), as a long recording has. */
    Path video(double seconds) throws Exception {
        Files.createDirectories(dir);
        Path video = dir.resolve("tools-" + (long) seconds + "s.mp4");
        if (!Files.exists(video)) {
            List<Double> cuts = new ArrayList<>();
            Random rnd = new Random(16);
            for (double t = 6 + rnd.nextDouble() * 8; t < seconds - 2; t += 6 + rnd.nextDouble() * 8) {
                cuts.add(Math.round(t * 10) / 10.0);
            }
            System.out.printf("writing %s (%.0f s, %d cuts)...%n", video, seconds, cuts.size());
            SampleVideo.write(video, 640, 360, 25, seconds, cuts);
        }
        return video;
    }

    /** Starts the ingest job (detection at {@code detectFps}, 0 for none) on its own topic. */
    void startJob(double detectFps) throws Exception {
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, topic, topic + ".dlq");
        Configuration conf = localJob(infra, topic, "bench-tools-", dir.resolve("frames"));
        detecting = detectFps > 0;
        conf.set(DetectOptions.ENABLED, detecting);
        if (detectFps > 0) {
            conf.set(DetectOptions.FPS, detectFps);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        IngestJob.build(env, conf);
        job = env.executeAsync("bench-tools-ingest");
    }

    /**
     * The ingest job's settings a bench running it in its own JVM starts from: the test infrastructure's
     * Kafka and Elasticsearch, frames from {@code topic} (dead letters to {@code topic.dlq}), a fresh
     * consumer group, checkpoints every 5 s, keyframes in {@code frameStore}, the fetched models.
     */
    static Configuration localJob(TestInfra infra, String topic, String groupPrefix, Path frameStore) throws java.io.IOException {
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, topic);
        conf.set(IngestOptions.DLQ_TOPIC, topic + ".dlq");
        conf.set(IngestOptions.GROUP_ID, groupPrefix + System.nanoTime());
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(5));
        conf.set(ShotOptions.FRAME_STORE, frameStore.toAbsolutePath().toString());
        conf.set(PerceptionOptions.MODELS, ModelDirectory.locate().toString());
        return conf;
    }

    /**
     * Pushes the video as {@code stream} as fast as it encodes and waits until its frames and shots
     * are searchable and, with detection on, its detections and tracks no longer grow (detection
     * runs behind the frames: a run that stopped at the last shot left the entity rows no track).
     */
    PushSummary pushAndAwait(Path video, String stream, long epochMs) throws Exception {
        PushSummary push = push(video, stream, epochMs, false);
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            long deadline = System.currentTimeMillis() + 1_800_000;
            Query frames = thisPush(stream, epochMs, null);
            Query shots = thisPush(stream, epochMs, "shot");
            long lastShots = -1;
            long lastObjects = -1;
            long objectsSince = System.currentTimeMillis();
            while (true) {
                long f = count(es, Names.FRAMES_INDEX, frames);
                long s = count(es, Names.SHOTS_INDEX, shots);
                var doc = es.get(g -> g.index(Names.VIDEOS_INDEX).id(stream), com.fasterxml.jackson.databind.JsonNode.class);
                boolean ended = doc.found() && doc.source().path("epoch_ms").asLong() == epochMs
                        && "ended".equals(doc.source().path("status").asText());
                // Ended, every frame indexed, and no shot added since the last look: the last shots are written after the frames.
                long d = detecting ? count(es, Names.DETECTIONS_INDEX, thisPush(stream, epochMs, null)) : 0;
                long t = detecting ? count(es, Names.TRACKS_INDEX, thisPush(stream, epochMs, null)) : 0;
                if (d + t != lastObjects) {
                    lastObjects = d + t;
                    objectsSince = System.currentTimeMillis();
                }
                boolean objectsDone = !detecting || (d > 0 && t > 0 && System.currentTimeMillis() - objectsSince > 10_000);
                boolean settled = f >= push.frames() && s > 0 && s == lastShots && ended && objectsDone;
                lastShots = s;
                if (settled) {
                    System.out.printf("ingested %s: %d frames, %d shots, %d detections, %d tracks%n", stream, f, s, d, t);
                    return push;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(stream + " was not ingested in 30 minutes (" + f + " frames, " + s + " shots)");
                }
                Thread.sleep(2000);
            }
        }
    }

    /**
     * Whether {@code stream} was pushed and ingested to its end before (by an earlier run of this
     * bench on this frame store, with its tracks when detection is on), so that a run can measure it
     * again without pushing it again.
     */
    boolean ingested(String stream) throws Exception {
        if (!Files.isDirectory(dir.resolve("frames"))) {
            return false;
        }
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            if (!es.indices().exists(e -> e.index(Names.VIDEOS_INDEX)).value()) {
                return false;
            }
            var doc = es.get(g -> g.index(Names.VIDEOS_INDEX).id(stream), com.fasterxml.jackson.databind.JsonNode.class);
            return doc.found() && "ended".equals(doc.source().path("status").asText())
                    && Path.of(doc.source().path("source_uri").asText()).toAbsolutePath().startsWith(dir.toAbsolutePath())
                    && (!detecting || count(es, Names.TRACKS_INDEX, thisPush(stream, doc.source().path("epoch_ms").asLong(), null)) > 0);
        }
    }

    private static Query thisPush(String stream, long epochMs, String kind) {
        return Query.of(q -> q.bool(b -> {
            b.filter(f -> f.term(t -> t.field("stream_id").value(stream))).filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)));
            if (kind != null) {
                b.filter(f -> f.term(t -> t.field("kind").value(kind)));
            }
            return b;
        }));
    }

    private static long count(ElasticsearchClient es, String index, Query q) throws Exception {
        if (!es.indices().exists(e -> e.index(index)).value()) {
            return 0;
        }
        es.indices().refresh(r -> r.index(index));
        return es.count(c -> c.index(index).query(q)).count();
    }

    private PushSummary push(Path video, String stream, long epochMs, boolean realTime) throws Exception {
        int batch = (int) Math.max(1, Math.round(pushFps));
        long start = System.nanoTime();
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), pushFps, new JpegEncoder(640, 85));
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap())) {
            return new Pusher(producer, topic, batch, KafkaProducers.MAX_RECORD_BYTES).push(src, stream, video.toString(), epochMs, n -> {
                if (stopLive) {
                    throw new IllegalStateException("live push stopped");
                }
                if (realTime) {
                    // Frame n is due n / fps seconds after the start, as a camera would deliver it.
                    long wait = start + (long) (n / pushFps * 1e9) - System.nanoTime();
                    if (wait > 0) {
                        try {
                            Thread.sleep(wait / 1_000_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            });
        }
    }

    /** Starts pushing {@code video} as {@code stream} in real time in the background, until {@link #stopLive}. */
    void startLive(Path video, String stream) {
        stopLive = false;
        live = new Thread(() -> {
            try {
                push(video, stream, System.currentTimeMillis(), true);
            } catch (Exception e) {
                if (!stopLive) {
                    System.err.println("live push failed: " + e);
                }
            }
        }, "live-push");
        live.setDaemon(true);
        live.start();
    }

    void stopLive() throws InterruptedException {
        stopLive = true;
        if (live != null) {
            live.join(30_000);
        }
    }

    /**
     * The query service over the same Elasticsearch and frame store, with the demo's models, in its
     * own JVM as a deployment runs it ({@link ServiceProcess}): the job, Kafka and the pushes stay
     * in this one, so their garbage collections do not pause the service.
     */
    String startServer() throws Exception {
        server = ServiceProcess.start(infra.elasticsearchUrl(), dir.resolve("frames"), ModelDirectory.locate(),
                dir.resolve("query-service.log"));
        return server.url();
    }

    @Override
    public void close() throws Exception {
        stopLive();
        if (server != null) {
            server.close();
        }
        if (job != null) {
            job.cancel().get();
        }
    }
}
