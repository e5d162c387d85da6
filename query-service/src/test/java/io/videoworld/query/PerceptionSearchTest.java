package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.testkit.KitchenCam;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the text read on screen makes possible: evidence ranked by hybrid BM25 + embedding search,
 * temporal_search, find_similar_segments, and describe_visual through a (scripted) vision model.
 */
class PerceptionSearchTest {
    private static final String PANTRY = "pantry-cam";
    private static final long EPOCH = 1_700_000_600_000L;
    @TempDir
    static Path tmp;
    private static TextEmbedder embedder;
    private static ScriptedLlm llm;
    private static QueryServer withoutModel;
    private static QueryServer withVision;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        embedder = TextEmbedder.load(ModelDirectory.locate());
        KitchenCam.index(es, tmp, PANTRY, EPOCH, embedder::embed);
        llm = ScriptedLlm.start();
        withoutModel = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder)).start("127.0.0.1", 0);
        withVision = new QueryServer(QueryConfig.of(es, tmp.toString())
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted-vlm", null, Duration.ofSeconds(5), 0, true)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        withoutModel.close();
        withVision.close();
        llm.close();
        embedder.close();
    }

    private static JsonNode ask(QueryServer server, String body) throws Exception {
        return tool(server, null, body);
    }

    @Test
    void withoutAModelTheAnswerIsTheRankedEvidenceAndSaysSo() throws Exception {
        JsonNode r = ask(withoutModel, "{\"question\": \"Where is the coffee mug?\", \"stream_ids\": [\"" + PANTRY + "\"]}");
        assertThat(r.get("mode").asText()).isEqualTo("evidence");
        assertThat(r.get("message").asText()).contains("No LLM is configured");
        assertThat(r.get("evidence")).hasSize(3);
        JsonNode best = r.get("evidence").get(0);
        assertThat(best.get("segment_id").asText()).isEqualTo(PANTRY + ":shot:0000000050");
        assertThat(best.get("matched_text").asText()).isEqualTo("Coffee mug on the kitchen table");
        assertThat(best.get("score").asDouble()).isGreaterThan(r.get("evidence").get(1).path("score").asDouble(0));
        // The clip stays inside the shot of the keyframe (75, at 3 s) where the text was read; the camera has no events.
        assertThat(best.get("start_time").asDouble()).isEqualTo(2.0);
        assertThat(best.get("end_time").asDouble()).isEqualTo(4.0);
        assertThat(best.get("matched_times").toString()).isEqualTo("[3.0]");
        assertThat(best.get("episode_ids")).isEmpty();
        assertThat(best.get("thumbnails").get(0).asText()).startsWith("/v1/frames/" + PANTRY + ":f:0000000075");
    }

    @Test
    void temporalSearchFindsTheShotWhoseScreenMatchesUnderBothNames() throws Exception {
        for (String tool : List.of("temporal_search", "search_segments_by_text")) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withoutModel.port() + "/v1/tools/" + tool))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + PANTRY + "\", \"query\": \"coffee mug\", \"top_k\": 2}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode j = Json.MAPPER.readTree(r.body());
            assertThat(j.get("candidates")).hasSize(2);
            JsonNode top = j.get("candidates").get(0);
            assertThat(top.get("segment_id").asText()).isEqualTo(PANTRY + ":shot:0000000050");
            assertThat(top.get("scene_id").asText()).isEqualTo(PANTRY + ":scene:0000000050");
            assertThat(top.get("score").asDouble()).isBetween(0.0, 1.0);
            assertThat(top.get("matched_reason").asText()).contains("Coffee mug on the kitchen table");
            assertThat(j.get("sources").get(0).asText()).isEqualTo("ocr");
        }
    }

    @Test
    void similarSegmentsAreFoundByLookAndByMeaning() throws Exception {
        JsonNode visual = tool(withoutModel, "search_similar_to_example", "{\"video_id\": \"" + PANTRY
                + "\", \"example_segment\": {\"start_time\": 0, \"end_time\": 1.9}}");
        assertThat(visual.get("similar_segments")).hasSize(2);
        assertThat(visual.get("similar_segments").get(0).get("segment_id").asText()).isEqualTo(PANTRY + ":shot:0000000100");
        assertThat(visual.get("similar_segments").get(0).get("similarity").asDouble()).isEqualTo(1.0);
        assertThat(visual.get("example_summary").asText()).contains("Porch light");
        JsonNode held = tool(withoutModel, "find_similar_segments", "{\"video_id\": \"" + PANTRY
                + "\", \"example_segment\": {\"start_time\": 1.2, \"end_time\": 1.8}}");
        assertThat(held.get("similar_segments").get(0).get("segment_id").asText())
                .as("no keyframe was analysed in 1.2-1.8 s; the one on screen since 1.0 s stands for it").isEqualTo(PANTRY + ":shot:0000000100");
        assertThat(held.get("example_summary").asText()).contains("on screen since 1.0 s").contains("Porch light");
        HttpResponse<String> before = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withoutModel.port()
                + "/v1/tools/find_similar_segments")).POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + PANTRY
                + "\", \"example_segment\": {\"start_time\": 0.2, \"end_time\": 0.8}}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(before.statusCode()).as("the shot's first analysed keyframe comes at 1.0 s: nothing stands for 0.2-0.8 s").isEqualTo(404);
        JsonNode semantic = tool(withoutModel, "find_similar_segments", "{\"video_id\": \"" + PANTRY
                + "\", \"example_segment\": {\"start_time\": 4.1, \"end_time\": 6}, \"similarity_metric\": \"semantic\", \"top_k\": 1}");
        assertThat(semantic.get("similar_segments")).hasSize(1);
        HttpResponse<String> motion = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withoutModel.port()
                + "/v1/tools/find_similar_segments")).POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + PANTRY
                + "\", \"example_segment\": {\"start_time\": 0, \"end_time\": 2}, \"similarity_metric\": \"motion\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(motion.statusCode()).as("the pantry camera has no tracks").isEqualTo(404);
        assertThat(motion.body()).contains("no object was tracked");
    }

    /** A tool call, or /v1/ask when {@code name} is null; must answer 200. */
    private static JsonNode tool(QueryServer server, String name, String body) throws Exception {
        String path = name == null ? "/v1/ask" : "/v1/tools/" + name;
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void aVisionModelDescribesTheFramesOfARangeAndWithoutOneTheDescriptionIsComposed() throws Exception {
        llm.script(Reply.text("A mug stands on a table while a ball crosses the frame."));
        JsonNode d = tool(withVision, "describe_segment", "{\"video_id\": \"" + PANTRY + "\", \"start_time\": 2, \"end_time\": 4, "
                + "\"focus\": \"objects\"}");
        assertThat(d.get("description").asText()).isEqualTo("A mug stands on a table while a ball crosses the frame.");
        assertThat(d.get("caption").asText()).isEqualTo(d.get("description").asText());
        assertThat(d.get("num_frames_analyzed").asInt()).isEqualTo(3);
        assertThat(d.has("confidence")).isFalse();
        JsonNode sent = llm.requests().get(llm.requests().size() - 1);
        assertThat(sent.get("messages").get(1).get("content").findValues("image_url")).hasSize(3);
        assertThat(sent.get("messages").get(0).get("content").asText()).contains("Focus on the objects");

        JsonNode none = tool(withoutModel, "describe_visual", "{\"video_id\": \"" + PANTRY + "\", \"start_time\": 2, \"end_time\": 4}");
        assertThat(none.get("source").asText()).isEqualTo("composed");
        assertThat(none.get("description").asText()).contains("\"Coffee mug on the kitchen table\"");
    }

    @Test
    void theMeaningOfTheQuestionFindsTextThatSharesNoWordWithIt() throws Exception {
        JsonNode r = ask(withoutModel, "{\"question\": \"Will it be wet outside later?\", \"stream_ids\": [\"" + PANTRY + "\"]}");
        assertThat(r.get("evidence").get(0).get("matched_text").asText()).isEqualTo("Weather: rain expected tonight");
    }

}
