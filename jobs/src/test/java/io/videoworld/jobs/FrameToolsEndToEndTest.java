package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.media.video.VideoSeeker;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample_frames, crop_region, get_segment and GET /v1/frames over an ingested video, with and without its source file.
 * The job writes keyframes to a {@code file://} URI store and the query service reads them through the same URI; the
 * producer records the source as a {@code file://} URI, which the query service decodes, or maps with a source root.
 */
class FrameToolsEndToEndTest {
    private static final String STREAM = "ferry-deck";
    /** Each run its own push, so documents left by an earlier run against the same server never answer for this one. */
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;

    private static Path video;
    private static RestClientTransport transport;
    private static JobClient job;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void ingest() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        ElasticsearchClient es = EsClients.sync(transport);
        video = tmp.resolve("ferry.mp4");
        SampleVideo.write(video, 640, 360, 25, 4.0, List.of(2.0));
        assertThat(VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "tools.frames",
                "--stream-id", STREAM, "--fps", "5", "--epoch-ms", String.valueOf(EPOCH))).isZero();
        job = IngestRun.start(infra, "tools", tmp.resolve("frames"), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(ShotOptions.FRAME_STORE, frameStoreUri());
        });
        IngestRun.await("2 shots", 120, () -> IngestRun.count(es, Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b
                .filter(IngestRun.term("stream_id", STREAM)).filter(thisRun()).filter(IngestRun.term("kind", "shot"))))) >= 2
                && IngestRun.count(es, Names.FRAMES_INDEX, Query.of(q -> q.bool(b -> b
                        .filter(IngestRun.term("stream_id", STREAM)).filter(thisRun()).filter(f -> f.exists(e -> e.field("store_ref")))))) >= 6
                // Every frame, not only the keyframes: a tool asked for a time picks the nearest indexed frame.
                && IngestRun.count(es, Names.FRAMES_INDEX, Query.of(q -> q.bool(b -> b
                        .filter(IngestRun.term("stream_id", STREAM)).filter(thisRun())))) >= 20
                && es.get(g -> g.index(Names.VIDEOS_INDEX).id(STREAM), JsonNode.class).source().get("epoch_ms").asLong() == EPOCH
                // With text redaction on, perception stores each keyframe once it has read it, a little after its document.
                && storedKeyframes() >= 6);
        server = new QueryServer(QueryConfig.of(infra.elasticsearchUrl(), frameStoreUri())).start("127.0.0.1", 0);
    }

    private static long storedKeyframes() throws java.io.IOException {
        Path store = tmp.resolve("frames");
        if (!Files.isDirectory(store)) {
            return 0;
        }
        try (var files = Files.walk(store)) {
            return files.filter(p -> p.toString().endsWith(".jpg")).count();
        }
    }

    /** The one store URI the job writes and the query service reads. */
    private static String frameStoreUri() {
        return tmp.resolve("frames").toUri().toString();
    }

    /** Only this run's documents: a shared server keeps earlier runs' shots of the same stream, which would end the wait early. */
    private static Query thisRun() {
        return Query.of(q -> q.term(t -> t.field("epoch_ms").value(EPOCH)));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        job.cancel().get();
        transport.close();
    }

    private static HttpResponse<String> post(String tool, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(String tool, String body) throws Exception {
        HttpResponse<String> r = post(tool, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static String field(String tool, String body) throws Exception {
        HttpResponse<String> r = post(tool, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return Json.MAPPER.readTree(r.body()).get("error").get("field").asText();
    }

    private static JpegInfo jpegOf(String dataUrl) {
        return JpegInfo.parse(Base64.getDecoder().decode(dataUrl.substring(dataUrl.indexOf(',') + 1)));
    }

    @Test
    void uniformSamplingDecodesTheSourceAtEvenTimesAndResizes() throws Exception {
        JsonNode r = ok("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"num_frames\":4,\"resolution\":{\"width\":320}}");
        assertThat(r.get("total_frames").asInt()).isEqualTo(4);
        assertThat(r.get("actual_interval").asDouble()).isEqualTo(1.0);
        JsonNode frames = r.get("frames");
        for (int i = 0; i < 4; i++) {
            assertThat(frames.get(i).get("timestamp").asDouble()).isEqualTo(i * 1.0);
            assertThat(frames.get(i).get("origin").asText()).isEqualTo("decoded");
            assertThat(frames.get(i).get("frame_id").asText()).isEqualTo(String.format("%s:f:%010d", STREAM, i * 5));
            assertThat(jpegOf(frames.get(i).get("image_data").asText())).isEqualTo(new JpegInfo(320, 180));
        }
        assertThat(frames.get(2).get("frame_number").asLong()).isEqualTo(50);
    }

    @Test
    void keyframeSamplingReturnsTheStoredShotKeyframesAsIdsOrUrls() throws Exception {
        JsonNode r = ok("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"keyframe\",\"format\":\"url\"}");
        assertThat(r.get("total_frames").asInt()).isGreaterThanOrEqualTo(4);
        String url = r.get("frames").get(0).get("image_url").asText();
        assertThat(url).startsWith("/v1/frames/" + STREAM + ":f:");
        HttpResponse<byte[]> img = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(img.statusCode()).isEqualTo(200);
        assertThat(img.headers().firstValue("Content-Type")).hasValue("image/jpeg");
        assertThat(img.headers().firstValue("X-VideoWorld-Origin")).as("read from the file:// store").hasValue("stored_keyframe");
        assertThat(JpegInfo.parse(img.body())).isEqualTo(new JpegInfo(640, 360));

        JsonNode ids = ok("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[2.2],\"format\":\"frame_id\"}");
        assertThat(ids.get("frames").get(0).get("frame_id").asText()).isEqualTo(STREAM + ":f:0000000011");
        assertThat(ids.get("frames").get(0).has("image_data")).isFalse();
    }

    @Test
    void cropsComeOutAtTheAskedSizeWithTheirPixelBoxes() throws Exception {
        JsonNode r = ok("crop_region", "{\"video_id\":\"" + STREAM + "\",\"source\":{\"type\":\"timestamp\",\"timestamp\":1.0},"
                + "\"regions\":[{\"bbox\":[0.25,0.5,0.5,0.25],\"label\":\"deck\"}],\"padding\":0.1,"
                + "\"output_resolution\":{\"width\":64,\"height\":48}}");
        JsonNode crop = r.get("cropped_regions").get(0);
        assertThat(crop.get("label").asText()).isEqualTo("deck");
        assertThat(crop.get("bbox_pixels").toString()).isEqualTo("[128,171,384,108]");
        assertThat(jpegOf(crop.get("image_data").asText())).isEqualTo(new JpegInfo(64, 48));
        assertThat(r.get("source_info").get("original_resolution").get("width").asInt()).isEqualTo(640);

        HttpResponse<byte[]> img = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/frames/" + STREAM + ":f:0000000003?crop=0,0,0.5,0.5")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(img.headers().firstValue("X-VideoWorld-Origin")).hasValue("decoded");
        assertThat(JpegInfo.parse(img.body())).isEqualTo(new JpegInfo(320, 180));
    }

    @Test
    void getSegmentNamesTheShotThatCoversTheRange() throws Exception {
        JsonNode r = ok("get_segment", "{\"video_id\":\"" + STREAM + "\",\"start_time\":2.5,\"end_time\":3.5}");
        assertThat(r.get("segment_id").asText()).isEqualTo(STREAM + ":shot:0000000010");
        assertThat(r.get("actual_start").asDouble()).isEqualTo(2.0);
        assertThat(r.get("actual_end").asDouble()).isEqualTo(4.0);
        assertThat(r.get("num_frames").asLong()).isEqualTo(50);
        JsonNode across = ok("get_segment", "{\"video_id\":\"" + STREAM + "\",\"start_time\":1.5,\"end_time\":2.2}");
        assertThat(across.get("segment_id").asText()).isEqualTo(STREAM + ":shot:0000000000");
        assertThat(across.get("overlapping_segments")).hasSize(2);
    }

    @Test
    void badRangesBoxesAndTimesAre400sNamingTheField() throws Exception {
        assertThat(field("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"time_range\":{\"start_time\":3,\"end_time\":1}}"))
                .isEqualTo("time_range.end_time");
        assertThat(field("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"time_range\":{\"start_time\":-1}}"))
                .isEqualTo("time_range.start_time");
        assertThat(field("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[9]}"))
                .isEqualTo("timestamps[0]");
        assertThat(field("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"num_frames\":0}")).isEqualTo("num_frames");
        assertThat(field("crop_region", "{\"video_id\":\"" + STREAM + "\",\"source\":{\"type\":\"timestamp\",\"timestamp\":1},"
                + "\"regions\":[{\"bbox\":[0.1,0.1,0.2,0.2]},{\"bbox\":[0.8,0.5,0.4,0.2]}]}")).isEqualTo("regions[1].bbox");
        assertThat(field("get_segment", "{\"video_id\":\"" + STREAM + "\",\"start_time\":2,\"end_time\":2}")).isEqualTo("end_time");
    }

    @Test
    void theSourceIsRecordedAsAFileUriAndDecodedFromIt() throws Exception {
        JsonNode info = ok("get_video_info", "{\"video_id\":\"" + STREAM + "\"}");
        assertThat(info.toString()).contains("\"" + video.toUri() + "\"");
        JsonNode r = ok("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[1.1]}");
        assertThat(r.get("frames").get(0).get("origin").asText()).isEqualTo("decoded");
    }

    @Test
    void aSourceRootOpensTheRecordedUriWhereTheFileIsOnThisMachine() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("mounted elsewhere"));
        Files.move(video, elsewhere.resolve(video.getFileName()));
        QueryConfig base = QueryConfig.of(TestInfra.get().elasticsearchUrl(), frameStoreUri());
        try (QueryServer mapped = new QueryServer(base.withSources(SourceLocator.withRoots(List.of(tmp + "=" + elsewhere))))
                .start("127.0.0.1", 0)) {
            String body = "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[1.0]}";
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mapped.port() + "/v1/tools/sample_frames"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode f = Json.MAPPER.readTree(r.body()).get("frames").get(0);
            assertThat(f.get("origin").asText()).as(r.body()).isEqualTo("decoded");
            assertThat(f.get("frame_id").asText()).isEqualTo(STREAM + ":f:0000000005");
            // without the root the same server setup falls back to the stored keyframes
            assertThat(ok("sample_frames", body).get("frames").get(0).get("origin").asText()).isEqualTo("nearest_keyframe");
        } finally {
            Files.move(elsewhere.resolve(video.getFileName()), video);
        }
    }

    @Test
    void withoutTheSourceFileTheNearestStoredKeyframeIsUsedAndSaysSo() throws Exception {
        Path moved = tmp.resolve("moved.mp4");
        Files.move(video, moved);
        try {
            JsonNode r = ok("sample_frames", "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[1.1]}");
            JsonNode f = r.get("frames").get(0);
            assertThat(r.get("frame_source").asText()).isEqualTo("nearest_keyframe");
            assertThat(f.get("origin").asText()).isEqualTo("nearest_keyframe");
            assertThat(f.get("offset_ms").asLong()).isPositive();
            assertThat(jpegOf(f.get("image_data").asText())).isEqualTo(new JpegInfo(640, 360));
        } finally {
            Files.move(moved, video);
        }
    }

    @Test
    void idsAndUrlsNeverDecodeWithOrWithoutTheSource() throws Exception {
        String[] asks = {
            "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"keyframe\",\"format\":\"url\"}",
            "{\"video_id\":\"" + STREAM + "\",\"num_frames\":4,\"format\":\"frame_id\"}",
            "{\"video_id\":\"" + STREAM + "\",\"sample_method\":\"specific\",\"timestamps\":[1.1,3.3],\"format\":\"url\"}"};
        long decodedBefore = VideoSeeker.framesDecoded();
        for (String ask : asks) {
            assertThat(ok("sample_frames", ask).get("frames")).isNotEmpty().allSatisfy(f -> assertThat(f.has("image_data")).isFalse());
        }
        Path moved = tmp.resolve("moved-ids.mp4");
        Files.move(video, moved);
        try {
            for (String ask : asks) {
                JsonNode r = ok("sample_frames", ask);
                assertThat(r.get("frame_source").asText()).isEqualTo("nearest_keyframe");
                assertThat(r.get("frames")).isNotEmpty().allSatisfy(f -> {
                    assertThat(f.has("image_data")).isFalse();
                    assertThat(f.get("frame_id").asText()).startsWith(STREAM + ":f:");
                });
            }
            // Without the source, a time names the stored keyframe nearest to it: 3.3 s lies in the second shot (2-4 s).
            JsonNode near = ok("sample_frames", asks[2]).get("frames").get(1);
            assertThat(near.get("timestamp").asDouble()).isBetween(2.0, 4.0);
            assertThat(near.get("origin").asText()).isEqualTo("nearest_keyframe");
        } finally {
            Files.move(moved, video);
        }
        assertThat(VideoSeeker.framesDecoded()).isEqualTo(decodedBefore);
    }
}
