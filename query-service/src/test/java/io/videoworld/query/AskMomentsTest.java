package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.connectors.framestore.LocalFrameStore;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Json;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.TestInfra;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers that point at seconds: a minute of a desktop in one 60-second shot (as a screen that
 * scrolls but never cuts gives) and three events; "Invoice 4471 was paid on Tuesday" is on screen
 * at 26 and 28 s only, a weaker "invoice" at 50 s. {@code /v1/ask} (evidence mode and with a
 * scripted model) and {@code read_memory} cite at most ten seconds around those keyframes, name
 * the event, and never give more clips than {@code budget.max_clips}.
 */
class AskMomentsTest {
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;
    private static final String DESK = "moments-desk-" + System.nanoTime();
    private static final String QUESTION = "When was invoice 4471 paid?";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static QueryServer withModel;
    private static ScriptedLlm llm;

    @BeforeAll
    static void index() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        List<EsWrite> writes = new ArrayList<>();
        LocalFrameStore store = new LocalFrameStore(tmp);
        SourceInfo screens = new SourceInfo(1, 60_000L, 60L, "png", false, 0, 0, null, null, 1280, 800, 1);
        writes.add(EsDocuments.video(new VideoDoc(DESK, SourceKind.SCREEN, tmp.toString(), screens, EPOCH, EPOCH, EPOCH + 59_000, 59_000, 60, 3, 2,
                59, 1280, 800, VideoDoc.ENDED)));
        writes.add(EsDocuments.segment(new Segment(DESK, Segment.SHOT, EPOCH, SourceKind.SCREEN, 0, 60, 0, 60_000, EPOCH, EPOCH + 60_000, "start",
                "none", 1, 0, 1, 0, List.of(new KeyframeRef(0, 0, EPOCH, 0, 1280, 800, 9000, "first")), true)));
        String[][] events = {{"mail", "Inbox - Mail", "Quarterly report due Friday", "0", "20000"},
            {"texteditor", "ledger.txt - Text Editor", "Paid bills and open items", "20000", "40000"},
            {"chromium", "Templates - Chromium", "Document templates for small offices", "40000", "60000"}};
        for (int i = 0; i < events.length; i++) {
            long start = Long.parseLong(events[i][3]);
            long end = Long.parseLong(events[i][4]);
            writes.add(EsDocuments.episode(new EpisodeDoc(DESK, EPOCH, i + 1, 1, "screen_activity", "user", EPOCH + start, EPOCH + end, start, end,
                    events[i][0], "Using " + events[i][1] + ": " + events[i][2], "[details] " + events[i][2], List.of(), List.of(), 2, null, "rules",
                    true, false)));
            for (long t = start; t < end; t += 2000) {
                String body = t == 26_000 || t == 28_000 ? "Invoice 4471 was paid on Tuesday" : t == 50_000 ? "Download an invoice template"
                        : events[i][2] + " line " + t / 1000;
                List<TextLine> lines = List.of(new TextLine(events[i][1], 0, 4, 600, 16, 0.95), new TextLine(body, 20, 90, 600, 16, 0.9));
                writes.add(EsDocuments.perception(new Perception(DESK, EPOCH, t / 1000, t, "periodic", lines, events[i][1] + "\n" + body, null,
                        null, "cpu", 1280, 800, List.of(), EPOCH + t)));
                // The keyframe itself, stored, so a model can be shown it.
                String key = Keyframe.storeKey(DESK, EPOCH, t / 1000);
                store.put(key, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) (t / 1000)});
                writes.add(EsDocuments.frame(new FrameDoc(DESK, EPOCH, t / 1000, t, EPOCH + t, 0, 1280, 800, 3, SourceKind.SCREEN,
                        DESK + ":shot:0000000000", null, "periodic", key)));
            }
        }
        IndexedStreams.put(es, writes);
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
        llm = ScriptedLlm.start();
        withModel = new QueryServer(QueryConfig.of(es, tmp.toString())
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted", null, Duration.ofSeconds(5), 0, false)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        withModel.close();
        llm.close();
    }

    private static HttpResponse<String> post(QueryServer s, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static String ask(String budget) {
        return "{\"question\": \"" + QUESTION + "\", \"stream_ids\": [\"" + DESK + "\"]" + (budget == null ? "" : ", \"budget\": " + budget) + "}";
    }

    /** A clip of at most ten seconds that covers a keyframe showing the invoice line, in the editor's event. */
    private static void pointsAtTheInvoice(JsonNode clip) {
        double start = clip.get("start_time").asDouble();
        double end = clip.get("end_time").asDouble();
        assertThat(end - start).isLessThanOrEqualTo(10.0).isPositive();
        assertThat(clip.get("matched_times").get(0).asDouble()).isIn(26.0, 28.0).isBetween(start, end);
        assertThat(clip.get("episode_ids").toString()).isEqualTo("[\"" + EpisodeDoc.id(DESK, 2) + "\"]");
        assertThat(clip.get("segment_id").asText()).isEqualTo(EpisodeDoc.id(DESK, 2));
        assertThat(clip.get("frame_ids").toString()).contains(DESK + ":f:" + String.format("%010d", clip.get("matched_times").get(0).asLong()));
        assertThat(clip.get("matched_text").asText()).isEqualTo("Invoice 4471 was paid on Tuesday");
    }

    @Test
    void oneClipAskedOneClipGivenAroundTheSecondsTheTextWasOnScreen() throws Exception {
        JsonNode r = ok(post(server, "/v1/ask", ask("{\"max_clips\": 1}")));
        assertThat(r.get("mode").asText()).isEqualTo("evidence");
        assertThat(r.get("evidence")).hasSize(1);
        pointsAtTheInvoice(r.get("evidence").get(0));
    }

    @Test
    void everyClipIsShortNamesItsEventAndTheBestComesFirst() throws Exception {
        JsonNode r = ok(post(server, "/v1/ask", ask("{\"max_clips\": 3}")));
        JsonNode evidence = r.get("evidence");
        assertThat(evidence.size()).isBetween(2, 3);
        pointsAtTheInvoice(evidence.get(0));
        for (JsonNode e : evidence) {
            assertThat(e.get("end_time").asDouble() - e.get("start_time").asDouble()).isLessThanOrEqualTo(10.0);
            assertThat(e.get("episode_ids")).hasSize(1);
            assertThat(e.get("frame_ids")).isNotEmpty();
        }
        // The weaker "invoice" at 50 s is cited from its own event, after the editor's.
        assertThat(evidence.findValuesAsText("segment_id")).contains(EpisodeDoc.id(DESK, 3));
        assertThat(ok(post(server, "/v1/ask", ask(null))).get("evidence").size()).isLessThanOrEqualTo(5);
    }

    @Test
    void withAModelTheCitedClipsStillHonourMaxClips() throws Exception {
        llm.respondWith(req -> {
            String system = req.path("messages").path(0).path("content").asText();
            if (system.contains("search plan")) {
                return Reply.text("{\"query_triples\": [[\"invoice 4471\", \"paid\", \"?\"]], \"question_type\": \"time\"}");
            }
            if (system.contains("memory below answers")) {
                return Reply.text("Action: [Answer]\nContent: On Tuesday.\nSummary: clip 1 shows it.");
            }
            if (system.contains("strict examiner")) {
                return Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}");
            }
            return Reply.text("```json\n{\"thought_summary\": \"seen\", \"action_type\": \"answer_question\", \"action_payload\": "
                    + "{\"final_answer\": \"On Tuesday.\", \"explanation\": \"[clip 1] [clip 2] [clip 3] show it.\"}}\n```");
        });
        JsonNode r = ok(post(withModel, "/v1/ask", ask("{\"max_clips\": 1}")));
        assertThat(r.get("mode").asText()).isEqualTo("llm");
        assertThat(r.get("answer").asText()).isEqualTo("On Tuesday.");
        assertThat(r.get("evidence")).hasSize(1);
        pointsAtTheInvoice(r.get("evidence").get(0));
    }

    @Test
    void readMemoryRanksTheEventAndSaysWhereInItTheTextWas() throws Exception {
        JsonNode r = ok(post(server, "/v1/tools/read_memory", "{\"video_id\": \"" + DESK + "\", \"query\": \"invoice 4471 paid\", \"level\": \"event\"}"));
        JsonNode top = r.get("memories").get(0);
        assertThat(top.get("memory_id").asText()).isEqualTo(EpisodeDoc.id(DESK, 2));
        JsonNode clip = top.get("clips").get(0);
        double start = clip.get("time_range").get("start_time").asDouble();
        double end = clip.get("time_range").get("end_time").asDouble();
        assertThat(end - start).isLessThanOrEqualTo(10.0);
        assertThat(start).isGreaterThanOrEqualTo(20.0);
        assertThat(end).isLessThanOrEqualTo(40.0);
        assertThat(clip.get("keyframe_times").get(0).asDouble()).isIn(26.0, 28.0).isBetween(start, end);
        assertThat(clip.get("text").asText()).isEqualTo("Invoice 4471 was paid on Tuesday");
        assertThat(clip.get("frame_ids")).isNotEmpty();
    }

    @Test
    void badBudgetsAre400sNamingTheField() throws Exception {
        for (String budget : List.of("{\"max_clips\": 0}", "{\"max_clips\": 6}", "{\"max_clips\": 1.5}", "{\"max_clips\": \"one\"}")) {
            HttpResponse<String> r = post(server, "/v1/ask", ask(budget));
            assertThat(r.statusCode()).as(budget).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(r.body()).at("/error/field").asText()).isEqualTo("budget.max_clips");
        }
        HttpResponse<String> notAnObject = post(server, "/v1/ask", ask("3"));
        assertThat(notAnObject.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(notAnObject.body()).at("/error/field").asText()).isEqualTo("budget");
    }

    @Test
    void aSearchThatCannotRunIsAFailureNotAnEmptyAnswer() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        try (QueryServer noEs = new QueryServer(QueryConfig.of("http://127.0.0.1:" + closed, tmp.toString())).start("127.0.0.1", 0)) {
            HttpResponse<String> a = post(noEs, "/v1/ask", ask("{\"max_clips\": 1}"));
            assertThat(a.statusCode()).as(a.body()).isEqualTo(503);
            assertThat(a.body()).doesNotContain("evidence");
            HttpResponse<String> m = post(noEs, "/v1/tools/read_memory", "{\"video_id\": \"" + DESK + "\", \"query\": \"invoice\"}");
            assertThat(m.statusCode()).as(m.body()).isEqualTo(503);
        }
    }
}
