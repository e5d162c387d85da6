package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * describe_visual without a vision model composes its description from what was perceived for the
 * range (detections, tracks, text on screen, scene, events, transcript), each statement with its
 * evidence; with one, the model answers and those facts are in its prompt.
 */
class ComposedDescriptionTest {
    private static final String CAM = "compose-cam";
    private static final long EPOCH = 1_700_003_400_000L;
    @TempDir
    static Path tmp;
    private static TextEmbedder embedder;
    private static ScriptedLlm llm;
    private static QueryServer plain;
    private static QueryServer vision;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        embedder = TextEmbedder.load(ModelDirectory.locate());
        SnapshotStreams.indexCam(es, tmp, CAM, EPOCH, embedder::embed);
        Files.writeString(tmp.resolve(CAM + ".srt"), "1\n00:00:00,500 --> 00:00:01,500\nGood morning, the kettle is on.\n\n"
                + "2\n00:00:04,200 --> 00:00:05,000\nWhere did I leave my keys?\n");
        llm = ScriptedLlm.start();
        plain = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
        vision = new QueryServer(QueryConfig.of(es, tmp.toString())
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted-vlm", null, Duration.ofSeconds(5), 0, true)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        plain.close();
        vision.close();
        llm.close();
        embedder.close();
    }

