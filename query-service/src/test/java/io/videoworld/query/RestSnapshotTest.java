package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.SnapshotJson;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST answers for fixed streams ({@link SnapshotStreams}) are the ones committed under
 * {@code src/test/resources/snapshots/}: every tool of the catalog (and some aliases, options and
 * errors), {@code /v1/ask} in evidence mode, {@code /v1/tools} and {@code /openapi.json}, so a
 * change of structure that changes an answer fails here. Each file holds the request, the status
 * and the answer after {@link SnapshotJson#normalise}, which replaces only what differs from run to
 * run or machine to machine (listed there); search scores are compared within a tolerance. Regenerate with {@code -Dvw.snapshots.update=true},
 * and only when an answer is meant to change.
 */
class RestSnapshotTest {
    static final Path SNAPSHOTS = Path.of("src/test/resources/snapshots");
    private static final Path ACTUAL = Path.of("target/snapshots-actual");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path tmp;
    private static TextEmbedder embedder;
    private static ScriptedLlm llm;
    private static QueryServer plain;
    private static QueryServer vision;

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        embedder = TextEmbedder.load(ModelDirectory.locate());
        SnapshotStreams.index(es, tmp, embedder::embed);
        llm = ScriptedLlm.start();
        llm.respondWith(r -> r.path("messages").path(0).path("content").asText().contains("crop of one video frame")
                ? ScriptedLlm.Reply.text("The person is walking past the porch door.")
                : ScriptedLlm.Reply.text("A cup stands on the counter while a person in an apron holds it."));
        plain = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder)).start("127.0.0.1", 0);
        vision = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder)
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted-vlm", null, Duration.ofSeconds(5), 0, true))))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        plain.close();
        vision.close();
        llm.close();
        embedder.close();
    }

    /** One request; {@code capture} names a variable set from the answer's {@code field}, used later as {@code {name}}. */
    record Call(String file, boolean visionServer, String method, String path, String body, String capture, String field) {
        static Call tool(String file, String tool, String body) {
            return new Call(file, false, "POST", "/v1/tools/" + tool, body, null, null);
        }

        Call onVision() {
            return new Call(file, true, method, path, body, capture, field);
        }

        Call capturing(String name, String from) {
            return new Call(file, visionServer, method, path, body, name, from);
        }
    }

    private static final String CAM = "\"video_id\":\"" + SnapshotStreams.CAM + "\"";
    private static final String RADIO = "\"video_id\":\"" + SnapshotStreams.RADIO + "\"";
    private static final String GONE = "\"video_id\":\"" + SnapshotStreams.GONE + "\"";

    /** Every call, in the order they run (later ones use ids earlier ones returned). */
    static List<Call> calls() throws Exception {
        List<Call> c = new ArrayList<>();
        c.add(new Call("tools", false, "GET", "/v1/tools", null, null, null));
        c.add(new Call("openapi", false, "GET", "/openapi.json", null, null, null));
        c.add(Call.tool("get_video_info-cam", "get_video_info", "{" + CAM + "}"));
        c.add(Call.tool("get_video_metadata-radio", "get_video_metadata", "{" + RADIO + "}"));
        c.add(Call.tool("get_video_info-gone", "get_video_info", "{" + GONE + "}"));
        c.add(Call.tool("get_video_info-unknown", "get_video_info", "{\"video_id\":\"no-such-stream\"}"));
        c.add(Call.tool("get_temporal_structure-coarse", "get_temporal_structure", "{" + CAM + "}"));
        c.add(Call.tool("get_temporal_structure-fine", "get_temporal_structure", "{" + CAM + ",\"granularity\":\"fine\"}"));
        c.add(Call.tool("list_scenes-whole-stream", "list_scenes", "{" + GONE + "}"));
        c.add(Call.tool("sample_frames-uniform-ids", "sample_frames", "{" + CAM + ",\"num_frames\":3,\"format\":\"frame_id\"}"));
        c.add(Call.tool("sample_frames-specific-base64", "sample_frames", "{" + CAM + ",\"sample_method\":\"specific\","
                + "\"timestamps\":[0.5,2.5],\"resolution\":{\"width\":64}}"));
        c.add(Call.tool("sample_frames-adaptive-url", "sample_frames", "{" + CAM + ",\"sample_method\":\"adaptive\",\"num_frames\":4,"
                + "\"format\":\"url\",\"resolution\":{\"height\":90}}"));
        c.add(Call.tool("sample_frames-keyframe", "sample_frames", "{" + CAM + ",\"sample_method\":\"keyframe\",\"format\":\"frame_id\"}"));
        c.add(Call.tool("sample_frames-interval", "sample_frames", "{" + CAM + ",\"sample_interval\":2.0,\"format\":\"url\","
                + "\"time_range\":{\"start_time\":1}}"));
        c.add(Call.tool("sample_frames-source-gone", "sample_frames", "{" + GONE + ",\"format\":\"frame_id\"}"));
        c.add(Call.tool("sample_frames-bad-count", "sample_frames", "{" + CAM + ",\"num_frames\":0}"));
        c.add(Call.tool("crop_region-frame", "crop_region", "{" + CAM + ",\"source\":{\"type\":\"frame\",\"frame_id\":\""
                + SnapshotStreams.CAM + ":f:0000000025\"},\"regions\":[{\"bbox\":[0.1,0.1,0.3,0.4],\"label\":\"left\"},"
                + "{\"bbox\":[0.5,0.5,0.25,0.25]}],\"padding\":0.1,\"output_resolution\":{\"width\":32,\"height\":32}}"));
        c.add(Call.tool("crop_region-timestamp-url", "crop_region", "{" + CAM + ",\"source\":{\"type\":\"timestamp\",\"timestamp\":3.0},"
                + "\"regions\":[{\"bbox\":[0.25,0.25,0.5,0.5]}],\"format\":\"url\"}"));
        c.add(Call.tool("crop_region-image-data", "crop_region", "{" + CAM + ",\"source\":{\"type\":\"image_data\",\"image_data\":\""
                + png() + "\"},\"regions\":[{\"bbox\":[0,0,0.5,0.5],\"label\":\"corner\"}]}"));
        c.add(Call.tool("get_segment", "get_segment", "{" + CAM + ",\"start_time\":1.5,\"end_time\":2.5}"));
        c.add(Call.tool("describe_visual-no-model", "describe_visual", "{" + CAM + ",\"start_time\":2,\"end_time\":4}"));
        c.add(Call.tool("describe_segment-vision", "describe_segment", "{" + CAM + ",\"start_time\":2,\"end_time\":4,"
                + "\"focus\":\"objects\",\"detail_level\":\"brief\"}").onVision());
        c.add(Call.tool("detect_objects-query", "detect_objects", "{" + CAM + ",\"timestamp\":2.4,\"query\":\"white cup\"}"));
        c.add(Call.tool("detect_objects-category", "detect_objects", "{" + CAM + ",\"timestamp\":1.0,\"category\":\"people\","
                + "\"confidence_threshold\":0.5}"));
        c.add(Call.tool("recognize_activity", "recognize_activity", "{" + CAM + ",\"start_time\":0,\"end_time\":6}"));
        c.add(Call.tool("recognize_actions-shot-2", "recognize_actions", "{" + CAM + ",\"start_time\":2,\"end_time\":4,"
                + "\"granularity\":\"atomic\",\"top_k\":1}"));
        c.add(Call.tool("get_scene_attributes", "get_scene_attributes", "{" + CAM + ",\"timestamp\":3.0}"));
        c.add(Call.tool("get_scene_attributes-some", "get_scene_attributes", "{" + CAM + ",\"timestamp\":1.0,"
                + "\"attributes\":[\"lighting\",\"indoor_outdoor\"]}"));
        c.add(Call.tool("get_transcript-cam", "get_transcript", "{" + CAM + ",\"time_range\":{\"start_time\":0,\"end_time\":3},"
                + "\"include_speaker_info\":true}"));
        c.add(Call.tool("get_transcript-radio", "get_transcript", "{" + RADIO + "}"));
        c.add(Call.tool("detect_audio_events-radio", "detect_audio_events", "{" + RADIO + "}"));
        c.add(Call.tool("detect_audio_events-loud", "detect_audio_events", "{" + RADIO + ",\"event_types\":[\"loud_transient\"]}"));
        c.add(Call.tool("detect_audio_events-no-track", "detect_audio_events", "{" + CAM + "}"));
        c.add(Call.tool("register_entity-person", "register_entity", "{" + CAM + ",\"timestamp\":1.0,\"entity_hint\":\"person in red\","
                + "\"bbox\":[0.3,0.25,0.15,0.65]}").capturing("person", "entity_id"));
        c.add(Call.tool("register_entity-cup", "register_entity", "{" + CAM + ",\"timestamp\":2.4,\"entity_hint\":\"cup\"}")
                .capturing("cup", "entity_id"));
        c.add(Call.tool("track_entity", "track_entity", "{" + CAM + ",\"entity_id\":\"{person}\",\"min_confidence\":0.5}"));
        c.add(Call.tool("get_entity_trajectory-cup", "get_entity_trajectory", "{" + CAM + ",\"entity_id\":\"{cup}\"}"));
        c.add(Call.tool("query_entity_state", "query_entity_state", "{" + CAM + ",\"entity_id\":\"{person}\",\"time\":1.0,"
                + "\"query\":\"What is the person doing?\"}"));
        c.add(Call.tool("query_entity_state-vision", "query_entity_state", "{" + CAM + ",\"entity_id\":\"{person}\",\"time\":1.0,"
                + "\"query\":\"What is the person doing?\"}").onVision());
        c.add(Call.tool("spatial_relation-labels", "spatial_relation", "{" + CAM + ",\"timestamp\":2.4,\"subject\":\"cup\","
                + "\"object\":\"person\",\"relation\":\"holding\"}"));
        c.add(Call.tool("spatial_relation-entity", "spatial_relation", "{" + CAM + ",\"timestamp\":2.4,\"subject\":\"{cup}\"}"));
        c.add(Call.tool("list_entities", "list_entities", "{" + CAM + "}"));
        c.add(Call.tool("temporal_search", "temporal_search", "{" + CAM + ",\"query\":\"coffee mug\",\"top_k\":3}"));
        c.add(Call.tool("search_segments_by_text-said", "search_segments_by_text", "{" + CAM + ",\"query\":\"kettle\","
                + "\"time_range\":{\"start_time\":0,\"end_time\":3}}"));
        c.add(Call.tool("search_segments_by_semantics", "search_segments_by_semantics", "{" + CAM + ",\"query\":\"making tea\"}"));
        c.add(Call.tool("search_segments_by_semantics-audio", "search_segments_by_semantics", "{" + CAM + ",\"query\":\"keys\","
                + "\"mode\":\"audio\"}"));
        c.add(Call.tool("find_similar_segments-visual", "find_similar_segments", "{" + CAM + ",\"example_segment\":"
                + "{\"start_time\":0,\"end_time\":1.9}}"));
        c.add(Call.tool("search_similar_to_example-semantic", "search_similar_to_example", "{" + CAM + ",\"example_segment\":"
                + "{\"start_time\":4.1,\"end_time\":6},\"similarity_metric\":\"semantic\",\"top_k\":1}"));
        c.add(Call.tool("find_similar_segments-motion", "find_similar_segments", "{" + CAM + ",\"example_segment\":"
                + "{\"start_time\":0,\"end_time\":2},\"similarity_metric\":\"motion\"}"));
        c.add(Call.tool("write_memory", "write_memory", "{" + CAM + ",\"level\":\"segment\",\"time_range\":{\"start_time\":2,"
                + "\"end_time\":4},\"content\":\"The cook holds a cup by the counter\",\"type\":\"observation\","
                + "\"metadata\":{\"importance\":0.8,\"tags\":[\"kitchen\"]}}").capturing("memory", "memory_id"));
        // top_k 4: the fifth answer is a near tie (0.264 vs 0.262) whose order moves with the shared index statistics.
        c.add(Call.tool("read_memory-all", "read_memory", "{" + CAM + ",\"query\":\"cup\",\"top_k\":4}"));
        c.add(Call.tool("read_memory-frame", "read_memory", "{" + CAM + ",\"level\":\"frame\",\"query\":\"porch light\",\"top_k\":2}"));
        c.add(Call.tool("read_memory-segment", "read_memory", "{" + CAM + ",\"level\":\"segment\",\"query\":\"cook\","
                + "\"time_range\":{\"start_time\":3}}"));
        c.add(Call.tool("merge_events", "merge_events", "{" + CAM + ",\"event_ids\":[\"" + SnapshotStreams.CAM + ":e:000002\",\""
                + SnapshotStreams.CAM + ":e:000001\"]}"));
        c.add(Call.tool("merge_events-spatial", "merge_events", "{" + CAM + ",\"event_ids\":[\"{memory}\",\"" + SnapshotStreams.CAM
                + ":e:000001\"],\"merge_strategy\":\"spatial\"}"));
        c.add(Call.tool("merge_events-causal", "merge_events", "{" + CAM + ",\"event_ids\":[\"" + SnapshotStreams.CAM + ":e:000001\"],"
                + "\"merge_strategy\":\"causal\"}"));
        c.add(Call.tool("unknown-tool", "no_such_tool", "{" + CAM + "}"));
        c.add(new Call("ask-evidence", false, "POST", "/v1/ask", "{\"question\":\"Which coffee mug is it?\",\"stream_ids\":[\""
                + SnapshotStreams.CAM + "\"]}", null, null));
        return c;
    }

    @Test
    void everyAnswerIsTheSnapshottedOne() throws Exception {
        boolean update = Boolean.getBoolean("vw.snapshots.update");
        Map<String, String> vars = new HashMap<>();
        Set<String> toolsCalled = new TreeSet<>();
        List<String> differences = new ArrayList<>();
        List<Call> calls = calls();
        Files.createDirectories(ACTUAL);
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            String path = fill(call.path(), vars);
            String body = call.body() == null ? null : fill(call.body(), vars);
            HttpResponse<String> r = send(call.visionServer() ? vision : plain, call.method(), path, body);
            JsonNode answer = r.body().isBlank() ? Json.MAPPER.nullNode() : Json.MAPPER.readTree(r.body());
            if (call.capture() != null) {
                vars.put(call.capture(), answer.path(call.field()).asText());
            }
            if (path.startsWith("/v1/tools/")) {
                toolsCalled.add(path.substring("/v1/tools/".length()));
            }
            ObjectNode doc = Json.MAPPER.createObjectNode();
            ObjectNode req = doc.putObject("request");
            req.put("server", call.visionServer() ? "vision" : "plain").put("method", call.method()).put("path", path);
            if (body != null) {
                req.set("body", Json.MAPPER.readTree(body));
            }
            doc.put("status", r.statusCode());
            doc.set("response", SnapshotJson.normalise(answer, tmp.toString()));
            String text = SnapshotJson.print(doc);
            String file = String.format("%02d-%s.json", i + 1, call.file());
            Files.writeString(ACTUAL.resolve(file), text);
            if (update) {
                Files.createDirectories(SNAPSHOTS);
                Files.writeString(SNAPSHOTS.resolve(file), text);
                continue;
            }
            Path expected = SNAPSHOTS.resolve(file);
            if (!Files.exists(expected)) {
                differences.add(file + ": no snapshot (run with -Dvw.snapshots.update=true to write it)");
            } else {
                String diff = SnapshotJson.firstDifference(Files.readString(expected), text);
                if (diff != null) {
                    differences.add(file + ": " + diff);
                }
            }
        }
        assertThat(differences).as("answers that differ from src/test/resources/snapshots (actual ones in " + ACTUAL + ")").isEmpty();
        for (ToolCatalog.ToolDef t : ToolCatalog.load().all()) {
            assertThat(toolsCalled).as("every tool of the catalog is snapshotted").contains(t.name());
        }
    }

    private static String fill(String s, Map<String, String> vars) {
        for (Map.Entry<String, String> v : vars.entrySet()) {
            s = s.replace("{" + v.getKey() + "}", v.getValue());
        }
        return s;
    }

    private static HttpResponse<String> send(QueryServer server, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A 16x16 PNG, upper half red, lower half blue, as crop_region's image_data. */
    private static String png() throws Exception {
        BufferedImage img = new BufferedImage(16, 16, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 16; y++) {
            for (int x = 0; x < 16; x++) {
                img.setRGB(x, y, y < 8 ? 0xCC2222 : 0x2222CC);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }
}
