package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.Json;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.tools.ToolCatalog;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every tool is described, documented, reachable by its aliases, and no body makes the service fail. */
class ToolSurfaceTest {
    private static final String STREAM = "fuzz-cam";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ToolCatalog CATALOG = ToolCatalog.load();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        try (RestClientTransport t = EsClients.transport(es)) {
            var client = EsClients.sync(t);
            EsIndices.ensure(client, EsIndices.ALL);
            VideoDoc doc = new VideoDoc(STREAM, SourceKind.VIDEO, tmp.resolve("gone.mp4").toString(),
                    new SourceInfo(25, 10_000L, 250L, "mpeg4", false, 0, 0, 1000L, 100L, 640, 360, 25),
                    1_700_000_000_000L, 1_700_000_000_000L, 1_700_000_009_960L, 9_960, 250, 10, 9, 249, 640, 360, VideoDoc.ENDED);
            var w = EsDocuments.video(doc);
            client.index(i -> i.index(w.index()).id(w.id()).version(w.version())
                    .versionType(co.elastic.clients.elasticsearch._types.VersionType.ExternalGte)
                    .withJson(new java.io.ByteArrayInputStream(w.json())));
            client.indices().refresh(r -> r.index(w.index()));
        }
        server = new QueryServer(es, tmp.toString()).start("127.0.0.1", 0);
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
        HttpResponse<String> r = post("describe_visual", "{\"video_id\":\"" + STREAM + "\",\"start_time\":1,\"end_time\":2}");
        assertThat(r.statusCode()).isEqualTo(501);
        assertThat(r.body()).contains("vision-language model").contains("not configured");
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
                String body = i % 10 == 0 ? randomJson(rnd, 0).toString() : mutate(rnd, t.parameters()).toString();
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

    /** A body shaped by the schema, with each field kept, dropped, or replaced by a random value. */
    private static JsonNode mutate(Random rnd, JsonNode schema) {
        String type = schema.path("type").asText("");
        if (rnd.nextInt(8) == 0) {
            return randomJson(rnd, 1);
        }
        switch (type) {
            case "object" -> {
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (p.getKey().equals("video_id") && rnd.nextInt(3) > 0) {
                        o.put("video_id", rnd.nextBoolean() ? STREAM : "no-such-" + rnd.nextInt(9));
                    } else if (rnd.nextInt(3) > 0) {
                        o.set(p.getKey(), mutate(rnd, p.getValue()));
                    }
                }
                return o;
            }
            case "array" -> {
                ArrayNode a = JsonNodeFactory.instance.arrayNode();
                int n = rnd.nextInt(6);
                for (int i = 0; i < n; i++) {
                    a.add(mutate(rnd, schema.path("items")));
                }
                return a;
            }
            case "string" -> {
                JsonNode e = schema.get("enum");
                return e != null && rnd.nextBoolean() ? e.get(rnd.nextInt(e.size()))
                        : JsonNodeFactory.instance.textNode(randomText(rnd));
            }
            case "integer" -> {
                return JsonNodeFactory.instance.numberNode(rnd.nextInt(400) - 50);
            }
            case "number" -> {
                return JsonNodeFactory.instance.numberNode(rnd.nextDouble() * 30 - 5);
            }
            case "boolean" -> {
                return JsonNodeFactory.instance.booleanNode(rnd.nextBoolean());
            }
            default -> {
                return randomJson(rnd, 1);
            }
        }
    }

    private static JsonNode randomJson(Random rnd, int depth) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (rnd.nextInt(depth > 2 ? 5 : 7)) {
            case 0:
                return f.nullNode();
            case 1:
                return f.numberNode(rnd.nextGaussian() * 1e6);
            case 2:
                return f.textNode(randomText(rnd));
            case 3:
                return f.booleanNode(rnd.nextBoolean());
            case 4:
                return f.numberNode(rnd.nextLong());
            case 5: {
                ArrayNode a = f.arrayNode();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    a.add(randomJson(rnd, depth + 1));
                }
                return a;
            }
            default: {
                ObjectNode o = f.objectNode();
                String[] keys = {"video_id", "time_range", "start_time", "end_time", "regions", "source", "format", "x"};
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    o.set(keys[rnd.nextInt(keys.length)], randomJson(rnd, depth + 1));
                }
                return o;
            }
        }
    }

    private static String randomText(Random rnd) {
        String[] pool = {"", " ", "fuzz-cam", "fuzz-cam:f:0000000003", "../../etc/passwd", "é✓", "%00", "coarse", "1e309",
            "data:image/jpeg;base64,/9j/", "x".repeat(300)};
        return pool[rnd.nextInt(pool.length)];
    }
}
