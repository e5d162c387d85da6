package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.query.api.Endpoints;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.limits.TrafficLimits;
import io.videoworld.testkit.TestInfra;
import io.videoworld.testkit.ToolFuzz;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every tool is described, documented, reachable by its aliases, and no body makes the service fail. */
class ToolSurfaceTest {
    private static final String STREAM = ToolFuzz.STREAM;
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ToolCatalog CATALOG = ToolCatalog.load();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        ToolFuzz.indexStream(es, tmp);
        // Tens of thousands of requests as one caller: this tests answers, not the rate limit (LimitsTest does).
        server = new QueryServer(QueryConfig.of(es, tmp.toString()).withTraffic(TrafficLimits.defaults().withRate(0, 1))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String tool, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theOpenApiDocumentListsEveryToolWithItsSchema() throws Exception {
        JsonNode doc = Json.MAPPER.readTree(get("/openapi.json").body());
        assertThat(doc.get("openapi").asText()).startsWith("3.1");
        assertThat(CATALOG.all()).hasSize(22);
        for (ToolCatalog.ToolDef t : CATALOG.all()) {
            JsonNode op = doc.get("paths").get("/v1/tools/" + t.name()).get("post");
            assertThat(op.get("summary").asText()).isEqualTo(t.description());
            assertThat(op.get("requestBody").get("content").get("application/json").get("schema")).isEqualTo(t.parameters());
        }
        assertThat(get("/docs").body()).contains("/openapi.json");
        JsonNode listed = Json.MAPPER.readTree(get("/v1/tools").body()).get("tools");
        assertThat(listed).hasSize(22);
    }

    @Test
    void theOpenApiDocumentListsEveryOtherEndpointAndAnUnlistedRouteIsRefused() throws Exception {
        JsonNode paths = Json.MAPPER.readTree(get("/openapi.json").body()).get("paths");
        for (String[] route : new String[][] {{"/v1/ask", "post"}, {"/v1/streams", "get"}, {"/v1/streams/{id}", "delete"},
                {"/v1/streams/{id}/events", "get"}, {"/v1/streams/{id}/timeline", "get"}, {"/v1/alerts", "post"},
                {"/v1/alerts/{id}/deliveries", "get"}, {"/mcp", "post"}, {"/timeline", "get"}, {"/health", "get"}}) {
            assertThat(paths.path(route[0]).path(route[1]).path("summary").asText()).as(route[1] + " " + route[0]).isNotBlank();
        }
        assertThat(paths.get("/v1/streams/{id}/events").get("get").get("responses").get("200").get("content").has("text/event-stream")).isTrue();
        assertThat(paths.get("/v1/alerts/{id}").get("delete").get("parameters").get(0).get("name").asText()).isEqualTo("id");
        assertThat(paths.get("/health").get("get").get("security")).hasSize(1);
        assertThatThrownBy(() -> Endpoints.require("GET", "/v1/secret")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/v1/secret");
    }

    @Test
    void seed001NamesAreAliasesOfTheSeed000Tools() throws Exception {
        assertThat(CATALOG.aliases()).containsEntry("list_scenes", "get_temporal_structure")
                .containsEntry("get_video_metadata", "get_video_info").containsEntry("search_segments_by_text", "temporal_search");
        JsonNode info = Json.MAPPER.readTree(post("get_video_metadata", "{\"video_id\":\"" + STREAM + "\"}").body());
        assertThat(info.get("duration").asDouble()).isEqualTo(10.0);
        JsonNode scenes = Json.MAPPER.readTree(post("list_scenes", "{\"video_id\":\"" + STREAM + "\"}").body());
        assertThat(scenes.get("granularity").asText()).isEqualTo("coarse");
    }

    @Test
    void aToolWithoutItsDataAnswers501NamingTheMissingCapabilityButStillChecksItsArguments() throws Exception {
        // describe_visual needs no model: without one it composes its description from what was perceived.
        HttpResponse<String> r = post("describe_visual", "{\"video_id\":\"" + STREAM + "\",\"start_time\":1,\"end_time\":2}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(r.body()).get("source").asText()).isEqualTo("composed");
        HttpResponse<String> bad = post("describe_visual", "{\"video_id\":\"" + STREAM + "\",\"start_time\":\"soon\",\"end_time\":2}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(bad.body()).get("error").get("field").asText()).isEqualTo("start_time");
        HttpResponse<String> noDetector = post("detect_objects", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":2.0}");
        assertThat(noDetector.statusCode()).isEqualTo(501);
        assertThat(noDetector.body()).contains("not configured");
    }

    @Test
    void aThousandRandomBodiesPerToolNeverMakeTheServiceFail() throws Exception {
        Random rnd = new Random(20261122);
        List<String> failures = new ArrayList<>();
        for (ToolCatalog.ToolDef t : CATALOG.all()) {
            for (int i = 0; i < 1000; i++) {
                String body = i % 10 == 0 ? ToolFuzz.randomJson(rnd, 0).toString() : ToolFuzz.mutate(rnd, t.parameters()).toString();
                if (i % 97 == 0) {
                    body = body.substring(0, rnd.nextInt(Math.max(1, body.length())));
                }
                HttpResponse<String> r = post(t.name(), body);
                // 501 is the honest answer for a capability that is not built yet (a whole tool, or one of
                // its options such as motion similarity); any other 5xx is a failure.
                boolean ok = r.statusCode() < 500 || (r.statusCode() == 501 && r.body().contains("\"not_implemented\"")
                        && (r.body().contains("not built yet") || r.body().contains("not configured")));
                if (!ok && failures.size() < 5) {
                    failures.add(t.name() + " " + r.statusCode() + " " + body + " -> " + r.body());
                }
            }
        }
        assertThat(failures).isEmpty();
    }
}
