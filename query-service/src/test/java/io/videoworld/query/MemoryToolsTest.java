package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.videoworld.clients.asr.Transcriber;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Json;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.SoundFixture;
import io.videoworld.testkit.TestInfra;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory and audio tools over REST, on a desk's episodic events written as the job writes
 * them, and a kitchen radio recording with a subtitle file beside it.
 */
class MemoryToolsTest {
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;
    private static final String DESK = "notes-desk-" + System.nanoTime();
    private static final String RADIO = "kitchen-radio-" + System.nanoTime();
    private static final String QUIET = "quiet-radio-" + System.nanoTime();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static QueryServer withModels;
    private static ScriptedLlm llm;
    private static HttpServer asr;
    private static TextEmbedder embedder;

    @BeforeAll
    static void index() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        embedder = TextEmbedder.load(ModelDirectory.locate());
        Path radio = tmp.resolve("radio.mkv");
        SoundFixture.write(radio);
        Files.writeString(tmp.resolve("radio.srt"), "1\n00:00:04,000 --> 00:00:06,500\nCan you pass me the salt?\n\n"
                + "2\n00:00:06,500 --> 00:00:07,000\nThe weather turns to rain tonight.\n");
        Path quiet = tmp.resolve("quiet.mkv");
        SoundFixture.write(quiet);
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, EsIndices.ALL);
            SourceInfo screens = new SourceInfo(1, 60_000L, 60L, "png", false, 0, 0, null, null, 1280, 800, 1);
            write(c, EsDocuments.video(new VideoDoc(DESK, SourceKind.SCREEN, tmp.toString(), screens, EPOCH, EPOCH, EPOCH + 60_000, 60_000, 60,
                    3, 2, 59, 1280, 800, VideoDoc.ENDED)));
            String[][] events = {{"mail", "Using Inbox - Mail: Quarterly report due Friday; Lunch with Dana at noon", "0", "20000"},
                {"codeeditor", "Using billing.py - Code Editor: def total_invoice(items): return sum(items)", "20000", "40000"},
                {"mail", "Using Inbox - Mail: Flight to Lisbon confirmed for Tuesday", "40000", "60000"}};
            for (int i = 0; i < events.length; i++) {
                long start = Long.parseLong(events[i][2]);
                long end = Long.parseLong(events[i][3]);
                write(c, EsDocuments.episode(new EpisodeDoc(DESK, EPOCH, i + 1, 2, "screen_activity", "user", EPOCH + start, EPOCH + end, start, end,
                        events[i][0], events[i][1], "[details] " + events[i][1], List.of(), i == 2 ? List.of(DESK + ":e:000001") : List.of(), 3,
                        embedder.embed(events[i][1]), "rules", true, false)));
            }
            SourceInfo sound = new SourceInfo(5, 9000L, 45L, "mpeg4", true, 1, 16000, null, null, 160, 120, 5);
            write(c, EsDocuments.video(new VideoDoc(RADIO, SourceKind.VIDEO, radio.toString(), sound, EPOCH, EPOCH, EPOCH + 9000, 9000, 45, 1, 0,
                    44, 160, 120, VideoDoc.ENDED)));
            write(c, EsDocuments.video(new VideoDoc(QUIET, SourceKind.VIDEO, quiet.toString(), sound, EPOCH, EPOCH, EPOCH + 9000, 9000, 45, 1, 0,
                    44, 160, 120, VideoDoc.ENDED)));
            c.indices().refresh(r -> r.index("vw-*"));
        }
        llm = ScriptedLlm.start();
        asr = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        asr.createContext("/v1/audio/transcriptions", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            boolean wav = new String(body, StandardCharsets.ISO_8859_1).contains("RIFF");
            byte[] out = ("{\"text\":\"hello\",\"segments\":[{\"start\":4.1,\"end\":6.9,\"text\":\" " + (wav ? "Pass the salt please" : "no audio")
                    + "\",\"avg_logprob\":-0.1}]}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        asr.start();
        server = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder)).start("127.0.0.1", 0);
        withModels = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder)
                .withLlm(new LlmClient(new LlmConfig(llm.baseUrl(), "scripted", null, Duration.ofSeconds(5), 0, false)))
                .withTranscriber(new Transcriber("http://127.0.0.1:" + asr.getAddress().getPort() + "/v1", "whisper-1", null,
                        Duration.ofSeconds(10)))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        withModels.close();
        llm.close();
        asr.stop(0);
        embedder.close();
    }

    private static void write(ElasticsearchClient c, EsWrite w) throws Exception {
        c.index(i -> i.index(w.index()).id(w.id()).version(w.version()).versionType(VersionType.ExternalGte)
                .withJson(new ByteArrayInputStream(w.json())));
    }

    private static HttpResponse<String> post(QueryServer s, String tool, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(QueryServer s, String tool, String body) throws Exception {
        HttpResponse<String> r = post(s, tool, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void readMemoryRanksTheEpisodicEventsThatMatchAndHonoursTheTimeRange() throws Exception {
        JsonNode r = ok(server, "read_memory", "{\"video_id\":\"" + DESK + "\",\"level\":\"event\",\"query\":\"when is the quarterly report due\"}");
        JsonNode first = r.get("memories").get(0);
        assertThat(first.get("memory_id").asText()).isEqualTo(DESK + ":e:000001");
        assertThat(first.get("relevance_score").asDouble()).isBetween(0.0, 1.0);
        assertThat(first.get("importance").asDouble()).isBetween(0.0, 1.0);
        assertThat(first.get("time_range").get("end_time").asDouble()).isEqualTo(20.0);
        JsonNode later = ok(server, "read_memory", "{\"video_id\":\"" + DESK + "\",\"level\":\"event\",\"query\":\"mail\","
                + "\"time_range\":{\"start_time\":41,\"end_time\":60}}");
        assertThat(later.get("memories")).allSatisfy(m -> assertThat(m.get("time_range").get("end_time").asDouble()).isGreaterThan(41));
        assertThat(later.get("memories").get(0).get("metadata").get("linked_event_ids").get(0).asText()).isEqualTo(DESK + ":e:000001");
    }

    @Test
    void aWrittenMemoryIsReadBackAndWritingItAgainKeepsOneCopy() throws Exception {
        String body = "{\"video_id\":\"" + DESK + "\",\"level\":\"segment\",\"time_range\":{\"start_time\":20,\"end_time\":40},"
                + "\"content\":\"The invoice total function was being written\",\"metadata\":{\"importance\":0.9,\"tags\":[\"coding\"]}}";
        JsonNode w = ok(server, "write_memory", body);
        assertThat(w.get("success").asBoolean()).isTrue();
        assertThat(ok(server, "write_memory", body).get("memory_id").asText()).isEqualTo(w.get("memory_id").asText());
        JsonNode r = ok(server, "read_memory", "{\"video_id\":\"" + DESK + "\",\"level\":\"segment\",\"query\":\"invoice function\"}");
        assertThat(r.get("total_retrieved").asInt()).isEqualTo(1);
        assertThat(r.get("memories").get(0).get("importance").asDouble()).isEqualTo(0.9);
        assertThat(r.get("memories").get(0).get("metadata").get("tags").get(0).asText()).isEqualTo("coding");
        HttpResponse<String> bad = post(server, "write_memory", "{\"video_id\":\"" + DESK + "\",\"content\":\"x\",\"level\":\"universe\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"field\":\"level\"");
    }

    @Test
    void mergedEventsBecomeAnEpisodeInTimeOrderWithoutAModelAndThroughOneWithIt() throws Exception {
        JsonNode m = ok(server, "merge_events", "{\"video_id\":\"" + DESK + "\",\"event_ids\":[\"" + DESK + ":e:000003\",\"" + DESK + ":e:000001\"]}")
                .get("merged_event");
        String content = m.get("content").asText();
        assertThat(content.indexOf("Quarterly report")).isLessThan(content.indexOf("Flight to Lisbon")).isNotNegative();
        assertThat(m.get("temporal_structure").asText()).isEqualTo("sequential");
        assertThat(m.get("time_range").get("end_time").asDouble()).isEqualTo(60.0);
        assertThat(m.get("method").asText()).isEqualTo("structured");
        JsonNode episode = ok(server, "read_memory", "{\"video_id\":\"" + DESK + "\",\"level\":\"episode\",\"query\":\"Lisbon\"}");
        assertThat(episode.get("memories").get(0).get("memory_id").asText()).isEqualTo(m.get("memory_id").asText());

        HttpResponse<String> missing = post(server, "merge_events", "{\"video_id\":\"" + DESK + "\",\"event_ids\":[\"" + DESK + ":e:000001\",\"nope\"]}");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("event_ids[1]");

        llm.script(ScriptedLlm.Reply.text("{\"summary\": \"Dana's report work led to booking a trip.\", \"causal_chain\": "
                + "[{\"event\": \"report\", \"enables\": \"trip\"}]}"));
        JsonNode causal = ok(withModels, "merge_events", "{\"video_id\":\"" + DESK + "\",\"event_ids\":[\"" + DESK + ":e:000001\",\"" + DESK
                + ":e:000003\"],\"merge_strategy\":\"causal\"}").get("merged_event");
        assertThat(causal.get("method").asText()).isEqualTo("llm");
        assertThat(causal.get("content").asText()).isEqualTo("Dana's report work led to booking a trip.");
        assertThat(causal.get("causal_chain").get(0).get("enables").asText()).isEqualTo("trip");
    }

    @Test
    void semanticAndTextSearchFindEventsAndWhatWasSaid() throws Exception {
        JsonNode sem = ok(server, "search_segments_by_semantics", "{\"video_id\":\"" + DESK + "\",\"query\":\"booking travel\",\"mode\":\"visual\"}");
        JsonNode top = sem.get("candidates").get(0);
        assertThat(top.get("segment_id").asText()).isEqualTo(DESK + ":e:000003");
        assertThat(top.get("matched_modalities").get(0).asText()).isEqualTo("visual");
        assertThat(top.get("score").asDouble()).isBetween(0.0, 1.0);
        JsonNode text = ok(server, "temporal_search", "{\"video_id\":\"" + DESK + "\",\"query\":\"billing code\"}");
        assertThat(text.get("sources").toString()).contains("episodes");
        assertThat(text.get("candidates").get(0).get("segment_id").asText()).isEqualTo(DESK + ":e:000002");
        JsonNode said = ok(server, "search_segments_by_semantics", "{\"video_id\":\"" + RADIO + "\",\"query\":\"pass the salt\",\"mode\":\"audio\"}");
        assertThat(said.get("candidates").get(0).get("start_time").asDouble()).isEqualTo(4.0);
        assertThat(said.get("candidates").get(0).get("matched_modalities").get(0).asText()).isEqualTo("audio");
    }

    @Test
    void transcriptsComeFromSubtitlesOrTheTranscriptionEndpointAndSayWhichOrWhyNone() throws Exception {
        JsonNode subs = ok(server, "get_transcript", "{\"video_id\":\"" + RADIO + "\",\"time_range\":{\"start_time\":0,\"end_time\":6}}");
        assertThat(subs.get("source").asText()).isEqualTo("subtitles:radio.srt");
        assertThat(subs.get("transcript")).singleElement().satisfies(c -> assertThat(c.get("text").asText()).isEqualTo("Can you pass me the salt?"));
        JsonNode none = ok(server, "get_transcript", "{\"video_id\":\"" + QUIET + "\"}");
        assertThat(none.get("transcript")).isEmpty();
        assertThat(none.get("reason").asText()).contains("--asr-url");
        JsonNode heard = ok(withModels, "get_transcript", "{\"video_id\":\"" + QUIET + "\"}");
        assertThat(heard.get("source").asText()).isEqualTo("transcription:whisper-1");
        assertThat(heard.get("transcript").get(0).get("text").asText()).isEqualTo("Pass the salt please");
        JsonNode screens = ok(server, "get_transcript", "{\"video_id\":\"" + DESK + "\"}");
        assertThat(screens.get("reason").asText()).contains("no audio");
    }

    @Test
    void audioEventsAreMeasuredOnTheTrackAndScreensHaveNone() throws Exception {
        JsonNode r = ok(server, "detect_audio_events", "{\"video_id\":\"" + RADIO + "\"}");
        assertThat(r.get("audio_events").findValuesAsText("event_type")).containsSubsequence("silence", "steady_sound", "speech_like", "loud_transient");
        assertThat(r.get("source").asText()).contains("not a sound classifier");
        JsonNode onlyLoud = ok(server, "detect_audio_events", "{\"video_id\":\"" + RADIO + "\",\"event_types\":[\"loud_transient\"]}");
        assertThat(onlyLoud.get("audio_events")).singleElement().satisfies(e -> assertThat(e.get("start_time").asDouble()).isBetween(7.9, 8.2));
        JsonNode screens = ok(server, "detect_audio_events", "{\"video_id\":\"" + DESK + "\"}");
        assertThat(screens.get("audio_events")).isEmpty();
        assertThat(screens.get("reason").asText()).isEqualTo("screenshot streams have no audio");
    }
}
