package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.Json;
import io.videoworld.testkit.KitchenCam;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.ScriptedLlm;
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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /v1/ask against a scripted OpenAI-compatible server over real HTTP: every path of the Solver /
 * Checker loop and of the [Answer] / [Search] / watch reasoning.
 */
class AskAgentTest {
    private static final String STREAM = "kitchen-cam";
    private static final long EPOCH = 1_700_000_500_000L;
    @TempDir
    static Path tmp;
    private static ScriptedLlm llm;
    private static QueryServer withModel;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Scripted replies per role, picked by the system prompt of each request. */
    private static final Map<String, ConcurrentLinkedQueue<Reply>> SCRIPT = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        KitchenCam.index(es, tmp, STREAM, EPOCH);
        llm = ScriptedLlm.start();
        llm.respondWith(AskAgentTest::route);
        withModel = new QueryServer(QueryConfig.of(es, tmp.toString())
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted", null, Duration.ofSeconds(5), 0, false)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        withModel.close();
        llm.close();
    }

    @BeforeEach
    void clearScript() {
        SCRIPT.clear();
    }

    private static String role(JsonNode request) {
        String system = request.path("messages").path(0).path("content").asText();
        if (system.contains("search plan")) {
            return "parse";
        }
        if (system.contains("memory below answers")) {
            return "evaluate";
        }
        if (system.contains("watching")) {
            return "watch";
        }
        if (system.contains("strict examiner")) {
            return "checker";
        }
        return "solver";
    }

    private static Reply route(JsonNode request) {
        Reply next = SCRIPT.getOrDefault(role(request), new ConcurrentLinkedQueue<>()).poll();
        if (next != null) {
            return next;
        }
        return switch (role(request)) {
            case "parse" -> Reply.text("{\"query_triples\": [[\"mug\", \"on\", \"?\"]], \"question_type\": \"location\"}");
            case "evaluate" -> Reply.text("Action: [Answer]\nContent: The mug is on the table.\nSummary: clip 2 shows it.");
            default -> Reply.error(500);
        };
    }

    private static void script(String role, Reply... replies) {
        SCRIPT.computeIfAbsent(role, r -> new ConcurrentLinkedQueue<>()).addAll(List.of(replies));
    }

    private static List<JsonNode> requestsOf(String role, int since) {
        List<JsonNode> out = new ArrayList<>();
        List<JsonNode> all = llm.requests();
        for (int i = since; i < all.size(); i++) {
            if (role(all.get(i)).equals(role)) {
                out.add(all.get(i));
            }
        }
        return out;
    }

    private static JsonNode ask(QueryServer server, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/ask"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static String question(String q) {
        return "{\"question\": \"" + q + "\", \"stream_ids\": [\"" + STREAM + "\"]}";
    }

    private static String answer(String text, String explanation) {
        return "I looked at the clips.\n```json\n{\"thought_summary\": \"seen\", \"action_type\": \"answer_question\", "
                + "\"action_payload\": {\"final_answer\": \"" + text + "\", \"explanation\": \"" + explanation + "\"}}\n```";
    }

    private static String lastUserMessage(JsonNode request) {
        JsonNode msgs = request.get("messages");
        for (int i = msgs.size() - 1; i >= 0; i--) {
            if ("user".equals(msgs.get(i).path("role").asText())) {
                return msgs.get(i).path("content").asText();
            }
        }
        return "";
    }

    @Test
    void aWellSupportedAnswerIsAcceptedByTheChecker() throws Exception {
        int since = llm.requests().size();
        script("solver", Reply.text(answer("The mug is on the table.", "It stands on the table in [clip 2].")));
        script("checker", Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("Where is the mug?"));
        assertThat(r.get("answer").asText()).isEqualTo("The mug is on the table.");
        assertThat(r.get("confidence").asDouble()).isEqualTo(1.0);
        assertThat(r.get("status").asText()).isEqualTo("accepted by the checker");
        assertThat(r.get("evidence")).singleElement().satisfies(e -> assertThat(e.get("clip").asInt()).isEqualTo(2));
        assertThat(r.get("trace").findValuesAsText("stage")).containsSubsequence("parse", "search", "evaluate", "solver", "checker");
        JsonNode checker = requestsOf("checker", since).get(0);
        assertThat(checker.get("messages")).hasSize(2);
        assertThat(lastUserMessage(checker)).contains("Frame " + STREAM + ":f:0000000050");
    }

