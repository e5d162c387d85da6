package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.bench.AskBench.Media;
import io.videoworld.bench.AskBench.Question;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.core.Names;
import io.videoworld.jobs.AudioOptions;
import io.videoworld.jobs.DetectOptions;
import io.videoworld.jobs.IngestJob;
import io.videoworld.media.video.AudioOnlySource;
import io.videoworld.media.video.FrameSource;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.producer.AudioFeed;
import io.videoworld.producer.PushSummary;
import io.videoworld.producer.Pusher;
import io.videoworld.testkit.TestInfra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * What {@link AskBench} asks about: each medium that has a question pushed through the real ingest
 * job (frames, and sound beside them as {@code push --audio} sends it) and awaited until nothing it
 * wrote changes; a stream ingested to its end by an earlier run over the same frame store is kept.
 */
final class AskIngest {
    private static final String FRAMES_TOPIC = "bench.ask.frames";
    private static final String AUDIO_TOPIC = "bench.ask.audio";

    private AskIngest() {}

    /** Ingests the media the questions name into {@code dir}'s frame store and the test infrastructure's Elasticsearch. */
    static void ingest(TestInfra infra, Path dir, List<Media> media, List<Question> questions) throws Exception {
        JobClient job = null;
        try {
            for (Media m : media) {
                if (questions.stream().noneMatch(q -> q.stream().equals(m.stream()))) {
                    continue;
                }
                long epoch = epochOf(m);
                if (ingested(infra, m, epoch, dir)) {
                    System.out.println("already ingested: " + m.stream());
                    continue;
                }
                if (job == null) {
                    job = startJob(infra, dir);
                }
                Path path = resolve(m);
                PushSummary pushed = push(infra, m, path, epoch);
                await(infra, m, epoch, pushed.frames());
            }
        } finally {
            if (job != null) {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** A fixed push time per stream, so that a later run finds the same push and need not ingest it again. */
    static long epochOf(Media m) {
        return 1_760_000_000_000L + Math.floorMod(m.stream().hashCode(), 1_000_000) * 1000L;
    }

    private static Path resolve(Media m) throws IOException {
        Path samples = ModelDirectory.samples();
        // The folders deploy/samples.sh fills: --shots, --speech (speech-bench), the default fetch (speech) and --ask.
        for (String dir : List.of(m.set(), "speech".equals(m.set()) ? "speech-bench" : m.set(), "shots", "speech", "speech-bench", "ask")) {
            Path p = samples.resolve(dir).resolve(m.file());
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new IOException("no " + m.file() + " under " + samples + " (deploy/samples.sh --shots --speech --ask fetches the bench's media)");
    }

    private static JobClient startJob(TestInfra infra, Path dir) throws Exception {
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, FRAMES_TOPIC, AUDIO_TOPIC, FRAMES_TOPIC + ".dlq");
        Configuration conf = ToolBenchSetup.localJob(infra, FRAMES_TOPIC, "bench-ask-", dir.resolve("frames"));
        conf.set(DetectOptions.ENABLED, true);
        conf.set(AudioOptions.ENABLED, true);
        conf.set(AudioOptions.TOPIC, AUDIO_TOPIC);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        IngestJob.build(env, conf);
        return env.executeAsync("bench-ask-ingest");
    }

    private static PushSummary push(TestInfra infra, Media m, Path path, long epoch) throws Exception {
        long t0 = System.nanoTime();
        try (FrameSource src = AudioOnlySource.isSoundOnly(path.toString()) ? new AudioOnlySource(path.toString())
                : new VideoFrameSource(path.toString(), 0, new JpegEncoder(640, 85));
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap())) {
            int batch = (int) Math.max(1, Math.round(src.info().sampleFps()));
            // As push --audio sends it: each frame batch's seconds of sound beside it.
            AudioFeed feed = m.audio() && src.info().hasAudio() ? AudioFeed.start(producer, AUDIO_TOPIC, path.toString(), m.stream(), epoch) : null;
            double fps = src.info().sampleFps();
            PushSummary s = new Pusher(producer, FRAMES_TOPIC, batch, KafkaProducers.MAX_RECORD_BYTES)
                    .push(src, m.stream(), path.toUri().toString(), epoch, n -> {
                        if (feed != null) {
                            feed.sendUntil(Math.round(n * 1000 / fps));
                        }
                    });
            long chunks = 0;
            if (feed != null) {
                try (feed) {
                    chunks = feed.finish();
                }
            }
            System.out.printf(Locale.ROOT, "pushed %s: %d frames, %d audio chunks in %.1f s%n", m.stream(), s.frames(), chunks,
                    (System.nanoTime() - t0) / 1e9);
            return s;
        }
    }

    private static final List<String> WRITTEN = List.of(Names.FRAMES_INDEX, Names.SHOTS_INDEX, Names.PERCEPTION_INDEX, Names.DETECTIONS_INDEX,
            Names.TRACKS_INDEX, Names.TRANSCRIPTS_INDEX, Names.EPISODES_INDEX, Names.GRAPH_INDEX);

    /** Waits until the push's video is ended with every frame indexed and nothing it wrote has changed for 20 s. */
    private static void await(TestInfra infra, Media m, long epoch, long frames) throws Exception {
        try (RestClientTransport t = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(t);
            long deadline = System.currentTimeMillis() + 1_800_000;
            List<Long> last = List.of();
            long since = System.currentTimeMillis();
            while (true) {
                List<Long> now = new ArrayList<>();
                for (String index : WRITTEN) {
                    now.add(count(es, index, m.stream(), epoch));
                }
                if (!now.equals(last)) {
                    last = now;
                    since = System.currentTimeMillis();
                }
                if (ended(es, m.stream(), epoch) && now.get(0) >= frames && System.currentTimeMillis() - since > 20_000) {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    for (int i = 0; i < WRITTEN.size(); i++) {
                        counts.put(WRITTEN.get(i), now.get(i));
                    }
                    System.out.println("ingested " + m.stream() + ": " + counts);
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(m.stream() + " was not ingested in 30 minutes: " + now);
                }
                Thread.sleep(2000);
            }
        }
    }

    private static boolean ingested(TestInfra infra, Media m, long epoch, Path dir) throws Exception {
        if (!Files.isDirectory(dir.resolve("frames"))) {
            return false;
        }
        try (RestClientTransport t = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(t);
            return ended(es, m.stream(), epoch) && count(es, Names.EPISODES_INDEX, m.stream(), epoch) > 0;
        }
    }

    private static boolean ended(ElasticsearchClient es, String stream, long epoch) throws IOException {
        if (!es.indices().exists(e -> e.index(Names.VIDEOS_INDEX)).value()) {
            return false;
        }
        var doc = es.get(g -> g.index(Names.VIDEOS_INDEX).id(stream), JsonNode.class);
        return doc.found() && doc.source().path("epoch_ms").asLong() == epoch && "ended".equals(doc.source().path("status").asText());
    }

    private static long count(ElasticsearchClient es, String index, String stream, long epoch) throws IOException {
        if (!es.indices().exists(e -> e.index(index)).value()) {
            return 0;
        }
        es.indices().refresh(r -> r.index(index));
        Query q = Query.of(x -> x.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(stream)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epoch)))));
        return es.count(c -> c.index(index).query(q)).count();
    }
}
