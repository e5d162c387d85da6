package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foundation end to end: a generated video pushed by the CLI into a real broker, the ingest
 * job on a Flink MiniCluster, the real Elasticsearch, and the REST tools reading it back;
 * malformed records land in the dead-letter topic while the good ones still arrive.
 */
class IngestEndToEndTest {
    private static final String STREAM = "harbour-walk";
    /** Each run its own push, so documents left by an earlier run against the same server never answer for this one. */
    private static final long EPOCH = System.currentTimeMillis();
    private static final String FRAMES_TOPIC = "e2e.frames";
    private static final String DLQ_TOPIC = "e2e.dlq";

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;

    private static TestInfra infra;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Map<String, byte[]> MALFORMED = new HashMap<>();

    @BeforeAll
    static void pushAndIngest() throws Exception {
        infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);

        Path video = tmp.resolve("harbour walk.mp4");
        SampleVideo.write(video, 640, 360, 25, 4.0, List.of(1.5, 3.0));
        int exit = VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", FRAMES_TOPIC,
                "--stream-id", STREAM, "--fps", "5", "--batch-frames", "5", "--epoch-ms", String.valueOf(EPOCH));
        assertThat(exit).isZero();
        pushMalformed();

        job = IngestRun.start(infra, "e2e", tmp.resolve("frames"));
        IngestRun.await("20 frames and the stream document in Elasticsearch", 120, () -> {
            long n = IngestRun.count(es, Names.FRAMES_INDEX, Query.of(q -> q.bool(b -> b
                    .filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH))))));
            var v = es.get(g -> g.index(Names.VIDEOS_INDEX).id(STREAM), JsonNode.class);
            return n >= 20 && v.found() && v.source().get("epoch_ms").asLong() == EPOCH
                    && v.source().get("frames_indexed").asLong() >= 20;
        });
        IngestRun.await("3 shots and the keyframe documents", 60, () -> {
            long n = IngestRun.count(es, Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b
                    .filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("kind", "shot"))
                    .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH))))));
            JsonNode keyframe = es.get(g -> g.index(Names.FRAMES_INDEX).id(STREAM + ":f:0000000008"), JsonNode.class).source();
            return n >= 3 && keyframe != null && keyframe.has("keyframe_role") && keyframe.get("epoch_ms").asLong() == EPOCH;
        });
        server = new QueryServer(QueryConfig.of(infra.elasticsearchUrl(), tmp.resolve("frames").toString())).start("127.0.0.1", 0);
    }

    private static void pushMalformed() throws Exception {
        byte[] good = FrameBatchCodec.encode(new FrameBatch("bad-batches", SourceKind.VIDEO, "x", 0, EPOCH,
                new SourceInfo(25, null, null, "mpeg4", false, 0, 0, null, null, 2, 2, 25), List.of()));
        byte[] wrongVersion = FrameBatchCodec.encode(new FrameBatch("bad-batches", SourceKind.VIDEO, "x", 1, EPOCH,
                new SourceInfo(25, null, null, "mpeg4", false, 0, 0, null, null, 2, 2, 25), List.of()));
        wrongVersion[2] = 42;
        byte[] corrupt = FrameBatchCodec.encode(new FrameBatch("bad-batches", SourceKind.VIDEO, "x", 2, EPOCH,
                new SourceInfo(25, null, null, "mpeg4", false, 0, 0, null, null, 2, 2, 25),
                List.of(new Frame(0, 0, null, 2, 2, new byte[] {(byte) 0xFF, (byte) 0xD8, 1, 2, 3}))));
        MALFORMED.put("bad magic", "this is not a frame batch".getBytes(StandardCharsets.UTF_8));
        MALFORMED.put("unsupported wire version 42", wrongVersion);
        MALFORMED.put("empty batch", good);
        MALFORMED.put("corrupt JPEG", corrupt);
        try (KafkaProducer<byte[], byte[]> p = KafkaProducers.create(infra.kafkaBootstrap())) {
            for (byte[] value : MALFORMED.values()) {
                p.send(new ProducerRecord<>(FRAMES_TOPIC, "bad-batches".getBytes(StandardCharsets.UTF_8), value)).get();
            }
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (server != null) {
            server.close();
        }
        if (job != null) {
            job.cancel().get();
        }
        if (transport != null) {
            transport.close();
        }
    }

    @Test
    void theVideosEpisodesBeginWhereItsScenesDo() throws Exception {
        co.elastic.clients.elasticsearch._types.query_dsl.Query mine = co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.bool(b -> b
                .filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
        IngestRun.await("episodes of the whole video", 120, () -> IngestRun.count(es, Names.EPISODES_INDEX, co.elastic.clients.elasticsearch._types
                .query_dsl.Query.of(q -> q.bool(b -> b.filter(mine).filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte(3800.0))))))) >= 1);
        List<Long> scenes = es.search(s -> s.index(Names.SHOTS_INDEX).size(20).query(q -> q.bool(b -> b.filter(mine).filter(IngestRun.term("kind", "scene"))))
                .sort(o -> o.field(f -> f.field("start_frame").order(SortOrder.Asc))), JsonNode.class).hits().hits().stream()
                .map(h -> h.source().get("start_pts_ms").asLong()).toList();
        List<JsonNode> events = es.search(s -> s.index(Names.EPISODES_INDEX).size(20).query(mine)
                .sort(o -> o.field(f -> f.field("seq").order(SortOrder.Asc))), JsonNode.class).hits().hits().stream().map(h -> h.source()).toList();
        assertThat(scenes).hasSizeGreaterThanOrEqualTo(2);
        assertThat(events).extracting(e -> e.get("start_pts_ms").asLong()).isEqualTo(scenes);
        assertThat(events).allSatisfy(e -> assertThat(e.get("event_type").asText()).isEqualTo("scene_activity"));
        assertThat(events.get(1).get("occurred_at").asLong()).isEqualTo(EPOCH + scenes.get(1));
        // What the camera showed in writing is in the event's summary (the sample video labels its shots).
        assertThat(events.get(1).get("summary").asText().replace(" ", "")).containsIgnoringCase("shot2");
    }

    @Test
    void everySampledFrameIsIndexedExactlyOnceWithItsTimes() throws Exception {
        List<Hit<JsonNode>> hits = es.search(s -> s.index(Names.FRAMES_INDEX).size(100)
                .query(q -> q.term(t -> t.field("stream_id").value(STREAM)))
                .sort(o -> o.field(f -> f.field("frame_index").order(SortOrder.Asc))), JsonNode.class).hits().hits();
        assertThat(hits).hasSize(20);
        for (int i = 0; i < 20; i++) {
            JsonNode d = hits.get(i).source();
            assertThat(hits.get(i).id()).isEqualTo(String.format("%s:f:%010d", STREAM, i));
            assertThat(d.get("frame_index").asLong()).isEqualTo(i);
            assertThat(d.get("pts_ms").asLong()).as("frame %d sampled at 5 fps", i).isEqualTo(i * 200L);
            assertThat(d.get("event_time_ms").asLong()).isEqualTo(EPOCH + i * 200L);
            assertThat(d.get("batch_seq").asLong()).isEqualTo(i / 5);
            assertThat(d.get("width").asInt()).isEqualTo(640);
            assertThat(d.get("height").asInt()).isEqualTo(360);
            assertThat(d.get("jpeg_bytes").asInt()).isGreaterThan(1000);
            assertThat(d.get("source_kind").asText()).isEqualTo("video");
        }
    }

    @Test
    void theStreamDocumentDescribesTheSource() throws Exception {
        JsonNode v = es.get(g -> g.index(Names.VIDEOS_INDEX).id(STREAM), JsonNode.class).source();
        assertThat(v.get("frames_indexed").asLong()).isEqualTo(20);
        assertThat(v.get("batches").asLong()).isEqualTo(4);
        assertThat(v.get("last_seq").asLong()).isEqualTo(3);
        assertThat(v.get("last_pts_ms").asLong()).isEqualTo(3800);
        assertThat(v.get("status").asText()).isEqualTo("ended");
        assertThat(v.get("source").get("fps").asDouble()).isEqualTo(25.0);
        assertThat(v.get("source").get("duration_ms").asLong()).isEqualTo(4000);
        assertThat(v.get("source").get("codec").asText()).isEqualTo("mpeg4");
        // recorded as a file:// URI (absolute, percent-encoded), which the query service opens or maps with --source-root
        assertThat(v.get("source_uri").asText()).isEqualTo(tmp.resolve("harbour walk.mp4").toAbsolutePath().toUri().toString())
                .endsWith("/harbour%20walk.mp4");
    }

    @Test
    void malformedRecordsGoToTheDeadLetterTopicWithReasonAndOriginalBytes() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(DLQ_TOPIC));
            long deadline = System.currentTimeMillis() + 60_000;
            while (records.size() < MALFORMED.size() && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        assertThat(records).hasSize(MALFORMED.size());
        Map<String, byte[]> byReason = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String reason = new String(r.headers().lastHeader(Names.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8);
            assertThat(new String(r.headers().lastHeader(Names.DLQ_SOURCE_HEADER).value(), StandardCharsets.UTF_8))
                    .startsWith(FRAMES_TOPIC + "/");
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("bad-batches");
            byReason.put(reason, r.value());
        }
        MALFORMED.forEach((expectedReason, original) -> assertThat(byReason)
                .as("a dead letter whose reason mentions '%s'", expectedReason)
                .anySatisfy((reason, bytes) -> {
                    assertThat(reason).contains(expectedReason);
                    assertThat(bytes).isEqualTo(original);
                }));
    }

    @Test
    void getVideoInfoAnswersWithTheSeedShape() throws Exception {
        HttpResponse<String> r = post("get_video_info", "{\"video_id\": \"" + STREAM + "\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode j = Json.MAPPER.readTree(r.body());
        assertThat(j.get("video_id").asText()).isEqualTo(STREAM);
        assertThat(j.get("duration").asDouble()).isEqualTo(4.0);
        assertThat(j.get("fps").asDouble()).isEqualTo(25.0);
        assertThat(j.get("resolution").get("width").asInt()).isEqualTo(640);
        assertThat(j.get("resolution").get("height").asInt()).isEqualTo(360);
        assertThat(j.get("aspect_ratio").asText()).isEqualTo("16:9");
        assertThat(j.get("has_audio").asBoolean()).isFalse();
        assertThat(j.get("num_frames").asLong()).isEqualTo(100);
        assertThat(j.get("codec").asText()).isEqualTo("mpeg4");
        assertThat(j.get("file_size_mb").asDouble()).isPositive();
        assertThat(j.get("indexed").get("frames").asLong()).isEqualTo(20);
        assertThat(j.get("indexed").get("sample_fps").asDouble()).isEqualTo(5.0);
    }

    @Test
    void getTemporalStructureFindsTheShotsAtTheGeneratedCuts() throws Exception {
        HttpResponse<String> r = post("get_temporal_structure", "{\"video_id\": \"" + STREAM + "\", \"granularity\": \"fine\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode j = Json.MAPPER.readTree(r.body());
        assertThat(j.get("granularity").asText()).isEqualTo("fine");
        assertThat(j.get("source").asText()).isEqualTo("shot_detection");
        assertThat(j.get("total_segments").asInt()).isEqualTo(3);
        JsonNode segs = j.get("segments");
        // Cuts at 1.5 s and 3.0 s; sampled at 5 fps the first frames of the new shots are at 1.6 s and 3.0 s.
        assertThat(segs.get(0).get("start_time").asDouble()).isZero();
        assertThat(segs.get(1).get("start_time").asDouble()).isEqualTo(1.6);
        assertThat(segs.get(2).get("start_time").asDouble()).isEqualTo(3.0);
        assertThat(segs.get(2).get("end_time").asDouble()).isEqualTo(4.0);
        assertThat(segs.get(1).get("start_frame").asLong()).isEqualTo(40);
        assertThat(segs.get(1).get("transition_type").asText()).isEqualTo("cut");
        assertThat(segs.get(1).get("type").asText()).isEqualTo("shot");
        assertThat(segs.get(1).get("keyframes").get(0).get("frame_id").asText()).isEqualTo(STREAM + ":f:0000000008");

        JsonNode coarse = Json.MAPPER.readTree(post("get_temporal_structure", "{\"video_id\": \"" + STREAM + "\"}").body());
        assertThat(coarse.get("granularity").asText()).isEqualTo("coarse");
        assertThat(coarse.get("segments").get(0).get("type").asText()).isEqualTo("scene");
        assertThat(coarse.get("total_segments").asInt()).isEqualTo(3);
    }

    @Test
    void keyframesAreStoredAndIndexedWithTheirShotAndScene() throws Exception {
        JsonNode d = es.get(g -> g.index(Names.FRAMES_INDEX).id(STREAM + ":f:0000000008"), JsonNode.class).source();
        assertThat(d.get("keyframe_role").asText()).isEqualTo("first");
        assertThat(d.get("shot_id").asText()).isEqualTo(STREAM + ":shot:0000000008");
        assertThat(d.get("scene_id").asText()).startsWith(STREAM + ":scene:");
        assertThat(d.get("batch_seq").asLong()).isEqualTo(1);
        Path stored = tmp.resolve("frames").resolve(d.get("store_ref").asText());
        // With text redaction on, perception stores the keyframe once it has read it, a little after its document.
        IngestRun.await("the keyframe's picture in the frame store", 60, () -> java.nio.file.Files.exists(stored));
        assertThat(io.videoworld.core.JpegInfo.parse(java.nio.file.Files.readAllBytes(stored)))
                .isEqualTo(new io.videoworld.core.JpegInfo(640, 360));
    }

    @Test
    void anUnknownStreamIsA404NamingIt() throws Exception {
        HttpResponse<String> r = post("get_video_info", "{\"video_id\": \"never-pushed\"}");
        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode err = Json.MAPPER.readTree(r.body()).get("error");
        assertThat(err.get("field").asText()).isEqualTo("video_id");
        assertThat(err.get("message").asText()).contains("never-pushed");
    }

    @Test
    void badRequestsAre400sNamingTheField() throws Exception {
        HttpResponse<String> broken = post("get_video_info", "{\"video_id\": ");
        assertThat(broken.statusCode()).isEqualTo(400);
        assertThat(broken.body()).contains("not valid JSON");

        JsonNode missing = Json.MAPPER.readTree(post("get_temporal_structure", "{}").body()).get("error");
        assertThat(missing.get("field").asText()).isEqualTo("video_id");

        ObjectNode wrongGranularity = Json.MAPPER.createObjectNode().put("video_id", STREAM).put("granularity", "medium");
        HttpResponse<String> r = post("get_temporal_structure", wrongGranularity.toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).get("error").get("field").asText()).isEqualTo("granularity");
    }

    @Test
    void healthReportsElasticsearch() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(r.body()).get("elasticsearch").asText()).isIn("green", "yellow");
    }

    private static HttpResponse<String> post(String tool, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