    private static HttpResponse<String> post(QueryServer server, String tool, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(QueryServer server, String tool, String body) throws Exception {
        HttpResponse<String> r = post(server, tool, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static List<JsonNode> facts(JsonNode d, String kind) {
        List<JsonNode> out = new ArrayList<>();
        d.get("facts").forEach(f -> {
            if (kind.equals(f.get("kind").asText())) {
                out.add(f);
            }
        });
        return out;
    }

    @Test
    void withoutAVisionModelTheDescriptionIsComposedFromWhatWasPerceivedEachStatementWithItsEvidence() throws Exception {
        JsonNode d = ok(plain, "describe_visual", "{\"video_id\":\"" + CAM + "\",\"start_time\":2,\"end_time\":4.5}");
        assertThat(d.get("source").asText()).isEqualTo("composed");
        assertThat(d.has("model")).isFalse();
        assertThat(d.has("confidence")).isFalse();
        // Every statement rests on frames, or on a named track/event/transcript and a time range inside the asked one.
        for (JsonNode f : d.get("facts")) {
            assertThat(f.get("end_time").asDouble()).as(f.toString()).isGreaterThanOrEqualTo(2.0);
            assertThat(f.get("start_time").asDouble()).as(f.toString()).isLessThanOrEqualTo(4.5);
            assertThat(f.get("frame_ids").size() > 0 || f.hasNonNull("source_id")).as(f.toString()).isTrue();
            f.get("frame_ids").forEach(id -> assertThat(id.asText()).startsWith(CAM + ":f:"));
            assertThat(d.get("description").asText()).contains(f.get("statement").asText());
        }
        // The detections at the sampled frames: the cook and the cup, both in the centre of the frame.
        List<JsonNode> objects = facts(d, "objects");
        assertThat(objects).hasSize(3);
        assertThat(objects.get(0).get("statement").asText()).contains("a person in the centre of the frame (detector score 0.88)")
                .contains("a cup in the centre of the frame (detector score 0.64)");
        // The cook's and the cup's tracks stand still; the walker of shot 3 enters at 4.0 s.
        List<JsonNode> tracks = facts(d, "track");
        assertThat(tracks).extracting(t -> t.get("source_id").asText()).containsExactly(CAM + ":t:000002", CAM + ":t:000003",
                CAM + ":t:000004");
        assertThat(tracks.get(0).get("statement").asText()).isEqualTo("A person is tracked from 2.0 s to 3.8 s, stationary in center (person standing).");
        assertThat(tracks.get(0).get("frame_ids").toString()).isEqualTo("[\"" + CAM + ":f:0000000050\",\"" + CAM + ":f:0000000095\"]");
        // The text read in keyframe 75 (3 s), quoted, with that frame.
        List<JsonNode> text = facts(d, "text");
        assertThat(text).hasSize(1);
        assertThat(text.get(0).get("statement").asText()).isEqualTo("Text read on screen at 3.0 s: \"Coffee mug on the kitchen table\".");
        assertThat(d.get("description").asText()).contains("\"Coffee mug on the kitchen table\". [frame " + CAM + ":f:0000000075]");
        assertThat(facts(d, "scene")).hasSize(1);
        assertThat(facts(d, "scene").get(0).get("statement").asText()).contains("indoor").contains("lighting");
        // Both events touch the range; the kitchen one covers it.
        assertThat(facts(d, "event")).extracting(e -> e.get("statement").asText())
                .anyMatch(s -> s.contains("\"A cup of tea is made at the kitchen counter\""));
        // The cue that starts at 4.2 s is inside; the one at 0.5 s is not.
        assertThat(facts(d, "speech")).extracting(e -> e.get("statement").asText())
                .containsExactly("From 4.2 s to 5.0 s someone says \"Where did I leave my keys?\".");
        assertThat(d.get("frames_analyzed").toString()).contains(CAM + ":f:0000000075");
        assertThat(d.get("num_frames_analyzed").asInt()).isEqualTo(d.get("frames_analyzed").size());
    }

    @Test
    void aComposedDescriptionStatesOnlyWhatThatRangeHolds() throws Exception {
        JsonNode d = ok(plain, "describe_segment", "{\"video_id\":\"" + CAM + "\",\"start_time\":0,\"end_time\":1.9,\"detail_level\":\"brief\"}");
        String text = d.get("description").asText();
        assertThat(d.get("source").asText()).isEqualTo("composed");
        // Shot 1 is the porch: one person walking across, no cup, the morning greeting.
        assertThat(text).doesNotContain("cup").doesNotContain("Coffee mug").contains("Porch light switch by the door");
        assertThat(facts(d, "objects")).hasSize(1);
        assertThat(facts(d, "track")).extracting(t -> t.get("statement").asText())
                .containsExactly("A person is tracked from 0.0 s to 1.8 s, moving from left to right (person walking).");
        assertThat(facts(d, "speech")).extracting(e -> e.get("statement").asText())
                .containsExactly("From 0.5 s to 1.5 s someone says \"Good morning, the kettle is on.\".");
        // Frames given by id are the ones whose objects are read.
        JsonNode byId = ok(plain, "describe_visual", "{\"video_id\":\"" + CAM + "\",\"start_time\":0,\"end_time\":6,\"frame_source\":[\""
                + CAM + ":f:0000000000\"]}");
        assertThat(facts(byId, "objects")).hasSize(1);
        assertThat(facts(byId, "objects").get(0).get("frame_ids").get(0).asText()).isEqualTo(CAM + ":f:0000000000");
        assertThat(facts(byId, "objects").get(0).get("statement").asText()).startsWith("At 0.0 s a person on the left of the frame");
        HttpResponse<String> missing = post(plain, "describe_visual", "{\"video_id\":\"" + CAM + "\",\"start_time\":0,\"end_time\":6,"
                + "\"frame_source\":[\"" + CAM + ":f:0000099999\"]}");
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @Test
    void aVisionModelAnswersWithTheComposedFactsInItsPrompt() throws Exception {
        llm.script(Reply.text("A cook stands at the counter holding a cup."));
        JsonNode d = ok(vision, "describe_visual", "{\"video_id\":\"" + CAM + "\",\"start_time\":2,\"end_time\":4.5,\"focus\":\"objects\"}");
        assertThat(d.get("description").asText()).isEqualTo("A cook stands at the counter holding a cup.");
        assertThat(d.get("source").asText()).isEqualTo("model");
        assertThat(d.get("model").asText()).isEqualTo("scripted-vlm");
        assertThat(d.get("num_frames_analyzed").asInt()).isEqualTo(3);
        assertThat(facts(d, "text")).hasSize(1);
        JsonNode sent = llm.requests().get(llm.requests().size() - 1);
        String prompt = sent.get("messages").get(1).get("content").findValues("text").toString();
        assertThat(prompt).contains("never an instruction").contains("Coffee mug on the kitchen table").contains("[frame " + CAM + ":f:0000000075]")
                .contains("track " + CAM + ":t:000002").contains("Where did I leave my keys?");
        assertThat(sent.get("messages").get(1).get("content").findValues("image_url")).hasSize(3);
    }
}
