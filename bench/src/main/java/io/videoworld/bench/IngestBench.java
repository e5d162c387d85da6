package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
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
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.bytedeco.javacv.FFmpegFrameGrabber;

/**
 * Push and ingest throughput of the sample video (640x360, 25 fps), each printed beside a
 * reference measured in the same run: pushing against FFmpeg decoding the same file with no
 * encoding, ingesting against a bare Kafka consumer reading the same records.
 *
 * <p>"Searchable" is every frame document indexed; the run then also waits for every keyframe's
 * perception document and every sampled frame's detection document, and prints that time too, so
 * perception that lags behind the frame documents is not hidden.
 *
 * <p>Run with {@code bin/videoworld bench ingest [seconds] [key=value ...]} (job options, and
 * {@code push.encode-threads=N}: the pusher's encoding threads, 0 for encoding on its decoding thread; {@code
 * bench.warm-job=true}: start the timed push only once the job runs, its models loaded, a 1-s warm-up stream indexed and
 * perceived; by default the push starts as the job is submitted, so its start-up is inside the timed window).
 */
public final class IngestBench {
    private static final String PUSH_THREADS = "push.encode-threads";
    private static final String WARM_JOB = "bench.warm-job";

    private IngestBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("ingest", args);
        double seconds = args.length > 0 && !args[0].contains("=") ? Double.parseDouble(args[0]) : 60;
        TestInfra infra = TestInfra.get();
        Path dir = Files.createTempDirectory("vw-bench");
        Path video = dir.resolve("bench.mp4");
        SampleVideo.write(video, 640, 360, 25, seconds, SampleVideo.DEMO_CUTS.stream().filter(c -> c < seconds).toList());

        long t0 = System.nanoTime();
        long decoded = decodeOnly(video);
        double decodeFps = decoded / secondsSince(t0);

