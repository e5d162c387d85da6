package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.core.AudioChunk;
import io.videoworld.core.AudioChunkCodec;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Names;
import io.videoworld.core.SourceKind;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.producer.AudioPusher;
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What was said reaches the episodes through the whole job, with audio on. First a screen without
 * sound, pushed while the audio topic holds nothing at all, gets episodes: its one shot never
 * closes, so its batches are cut only as the watermark passes, and an audio source without records
 * must not hold the watermark back. Then two screens recorded with a microphone that caught a
 * voice (Debian alsa-utils' "front center"): one pushed as a file is (all frames, then the sound),
 * whose recognised words reach an episode once, with their own times, although they come after
 * the batches of their span were cut; and one whose sound and pictures arrive together, as a live
 * capture's do, whose words are quoted in the details line of the batch that holds their end.
 */
class SpokenEpisodesEndToEndTest {
    private static final String SILENT = "silent-screen";
    private static final String FILE = "spoken-file";
    private static final String LIVE = "spoken-live";
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;
    /** Each later push starts after everything the one before brought the watermark to. */
    private static final long FILE_EPOCH = EPOCH + 120_000;
    private static final long LIVE_EPOCH = EPOCH + 240_000;
    private static final int SECONDS = 24;
    private static final long VOICE_AT = 5_000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    /** One screen frame a second: a growing bar (a screen that does not change is dropped as near-duplicates). */
    private static void frame(KafkaProducer<byte[], byte[]> p, String stream, long epoch, int i, boolean last) throws Exception {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(160, 90, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 160, 90);
        g.setColor(Color.DARK_GRAY);
        g.fillRect(0, 30, 6 + i * 6, 30);
        g.dispose();
        java.io.ByteArrayOutputStream jpeg = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "jpg", jpeg);
        p.send(new ProducerRecord<>("spoken.frames", stream.getBytes(StandardCharsets.UTF_8), FrameBatchCodec.encode(new FrameBatch(stream,
                SourceKind.SCREEN, null, i, epoch, null, List.of(new Frame(i, i * 1000L, null, 160, 90, jpeg.toByteArray())), last)))).get();
    }

    /** The sound of second {@code i}: silence, with the recording from {@value #VOICE_AT} ms on. */
    private static void sound(KafkaProducer<byte[], byte[]> p, String stream, long epoch, int i, float[] voice) throws Exception {
        float[] second = new float[AudioChunk.RATE];
        int from = (int) ((i * 1000L - VOICE_AT) * AudioChunk.RATE / 1000);
        for (int k = 0; k < second.length; k++) {
            int v = from + k;
            second[k] = v >= 0 && v < voice.length ? voice[v] : 0;
        }
        p.send(new ProducerRecord<>("spoken.audio", stream.getBytes(StandardCharsets.UTF_8), AudioChunkCodec.encode(AudioChunk.s16(stream, i, epoch,
                i * 1000L, second, 0, second.length)))).get();
    }

    private static float[] voice() throws Exception {
        List<AudioChunk> chunks = new ArrayList<>();
        AudioPusher.chunks(ModelDirectory.samples().resolve("speech").resolve("Front_Center.wav").toString(), "v", 0, chunks::add);
        int n = chunks.stream().mapToInt(AudioChunk::samples).sum();
        float[] all = new float[n];
        int at = 0;
        for (AudioChunk c : chunks) {
            float[] v = c.values();
            System.arraycopy(v, 0, all, at, v.length);
            at += v.length;
        }
        return all;
    }

    private static List<JsonNode> episodes(ElasticsearchClient es, String stream, long epoch) throws Exception {
        es.indices().refresh(r -> r.index(Names.EPISODES_INDEX));
        return es.search(s -> s.index(Names.EPISODES_INDEX).size(50).query(mine(stream, epoch))
                .sort(o -> o.field(f -> f.field("occurred_at").order(SortOrder.Asc))), JsonNode.class).hits().hits().stream().map(h -> h.source())
                .toList();
    }

    private static Query mine(String stream, long epoch) {
        return Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", stream)).filter(IngestRun.term("epoch_ms", String.valueOf(epoch)))));
    }

    /** On a failure: each operator's input watermark (per subtask) and what the job indexed, to tell a held watermark from missing input. */
    private static void diagnose(org.apache.flink.client.program.ClusterClient<?> client, JobClient job, ElasticsearchClient es) {
        try {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            String base = client.getWebInterfaceURL() + "/jobs/" + job.getJobID();
            JsonNode plan = io.videoworld.core.Json.MAPPER.readTree(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode v : plan.path("vertices")) {
                String marks = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/vertices/" + v.path("id").asText()
                        + "/watermarks")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                System.out.println("vertex " + v.path("name").asText().replaceAll("\\s+", " ") + ": " + marks);
            }
            for (String index : List.of(Names.FRAMES_INDEX, Names.SHOTS_INDEX, Names.PERCEPTION_INDEX, Names.TRANSCRIPTS_INDEX, Names.EPISODES_INDEX)) {
                System.out.println(index + " " + SILENT + ": " + IngestRun.count(es, index, mine(SILENT, EPOCH)) + ", " + FILE + ": "
                        + IngestRun.count(es, index, mine(FILE, FILE_EPOCH)) + ", " + LIVE + ": " + IngestRun.count(es, index, mine(LIVE, LIVE_EPOCH)));
            }
            for (String stream : List.of(FILE, LIVE)) {
                for (JsonNode e : episodes(es, stream, stream.equals(FILE) ? FILE_EPOCH : LIVE_EPOCH)) {
                    System.out.println(stream + " episode: " + e.get("details").asText().replace("\n", " // "));
                }
            }
        } catch (Exception e) {
            System.out.println("no diagnosis: " + e);
        }
    }

    /** Waits for the stream's transcript and an episode quoting its words; returns the transcript and the details lines. */
    private static Heard heard(ElasticsearchClient es, String stream, long epoch, org.apache.flink.client.program.ClusterClient<?> client, JobClient job)
            throws Exception {
        try {
            IngestRun.await(stream + "'s speech indexed and quoted by an episode", 300, () -> {
                if (IngestRun.count(es, Names.TRANSCRIPTS_INDEX, mine(stream, epoch)) < 1) {
                    return false;
                }
                JsonNode t = es.search(s -> s.index(Names.TRANSCRIPTS_INDEX).query(mine(stream, epoch)), JsonNode.class).hits().hits().get(0).source();
                String words = t.path("text").asText();
                return !words.isBlank() && episodes(es, stream, epoch).stream().anyMatch(e -> e.get("details").asText().contains("\"" + words + "\""));
            });
        } catch (AssertionError e) {
            diagnose(client, job, es);
            throw e;
        }
        JsonNode t = es.search(s -> s.index(Names.TRANSCRIPTS_INDEX).query(mine(stream, epoch)), JsonNode.class).hits().hits().get(0).source();
        System.out.println(stream + " transcript: " + t);
        assertThat(t.path("status").asText()).isEqualTo("ok");
        List<JsonNode> events = episodes(es, stream, epoch);
        events.forEach(e -> System.out.println(stream + " episode " + e.get("start_pts_ms") + "-" + e.get("end_pts_ms") + " " + e.get("summary").asText()
                + "\n  " + e.get("details").asText().replace("\n", "\n  ")));
        List<String> lines = events.stream().flatMap(e -> Arrays.stream(e.get("details").asText().split("\n"))).toList();
        String words = t.path("text").asText();
        List<String> quoting = lines.stream().filter(l -> l.contains("\"" + words + "\"")).toList();
        assertThat(quoting).as("quoted exactly once").hasSize(1);
        long start = t.path("start_ms").asLong();
        long end = t.path("end_ms").asLong();
        assertThat(start).isLessThan(end);
        assertThat(start).isBetween(VOICE_AT - 500, VOICE_AT + 1500);
        // With its own times, whichever batch carries it.
        assertThat(quoting.get(0)).contains("[" + clock(start) + "-" + clock(end) + "] \"" + words + "\"");
        return new Heard(words, start, end, quoting.get(0));
    }

    private record Heard(String words, long startMs, long endMs, String line) {}

    @Test
    void silentScreensGetEpisodesAndWhatWasSaidReachesTheEpisodeOfItsSpan(
            @org.apache.flink.test.junit5.InjectClusterClient org.apache.flink.client.program.ClusterClient<?> client) throws Exception {
        TestInfra infra = TestInfra.get();
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, "spoken.audio", "spoken.frames", "spoken.dlq");
        JobClient job = IngestRun.start(infra, "spoken", Files.createTempDirectory("spoken-frames"), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(AudioOptions.ENABLED, true);
            conf.set(AudioOptions.TOPIC, "spoken.audio");
            conf.set(MemoryOptions.MAX_BATCH, Duration.ofSeconds(4));
            conf.set(ShotOptions.SCREEN_KEYFRAME_EVERY, Duration.ofSeconds(2));
            conf.set(IngestOptions.SOURCE_IDLENESS, Duration.ofSeconds(3));
        });
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl());
                KafkaProducer<byte[], byte[]> p = KafkaProducers.create(infra.kafkaBootstrap())) {
            ElasticsearchClient es = EsClients.sync(transport);
            for (int i = 0; i < SECONDS; i++) {
                frame(p, SILENT, EPOCH, i, false);
            }
            long t0 = System.nanoTime();
            try {
                IngestRun.await("episodes of the silent screen while the audio topic is empty", 150,
                        () -> IngestRun.count(es, Names.EPISODES_INDEX, mine(SILENT, EPOCH)) >= 1);
            } catch (AssertionError e) {
                diagnose(client, job, es);
                throw e;
            }
            System.out.printf("silent screen's episodes after %.1f s%n", (System.nanoTime() - t0) / 1e9);
            assertThat(IngestRun.count(es, Names.SHOTS_INDEX, mine(SILENT, EPOCH))).as("no shot closed: the watermark cut the batches").isZero();
            assertThat(episodes(es, SILENT, EPOCH)).allSatisfy(e -> assertThat(e.get("details").asText()).doesNotContain("said"));

            float[] voice = voice();
            // A file: every frame (the last one closing the stream), then the sound.
            for (int i = 0; i < 12; i++) {
                frame(p, FILE, FILE_EPOCH, i, i == 11);
            }
            for (int i = 0; i < 12; i++) {
                sound(p, FILE, FILE_EPOCH, i, voice);
            }
            heard(es, FILE, FILE_EPOCH, client, job);

            // Live: each second's sound and picture together.
            for (int i = 0; i < SECONDS; i++) {
                sound(p, LIVE, LIVE_EPOCH, i, voice);
                frame(p, LIVE, LIVE_EPOCH, i, false);
            }
            Heard live = heard(es, LIVE, LIVE_EPOCH, client, job);
            // On time: the details line of the batch whose span holds the stretch's end.
            long from = seconds(live.line().substring(1, 9));
            long to = seconds(live.line().substring(10, 18));
            // (A batch of speech alone would span the stretch itself, ending in the second the stretch ends in.)
            assertThat(live.endMs()).as("the stretch ends inside the batch that quotes it: " + live.line()).isBetween(from * 1000, to * 1000 - 1);
        } finally {
            job.cancel().get();
        }
    }

    private static String clock(long ms) {
        long s = ms / 1000;
        return String.format("%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    private static long seconds(String clock) {
        String[] p = clock.split(":");
        return Long.parseLong(p[0]) * 3600 + Long.parseLong(p[1]) * 60 + Long.parseLong(p[2]);
    }
}
