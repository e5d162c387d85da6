package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.connectors.producer.JpegEncoder;
import io.videoworld.connectors.producer.KafkaProducers;
import io.videoworld.connectors.producer.PushSummary;
import io.videoworld.connectors.producer.Pusher;
import io.videoworld.connectors.producer.SampleVideo;
import io.videoworld.connectors.producer.VideoFrameSource;
import io.videoworld.core.Names;
import io.videoworld.jobs.IngestJob;
import io.videoworld.jobs.IngestOptions;
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
 * <p>Run with {@code bin/videoworld bench ingest [seconds]}.
 */
public final class IngestBench {
    private IngestBench() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
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
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        IngestJob.build(env, conf);
        JobClient job = env.executeAsync("bench-ingest");

        PushSummary push;
        long pushStart = System.nanoTime();
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 0, new JpegEncoder(640, 85));
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap())) {
            push = new Pusher(producer, topic, 25, KafkaProducers.MAX_RECORD_BYTES).push(src, stream, video.toString(), 0, n -> { });
        }
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            awaitIndexed(EsClients.sync(transport), stream, push.frames());
        }
        double endToEnd = secondsSince(pushStart);
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
        System.exit(0);
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
