package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.core.Json;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.elasticsearch.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale bench's history is what the query service reads: twenty minutes of a generated
 * screen and ten of a camera, written as {@code bench scale} writes them, are found again by the
 * tools, and every request the bench times answers 2xx, so the bench cannot time empty indices.
 */
class ScaleHistoryTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String PREFIX = "scaletest" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    private static final String SCREEN = PREFIX + "-screen-0";
    private static final String CAMERA = PREFIX + "-camera-0";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static ScaleHistory history;
    private static String base;

    @BeforeAll
    static void write() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        try (RestClientTransport t = EsClients.transport(es)) {
            EsIndices.ensure(EsClients.sync(t), EsIndices.ALL);
            history = new ScaleHistory(t.restClient(), 35, FrameStore.open(tmp.toString()));
            history.screen(SCREEN, 1200);
            history.camera(CAMERA, 600);
            history.flush();
            t.restClient().performRequest(new Request("POST", "/vw-*/_refresh"));
        }
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theToolsFindTheGeneratedShotsTextAndObjects() throws Exception {
        JsonNode info = post("get_video_info", "{\"video_id\": \"" + SCREEN + "\"}");
        assertThat(info.toString()).contains(SCREEN);

        JsonNode shots = post("get_temporal_structure", "{\"video_id\": \"" + SCREEN + "\", \"granularity\": \"fine\"}");
        long written = history.written().get("vw-shots/screen").docs / 2; // a shot and its scene per activity
        assertThat(shots.toString()).contains("start_time");
        assertThat(count(shots)).as("shots returned: %s", shots.findValuesAsText("segment_id") + " " + shots.findValues("end_time"))
                .isEqualTo(written);

        assertThat(history.phrases()).hasSizeGreaterThan(3);
        String phrase = history.phrases().get(0);
        JsonNode found = post("temporal_search", "{\"video_id\": \"" + SCREEN + "\", \"query\": " + Json.MAPPER.writeValueAsString(phrase) + "}");
        assertThat(found.toString()).as("temporal_search for '%s'", phrase).contains("start_time");
        assertThat(found.findValues("start_time")).isNotEmpty();

        double when = 60;
        JsonNode objects = post("detect_objects", "{\"video_id\": \"" + CAMERA + "\", \"timestamp\": " + when + "}");
        assertThat(objects.toString()).contains("person");

        assertThat(history.sightings()).isNotEmpty();
        assertThat(history.written().get("vw-tracks/camera").docs).isGreaterThan(5);
        assertThat(history.written().get("vw-detections/camera").docs).isEqualTo(600L * ScaleHistory.DETECT_FPS);
    }

    @Test
    void everyTimedRequestAnswers2xx() throws Exception {
        Map<String, Function<Random, String>> rows = ScaleBench.rows(history, List.of(SCREEN), List.of(CAMERA), 600, List.of());
        assertThat(rows.keySet()).contains("temporal_search", "POST /v1/ask (evidence mode)", "detect_objects (camera)");
        Random rnd = new Random(1);
        List<String> failed = new ArrayList<>();
        for (var row : rows.entrySet()) {
            if (row.getValue() == null) {
                continue;
            }
            for (int i = 0; i < 3; i++) {
                String body = row.getValue().apply(rnd);
                String path = row.getKey().startsWith("POST /v1/ask") ? "/v1/ask" : "/v1/tools/" + row.getKey().split(" ")[0];
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() / 100 != 2) {
                    failed.add(row.getKey() + " " + body + " -> " + r.statusCode() + " " + r.body());
                }
            }
        }
        assertThat(failed).isEmpty();
        assertThat(ScaleBench.cacheGets(base)[0] + ScaleBench.cacheGets(base)[1]).as("read-cache lookups counted on /metrics").isPositive();
    }

    private static long count(JsonNode shots) {
        long n = 0;
        for (JsonNode s : shots.path("segments")) {
            n += "shot".equals(s.path("type").asText()) ? 1 : 0;
        }
        return n;
    }

    private static JsonNode post(String tool, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s %s -> %s", tool, body, r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }
}
