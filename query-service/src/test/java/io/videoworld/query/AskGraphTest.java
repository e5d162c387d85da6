package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.connectors.framestore.LocalFrameStore;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Json;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /v1/ask searches the memory graph first (seed 003 step 1): a camera stream whose graph holds a
 * person track (high level), camera events with a cup at 0-20 s and a dog at 30-50 s (low level)
 * and a sentence said at 41-44 s (utterance). Evidence mode and the model's run both cite the clips
 * the matching edges point at; the model's parse sets the allocation, and the evaluation reads the
 * graph's tiers with their clip numbers.
 */
class AskGraphTest {
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;
    private static final String CAM = "graph-cam-" + System.nanoTime();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String DOG_EDGE = CAM + ":e:000002:g:appears_in:dog";
    private static final String SAID_EDGE = CAM + ":a:000000041000:g:says";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static QueryServer withModel;
    private static ScriptedLlm llm;
    private static final AtomicReference<String> PARSE = new AtomicReference<>("{}");

    private static GraphDoc edge(String id, String kind, String level, String source, String target, String text, long a, long b, List<String> frames,
            String clip) {
        return new GraphDoc(id, CAM, EPOCH, GraphDoc.EDGE, kind, level, CAM + ":g:" + source, source, CAM + ":g:" + target, target, text, a, b, frames,
                clip, 1, false);
    }