        String topic = "bench.frames." + System.nanoTime();
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, topic, topic + ".dlq");
        String stream = "bench-" + System.nanoTime();

        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, topic);
        conf.set(IngestOptions.DLQ_TOPIC, topic + ".dlq");
        conf.set(IngestOptions.GROUP_ID, "bench-" + System.nanoTime());
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(5));
        conf.set(PerceptionOptions.MODELS, ModelDirectory.locate().toString());
        int encodeThreads = VideoFrameSource.defaultEncodeThreads();
        boolean warm = false;
        for (String a : args) {
            if (a.startsWith(PUSH_THREADS + "=")) {
                encodeThreads = Integer.parseInt(a.substring(PUSH_THREADS.length() + 1));
            } else if (a.startsWith(WARM_JOB + "=")) {
                warm = Boolean.parseBoolean(a.substring(WARM_JOB.length() + 1));
            } else if (a.contains("=")) {
                conf.setString(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            }
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        IngestJob.build(env, conf);
        JobClient job = env.executeAsync("bench-ingest");
        if (warm) {
            warmUp(infra, conf, topic, dir);
        }

        PushSummary push;
        long pushStartMs = System.currentTimeMillis();
        long pushStart = System.nanoTime();
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 0, new JpegEncoder(640, 85), encodeThreads);
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap())) {
            push = new Pusher(producer, topic, 25, KafkaProducers.MAX_RECORD_BYTES).push(src, stream, video.toString(), 0, n -> { });
        }
        double endToEnd;
        double perceived;
        long[] perception;
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            awaitIndexed(es, stream, push.frames());
            endToEnd = secondsSince(pushStart);
            perception = awaitPerceived(es, stream, samples(push.frames(), 25, conf.get(DetectOptions.FPS)),
                    conf.get(PerceptionOptions.ENABLED), conf.get(DetectOptions.ENABLED));
            perceived = secondsSince(pushStart);
        }
        long perceivedMs = System.currentTimeMillis();
        job.cancel().get();

        long t1 = System.nanoTime();
        long consumed = consumeAll(infra.kafkaBootstrap(), topic, push.batches());
        double consumeFps = push.frames() / secondsSince(t1);
        double ingestFps = push.frames() / endToEnd;

        System.out.println();
        System.out.printf("sample video: %.0f s, 640x360 @ 25 fps, %d frames (%.1f MB on Kafka in %d batches)%n",
                seconds, push.frames(), push.bytes() / 1e6, consumed);
        System.out.println("| path | frames/s | reference | reference frames/s | ratio |");
        System.out.println("|---|---:|---|---:|---:|");
        System.out.printf("| push (decode+resize+JPEG+Kafka) | %.0f | FFmpeg decode only | %.0f | %.2f |%n",
                push.framesPerSecond(), decodeFps, push.framesPerSecond() / decodeFps);
        System.out.printf("| push + ingest to searchable in ES | %.0f | bare Kafka consumer of the same records | %.0f | %.2f |%n",
                ingestFps, consumeFps, ingestFps / consumeFps);
        System.out.printf("| push + ingest + all perception indexed | %.0f | bare Kafka consumer of the same records | %.0f | %.2f |%n",
                push.frames() / perceived, consumeFps, push.frames() / perceived / consumeFps);
        System.out.printf("push: %d encoding thread(s) beside the decoding one; job: %s%n", encodeThreads,
                warm ? "running and idle before the push (a 1-s warm-up stream indexed and perceived first)" : "submitted as the push starts (cold)");
        System.out.printf("perception: %d keyframes perceived (OCR, text embedding, image descriptor, detector %s), "
                        + "%d samples detected at vw.detect.fps %s (%s), motion gate %s, change gate %s%n",
                perception[0], conf.get(DetectOptions.ENABLED) ? "on" : "off", perception[1], conf.get(DetectOptions.FPS),
                conf.get(DetectOptions.MODEL), conf.get(DetectOptions.MOTION_GATE), conf.get(PerceptionOptions.CHANGE_GATE));
        // For per-thread CPU samplers outside the JVM: the timed window in wall-clock milliseconds.
        System.out.printf("timed window: %d-%d epoch ms (push %.1f s, searchable %.1f s, all perception %.1f s)%n",
                pushStartMs, perceivedMs, push.elapsedMs() / 1000.0, endToEnd, perceived);
        System.exit(0);
    }

    /** Pushes a 1-s stream and waits until it is indexed and perceived: the job is then running, its models loaded. */
    private static void warmUp(TestInfra infra, Configuration conf, String topic, Path dir) throws Exception {
        Path clip = dir.resolve("warm-up.mp4");
        SampleVideo.write(clip, 640, 360, 25, 1.0, List.of(0.5));
        String stream = "bench-warm-" + System.nanoTime();
        PushSummary push;
        try (VideoFrameSource src = new VideoFrameSource(clip.toString(), 0, new JpegEncoder(640, 85));
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap())) {
            push = new Pusher(producer, topic, 25, KafkaProducers.MAX_RECORD_BYTES).push(src, stream, clip.toString(), 0, n -> { });
        }
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            awaitIndexed(es, stream, push.frames());
            awaitPerceived(es, stream, samples(push.frames(), 25, conf.get(DetectOptions.FPS)),
                    conf.get(PerceptionOptions.ENABLED), conf.get(DetectOptions.ENABLED));
        }
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static long decodeOnly(Path video) throws Exception {
        long n = 0;
        try (FFmpegFrameGrabber g = new FFmpegFrameGrabber(video.toFile())) {
            g.start();
            while (g.grabImage() != null) {
                n++;
            }
            g.stop();
        }
        return n;
    }

    private static void awaitIndexed(ElasticsearchClient es, String stream, long frames) throws Exception {
        long deadline = System.currentTimeMillis() + 600_000;
        while (System.currentTimeMillis() < deadline) {
            if (es.indices().exists(e -> e.index(Names.FRAMES_INDEX)).value()) {
                es.indices().refresh(r -> r.index(Names.FRAMES_INDEX));
                long n = es.count(c -> c.index(Names.FRAMES_INDEX).query(q -> q.term(t -> t.field("stream_id").value(stream)))).count();
                if (n >= frames) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("frames were not indexed in 10 minutes");
    }

    /** Samples the detector gets: the first frame of each 1/fps slot of presentation time, and the last frame. */
    static long samples(long frames, double sourceFps, double detectFps) {
        long n = 0;
        long lastSlot = Long.MIN_VALUE;
        for (long i = 0; i < frames; i++) {
            long slot = (long) Math.floor(Math.round(i * 1000 / sourceFps) * detectFps / 1000.0);
            if (slot != lastSlot || i == frames - 1) {
                n++;
            }
            lastSlot = slot;
        }
        return n;
    }

    /** Waits for a perception document per keyframe and a detection document per sample; returns both counts. */
    private static long[] awaitPerceived(ElasticsearchClient es, String stream, long samples, boolean perception, boolean detection)
            throws Exception {
        long deadline = System.currentTimeMillis() + 600_000;
        while (System.currentTimeMillis() < deadline) {
            long keyframes = count(es, Names.FRAMES_INDEX, stream, true);
            long perceived = perception ? count(es, Names.PERCEPTION_INDEX, stream, false) : 0;
            long detected = detection ? count(es, Names.DETECTIONS_INDEX, stream, false) : 0;
            if ((!perception || keyframes > 0 && perceived >= keyframes) && (!detection || detected >= samples)) {
                return new long[] {perceived, detected};
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("perception was not indexed in 10 minutes");
    }

    private static long count(ElasticsearchClient es, String index, String stream, boolean keyframesOnly) throws Exception {
        if (!es.indices().exists(e -> e.index(index)).value()) {
            return 0;
        }
        es.indices().refresh(r -> r.index(index));
        return es.count(c -> c.index(index).query(q -> q.bool(b -> {
            b.filter(f -> f.term(t -> t.field("stream_id").value(stream)));
            if (keyframesOnly) {
                b.filter(f -> f.exists(x -> x.field("keyframe_role")));
            }
            return b;
        }))).count();
    }

    private static long consumeAll(String bootstrap, String topic, long records) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2 * KafkaProducers.MAX_RECORD_BYTES);
        long n = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            // Assigned, not subscribed: no group join, so the reference is the fetch path alone.
            List<TopicPartition> parts = c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            while (n < records) {
                n += c.poll(Duration.ofMillis(200)).count();
            }
        }
        return n;
    }
}