    @Test
    void aRejectedAnswerSendsTheFeedbackBackAndTheNextOneIsAccepted() throws Exception {
        int since = llm.requests().size();
        script("solver", Reply.text(answer("On the floor.", "Guess.")), Reply.text(answer("On the table.", "See [clip 2].")));
        script("checker", Reply.text("{\"confidence_score\": 2, \"feedback\": \"No clip shows the floor\"}"),
                Reply.text("{\"confidence_score\": 4, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("Where is the mug?"));
        assertThat(r.get("answer").asText()).isEqualTo("On the table.");
        assertThat(r.get("confidence").asDouble()).isEqualTo(0.8);
        assertThat(lastUserMessage(requestsOf("solver", since).get(1)))
                .isEqualTo("System Feedback: Confidence Score: 2/5. Reason: No clip shows the floor. Please try again.");
        assertThat(requestsOf("checker", since)).allSatisfy(c -> assertThat(c.get("messages")).hasSize(2));
    }

    @Test
    void invalidJsonGetsTheSeedsErrorMessageAndARetry() throws Exception {
        int since = llm.requests().size();
        script("solver", Reply.text("The mug, I think, is somewhere."), Reply.text(answer("On the table.", "[clip 2]")));
        script("checker", Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("Where is the mug?"));
        assertThat(r.get("answer").asText()).isEqualTo("On the table.");
        assertThat(lastUserMessage(requestsOf("solver", since).get(1)))
                .isEqualTo("System Error: Invalid JSON format, please output strictly valid JSON.");
    }

    @Test
    void retrievingMoreFramesBringsThemBackAsASystemNotification() throws Exception {
        int since = llm.requests().size();
        script("solver", Reply.text("{\"thought_summary\": \"need more\", \"action_type\": \"retrieve_more_frames\", "
                + "\"action_payload\": {\"count\": 2, \"focus\": \"the mug\"}}"), Reply.text(answer("On the table.", "[clip 1]")));
        script("checker", Reply.text("{\"confidence_score\": 4, \"feedback\": \"\"}"));
        ask(withModel, question("Where is the mug?"));
        String notification = lastUserMessage(requestsOf("solver", since).get(1));
        assertThat(notification).startsWith("System Notification: Retrieved 2 new frames (focus: the mug): Frame " + STREAM + ":f:");
    }

    @Test
    void toolErrorsAndUnknownToolsGoBackToTheSolverAsToolResults() throws Exception {
        int since = llm.requests().size();
        script("solver", new Reply(200, null, List.of(new String[] {"detect_objects", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":1}"},
                new String[] {"fly_drone", "{}"}, new String[] {"get_video_info", "{\"video_id\":\"" + STREAM + "\"}"}), 0),
                Reply.text(answer("On the table.", "[clip 2]")));
        script("checker", Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("Where is the mug?"));
        JsonNode msgs = requestsOf("solver", since).get(1).get("messages");
        List<String> results = new ArrayList<>();
        msgs.forEach(m -> {
            if ("tool".equals(m.path("role").asText())) {
                results.add(m.get("content").asText());
            }
        });
        assertThat(results).hasSize(3);
        assertThat(results.get(0)).contains("not_implemented");
        assertThat(results.get(1)).contains("unknown_tool");
        assertThat(Json.MAPPER.readTree(results.get(2)).get("duration").asDouble()).isEqualTo(6.0);
        assertThat(r.get("trace").findValuesAsText("tool")).containsExactly("detect_objects", "fly_drone", "get_video_info");
        assertThat(requestsOf("solver", since).get(0).get("tools").findValuesAsText("name")).contains("sample_frames", "detect_objects", "get_transcript", "describe_visual");
    }

    @Test
    void theSolverIsStoppedAfterTenSteps() throws Exception {
        int since = llm.requests().size();
        for (int i = 0; i < 12; i++) {
            script("solver", Reply.text("{\"thought_summary\": \"more\", \"action_type\": \"retrieve_more_frames\", "
                    + "\"action_payload\": {\"count\": 1}}"));
        }
        JsonNode r = ask(withModel, question("Where is the mug?"));
        assertThat(requestsOf("solver", since)).hasSize(10);
        assertThat(r.get("status").asText()).contains("step limit");
        assertThat(r.get("answer").asText()).isEqualTo("The mug is on the table.");
    }

    @Test
    void aSearchWatchesTheChosenClipsOneByOneCarryingTheirSummaries() throws Exception {
        int since = llm.requests().size();
        script("evaluate", Reply.text("Action: [Search]\nContent: [2, 3]\nSummary: the room is known, the spot is not."));
        script("watch", Reply.text("Action: [Search]\nContent: The mug is on a shelf in clip 2."),
                Reply.text("The mug ends up on the table."));
        script("solver", Reply.text(answer("On the table.", "[clip 3]")));
        script("checker", Reply.text("{\"confidence_score\": 4, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("Where is the mug now?"));
        List<JsonNode> watches = requestsOf("watch", since);
        assertThat(watches).hasSize(2);
        assertThat(lastUserMessage(watches.get(0))).contains("[clip 2]").contains("(none)");
        assertThat(lastUserMessage(watches.get(1))).contains("Clip 2: The mug is on a shelf in clip 2.");
        assertThat(lastUserMessage(requestsOf("solver", since).get(0))).contains("The mug ends up on the table.");
        assertThat(r.get("trace").findValuesAsText("stage")).containsSubsequence("evaluate", "watch", "watch", "solver");
    }

    @Test
    void aClipWhosePicturesCannotBeReadIsWatchedFromMemoryAndTheTraceSaysWhy() throws Exception {
        String gone = "kitchen-cam-gone";
        Path dir = Files.createDirectories(tmp.resolve("gone"));
        KitchenCam.index(TestInfra.get().elasticsearchUrl(), dir, gone, EPOCH);
        Files.delete(dir.resolve(gone + ".mp4"));
        int since = llm.requests().size();
        script("evaluate", Reply.text("Action: [Search]\nContent: [1]\nSummary: clip 1 may show it."));
        script("watch", Reply.text("The mug is on the table."));
        script("solver", Reply.text(answer("On the table.", "[clip 1]")));
        script("checker", Reply.text("{\"confidence_score\": 4, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, "{\"question\": \"Where is the mug now?\", \"stream_ids\": [\"" + gone + "\"]}");
        assertThat(requestsOf("watch", since)).hasSize(1);
        JsonNode watched = null;
        for (JsonNode step : r.get("trace")) {
            watched = "watch".equals(step.path("stage").asText()) ? step : watched;
        }
        assertThat(watched).isNotNull();
        assertThat(watched.path("frames")).isEmpty();
        assertThat(watched.path("frames_error").asText()).contains("not reachable");
        assertThat(r.path("answer").asText()).isEqualTo("On the table.");
    }

    @Test
    void aCountingQuestionWatchesEveryChosenClipEvenAfterAnAnswer() throws Exception {
        int since = llm.requests().size();
        script("evaluate", Reply.text("Action: [Search]\nContent: [1, 2, 3]\nSummary: counts unknown."));
        script("watch", Reply.text("Action: [Answer]\nContent: 1 ball here."), Reply.text("Action: [Answer]\nContent: 1 ball here."),
                Reply.text("3 balls in all."));
        script("solver", Reply.text(answer("3", "[clip 1] [clip 2] [clip 3]")));
        script("checker", Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}"));
        JsonNode r = ask(withModel, question("How many balls appear?"));
        assertThat(requestsOf("watch", since)).hasSize(3);
        assertThat(r.get("answer").asText()).isEqualTo("3");
        assertThat(r.get("evidence")).hasSize(3);
    }

    @Test
    void theTraceCanArriveAsServerSentEvents() throws Exception {
        script("solver", Reply.text(answer("On the table.", "[clip 2]")));
        script("checker", Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}"));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withModel.port() + "/v1/ask"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"Where is the mug?\", \"stream_ids\": [\"" + STREAM
                        + "\"], \"stream\": true}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(r.body()).contains("event: step\ndata: {\"step\":1,\"stage\":\"parse\"");
        assertThat(r.body()).contains("event: result\ndata: {\"question\":\"Where is the mug?\"");
    }

    @Test
    void badAskBodiesAre400sNamingTheField() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withModel.port() + "/v1/ask"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"?\", \"stream_ids\": [], \"stream\": true}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).get("error").get("field").asText()).isEqualTo("stream_ids");
    }
}