    @BeforeAll
    static void index() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        List<EsWrite> writes = new ArrayList<>();
        LocalFrameStore store = new LocalFrameStore(tmp);
        SourceInfo camera = new SourceInfo(10, 60_000L, 600L, "h264", false, 0, 0, null, null, 640, 480, 10);
        writes.add(EsDocuments.video(new VideoDoc(CAM, SourceKind.VIDEO, tmp.toString(), camera, EPOCH, EPOCH, EPOCH + 59_900, 59_900, 600, 6,
                2, 599, 640, 480, VideoDoc.ENDED)));
        for (int s = 0; s < 6; s++) {
            long a = s * 10_000L;
            List<KeyframeRef> keys = List.of(new KeyframeRef(s * 100L, a, EPOCH + a, s, 640, 480, 9000, "first"),
                    new KeyframeRef(s * 100L + 50, a + 5_000, EPOCH + a + 5_000, s, 640, 480, 9000, "middle"));
            for (KeyframeRef k : keys) {
                String key = Keyframe.storeKey(CAM, EPOCH, k.frameIndex());
                store.put(key, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) k.frameIndex()});
                writes.add(EsDocuments.frame(new FrameDoc(CAM, EPOCH, k.frameIndex(), k.ptsMs(), EPOCH + k.ptsMs(), s, 640, 480, 3, SourceKind.VIDEO,
                        Segment.id(CAM, Segment.SHOT, s * 100L), null, k.role(), key)));
            }
            writes.add(EsDocuments.segment(new Segment(CAM, Segment.SHOT, EPOCH, SourceKind.VIDEO, s * 100L, s * 100L + 100, a, a + 10_000, EPOCH + a,
                    EPOCH + a + 10_000, s == 0 ? "start" : "cut", "hist", 1, 0, 1, s * 100L, keys, true)));
        }
        writes.add(EsDocuments.graph(edge(CAM + ":t:000001:g:appears_in", "appears_in", GraphDoc.HIGH, "person (track 1)", "stream " + CAM,
                "a person (track 1) appears in stream " + CAM + " at 2.0-8.0 s, 12 samples", 2_000, 8_000,
                List.of(CAM + ":f:0000000020", CAM + ":f:0000000080"), CAM + ":t:000001")));
        writes.add(EsDocuments.graph(edge(CAM + ":e:000001:g:appears_in:cup", "appears_in", GraphDoc.LOW, "cup", "event " + CAM + ":e:000001",
                "cup appears in event (Camera scene with person, cup)", 0, 20_000, List.of(), CAM + ":e:000001")));
        writes.add(EsDocuments.graph(edge(DOG_EDGE, "appears_in", GraphDoc.LOW, "dog", "event " + CAM + ":e:000002",
                "dog appears in event (Camera scene with dog)", 30_000, 50_000, List.of(), CAM + ":e:000002")));
        writes.add(EsDocuments.graph(edge(SAID_EDGE, "says", GraphDoc.UTTERANCE, "speaker", "utterance",
                "speaker says: the keys are on the kitchen table", 41_000, 44_000, List.of(), CAM + ":a:000000041000")));
        IndexedStreams.put(es, writes);
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
        llm = ScriptedLlm.start();
        llm.respondWith(req -> {
            String system = req.path("messages").path(0).path("content").asText();
            if (system.contains("search plan")) {
                return Reply.text(PARSE.get());
            }
            if (system.contains("memory below answers")) {
                return Reply.text("Action: [Search]\nContent: [1]\nSummary: the graph places the dog in clip 1.");
            }
            if (system.contains("last clip chosen")) {
                return Reply.text("The dog is in the camera's view from 30 s.");
            }
            if (system.contains("strict examiner")) {
                return Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}");
            }
            if (system.contains("Describe each image")) {
                return Reply.text("{\"captions\": []}");
            }
            return Reply.text("{\"thought_summary\": \"seen\", \"action_type\": \"answer_question\", \"action_payload\": "
                    + "{\"final_answer\": \"From 30 s.\", \"explanation\": \"The graph edge of [clip 1] says a dog appears in the event.\"}}");
        });
        withModel = new QueryServer(QueryConfig.of(es, tmp.toString())
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted", null, Duration.ofSeconds(5), 0, false)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        withModel.close();
        llm.close();
    }

    private static JsonNode ask(QueryServer s, String question) throws Exception {
        String body = Json.MAPPER.createObjectNode().put("question", question).set("stream_ids", Json.MAPPER.createArrayNode().add(CAM)).toString();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/v1/ask"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static JsonNode stage(JsonNode answer, String stage) {
        for (JsonNode s : answer.get("trace")) {
            if (stage.equals(s.get("stage").asText())) {
                return s;
            }
        }
        return null;
    }

    @Test
    void evidenceModeCitesTheClipTheMatchingEdgePointsAt() throws Exception {
        JsonNode r = ask(server, "When did the dog appear?");
        JsonNode first = r.get("evidence").get(0);
        assertThat(first.get("segment_id").asText()).isEqualTo("edge:" + DOG_EDGE);
        assertThat(first.get("start_time").asDouble()).isEqualTo(30.0);
        assertThat(first.get("end_time").asDouble()).as("at most ten seconds of the edge").isEqualTo(40.0);
        assertThat(first.get("episode_ids").get(0).asText()).isEqualTo(CAM + ":e:000002");
        // The edge names no frames: the keyframes of the shots in the clip are its evidence.
        assertThat(first.get("frame_ids").toString()).contains(CAM + ":f:0000000300", CAM + ":f:0000000350");
        JsonNode g = stage(r, "graph_search");
        assertThat(g.get("low_level").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(g.get("allocation").get("k_low_level").asInt()).isEqualTo(10);
        // The person edge carries its own frames.
        JsonNode person = ask(server, "Was a person seen?").get("evidence").get(0);
        assertThat(person.get("segment_id").asText()).isEqualTo("edge:" + CAM + ":t:000001:g:appears_in");
        assertThat(person.get("frame_ids").toString()).contains(CAM + ":f:0000000020");
    }

    @Test
    void aQuestionAboutWhatWasSaidAllocatesMoreUtterancesAndCitesTheSentence() throws Exception {
        JsonNode r = ask(server, "What did they say about the keys?");
        assertThat(stage(r, "graph_search").get("allocation").get("k_conversations").asInt()).isEqualTo(10);
        JsonNode first = r.get("evidence").get(0);
        assertThat(first.get("segment_id").asText()).isEqualTo("edge:" + SAID_EDGE);
        assertThat(first.get("start_time").asDouble()).isEqualTo(41.0);
        assertThat(first.get("end_time").asDouble()).isEqualTo(44.0);
    }

    @Test
    void theModelsTriplesAndAllocationDriveTheGraphSearchAndItsCitedClipIsTheEdgesClip() throws Exception {
        PARSE.set("{\"query_triples\": [[\"dog\", \"appears_in\", \"?\"]], \"question_type\": \"temporal\","
                + " \"allocation\": {\"k_high_level\": 0, \"k_low_level\": 2, \"k_conversations\": 0}}");
        int since = llm.requests().size();
        JsonNode r = ask(withModel, "When is the dog there?");
        assertThat(r.get("mode").asText()).isEqualTo("llm");
        JsonNode g = stage(r, "graph_search");
        assertThat(g.get("allocation").get("k_low_level").asInt()).isEqualTo(2);
        assertThat(g.get("high_level").asInt()).isZero();
        assertThat(g.get("conversations").asInt()).isZero();
        assertThat(g.get("low_level").asInt()).isBetween(1, 2);
        assertThat(stage(r, "watch").get("clip").asInt()).isEqualTo(1);
        assertThat(r.get("evidence")).hasSize(1);
        assertThat(r.get("evidence").get(0).get("segment_id").asText()).isEqualTo("edge:" + DOG_EDGE);
        String evaluated = null;
        for (JsonNode req : llm.requests().subList(since, llm.requests().size())) {
            if (req.path("messages").path(0).path("content").asText().contains("memory below answers")) {
                evaluated = req.path("messages").path(1).path("content").asText();
            }
        }
        assertThat(evaluated).contains("Low-Level Information", "[clip 1] dog appears in event " + CAM + ":e:000002")
                .contains("High-Level Information (entities and their relations):\n(nothing relevant)")
                .contains("Conversations:\n(nothing relevant)");
    }
}
