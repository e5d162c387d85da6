package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import io.videoworld.testkit.KitchenCam;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Screen searches narrowed by application and window title: a screen stream where the mail client
 * and a code editor both show the word "invoice"; the filters pick one, and asking a camera for an
 * application is a 400 naming the field.
 */
class ScreenSearchTest {
    private static final String SCREEN = "screen-search";
    private static final String CAMERA = "screen-search-cam";
    private static final long EPOCH = 1_700_004_000_000L;
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        IndexedStreams.write(es, SCREEN, EPOCH, 10, tmp);
        KitchenCam.index(es, tmp, CAMERA, EPOCH);
        // Keyframes 1 and 5 show the mail client, 3 and 7 the editor; each in its own shot (0-2, 2-4, 4-6, 6-8).
        String[][] screens = {{"Inbox - Mail", "Invoice 2291 from ACME is overdue"}, {"export.py - Code Editor", "# write each invoice row as CSV"},
            {"Invoice 2291 - Mail", "Re: invoice paid yesterday"}, {"test_export.py - Code Editor", "assert invoice total == 42"}};
        List<EsWrite> writes = new ArrayList<>();
        for (int i = 0; i < screens.length; i++) {
            long frame = 1 + 2L * i;
            List<TextLine> lines = List.of(new TextLine(screens[i][0], 0, 4, 320, 16, 0.95), new TextLine(screens[i][1], 20, 90, 280, 16, 0.9));
            writes.add(EsDocuments.perception(new Perception(SCREEN, EPOCH, frame, frame * 1000, "first", lines,
                    screens[i][0] + "\n" + screens[i][1], null, null, "cpu", 320, 200, List.of(), EPOCH + frame * 1000)));
        }
        writes.add(EsDocuments.episode(new EpisodeDoc(SCREEN, EPOCH, 20, 1, "screen_activity", "user", EPOCH, EPOCH + 2000, 0, 2000, "mail",
                "Reading the overdue invoice in Mail", "[details]", List.of(), List.of(), 1, null, "rules", true, false)));
        writes.add(EsDocuments.episode(new EpisodeDoc(SCREEN, EPOCH, 21, 1, "screen_activity", "user", EPOCH + 2000, EPOCH + 4000, 2000, 4000,
                "codeeditor", "Writing the invoice export in the Code Editor", "[details]", List.of(), List.of(), 1, null, "rules", true, false)));
        IndexedStreams.put(es, writes);
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> search(String tool, String extra) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + SCREEN + "\", \"query\": \"invoice\", \"top_k\": 20" + extra + "}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The ids of what matched, shots and episodes. */
    private static Set<String> found(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Set<String> ids = new TreeSet<>();
        Json.MAPPER.readTree(r.body()).get("candidates").forEach(c -> ids.add(c.get("segment_id").asText()));
        return ids;
    }

    private static String shot(int frame) {
        return SCREEN + ":shot:" + String.format("%010d", frame);
    }

    private static String episode(int seq) {
        return EpisodeDoc.id(SCREEN, seq);
    }

    @Test
    void anApplicationOrAWindowTitleNarrowsTheSearch() throws Exception {
        Set<String> all = found(search("temporal_search", ""));
        assertThat(all).contains(shot(0), shot(2), shot(4), shot(6), episode(20), episode(21));
        assertThat(found(search("temporal_search", ", \"app\": \"mail\""))).containsAll(List.of(shot(0), shot(4)))
                .contains(episode(20)).doesNotContain(shot(2), shot(6), episode(21));
        Set<String> editor = found(search("temporal_search", ", \"app\": \"Code Editor\""));
        assertThat(editor).contains(shot(2), shot(6), episode(21)).doesNotContain(shot(0), shot(4), episode(20));
        HttpResponse<String> titled = search("temporal_search", ", \"window_title\": \"test_export.py\"");
        assertThat(found(titled)).containsExactly(shot(6));
        assertThat(Json.MAPPER.readTree(titled.body()).get("sources").toString()).isEqualTo("[\"ocr\"]");
        assertThat(found(search("search_segments_by_semantics", ", \"app\": \"MAIL\", \"window_title\": \"invoice 2291\"")))
                .containsExactly(shot(4));
    }

    @Test
    void theFiltersAreCheckedAndRefusedForACamera() throws Exception {
        HttpResponse<String> camera = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/temporal_search"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + CAMERA + "\", \"query\": \"mug\", \"app\": \"mail\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(camera.statusCode()).isEqualTo(400);
        assertThat(camera.body()).contains("\"field\":\"app\"").contains("not a screen stream");
        HttpResponse<String> noLetters = search("temporal_search", ", \"app\": \"---\"");
        assertThat(noLetters.statusCode()).isEqualTo(400);
        assertThat(noLetters.body()).contains("\"field\":\"app\"");
        HttpResponse<String> empty = search("temporal_search", ", \"window_title\": \"\"");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).contains("\"field\":\"window_title\"");
        HttpResponse<String> tooLong = search("temporal_search", ", \"window_title\": \"" + "w".repeat(201) + "\"");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("\"field\":\"window_title\"");
    }
}
