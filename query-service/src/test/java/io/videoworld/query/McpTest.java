package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.mcp.McpTools;
import io.videoworld.testkit.KitchenCam;
import io.videoworld.testkit.TestInfra;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools over MCP, through the official SDK's own client: over streamable HTTP on the query
 * service (bearer tokens enforced as on REST) and over stdio with {@link McpMain} started as its
 * own process, as an agent would. Also reads the stdio wire raw, to show that standard output
 * carries only JSON-RPC; that exchange is printed and kept in {@code target/mcp-transcript.txt}.
 */
class McpTest {
    private static final String CAM = "mcp-kitchen";
    private static final long EPOCH = 1_700_000_800_000L;
    private static final String ADMIN = "mcp-admin-token-0123456789";
    private static final String LOBBY = "mcp-lobby-token-0123456789";
    @TempDir
    static Path tmp;
    private static String es;
    private static TextEmbedder embedder;
    private static QueryServer server;

    @BeforeAll
    static void start() throws Exception {
        es = TestInfra.get().elasticsearchUrl();
        embedder = TextEmbedder.load(ModelDirectory.locate());
        KitchenCam.index(es, tmp, CAM, EPOCH, embedder::embed);
        Path tokens = Files.writeString(tmp.resolve("tokens.json"),
                "{\"tokens\": [{\"name\": \"lobby\", \"token\": \"" + LOBBY + "\", \"streams\": [\"lobby-*\"]}]}");
        server = new QueryServer(QueryConfig.of(es, tmp.toString()).withEmbedder(embedder).withAuth(Auth.load(tokens, ADMIN)))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        embedder.close();
    }

    private static McpSyncClient http(String token) {
        HttpClientStreamableHttpTransport.Builder t = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").jsonMapper(McpTools.jsonMapper());
        if (token != null) {
            t.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token));
        }
        return client(t.build());
    }

    private static McpSyncClient client(McpClientTransport transport) {
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).clientInfo(new McpSchema.Implementation("mcp-test", "1"))
                .build();
    }

    private static JsonNode call(McpSyncClient c, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(tool + ": " + r.content()).isFalse();
        return Json.MAPPER.readTree(((McpSchema.TextContent) r.content().get(0)).text());
    }

    /** The error object a refused call carries. */
    private static JsonNode refusal(McpSyncClient c, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(tool + " should be refused").isTrue();
        return Json.MAPPER.readTree(((McpSchema.TextContent) r.content().get(0)).text()).get("error");
    }

    @Test
    void overHttpTheCatalogAnswersAsRestDoes() throws Exception {
        try (McpSyncClient c = http(ADMIN)) {
            McpSchema.InitializeResult init = c.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("videoworld");
            Set<String> listed = c.listTools().tools().stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
            JsonNode rest = Json.MAPPER.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/v1/tools")).header("Authorization", "Bearer " + ADMIN).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            Set<String> available = new java.util.HashSet<>();
            rest.get("tools").forEach(t -> {
                if (t.get("available").asBoolean()) {
                    available.add(t.get("name").asText());
                }
            });
            assertThat(listed).isEqualTo(available).contains("get_video_info", "temporal_search", "list_entities");
            McpSchema.Tool search = c.listTools().tools().stream().filter(t -> t.name().equals("temporal_search")).findFirst().orElseThrow();
            assertThat(search.inputSchema().get("required").toString()).contains("video_id", "query");

            JsonNode info = call(c, "get_video_info", Map.of("video_id", CAM));
            assertThat(info.get("duration").asDouble()).isEqualTo(6.0);
            JsonNode structure = call(c, "get_temporal_structure", Map.of("video_id", CAM, "granularity", "fine"));
            assertThat(structure.toString()).contains(CAM + ":shot:0000000050");
            JsonNode found = call(c, "temporal_search", Map.of("video_id", CAM, "query", "coffee mug", "top_k", 1));
            assertThat(found.get("candidates").get(0).get("segment_id").asText()).isEqualTo(CAM + ":shot:0000000050");

            JsonNode bad = refusal(c, "temporal_search", Map.of("video_id", CAM, "query", "mug", "top_k", 1000));
            assertThat(bad.get("field").asText()).isEqualTo("top_k");
            assertThat(bad.get("status").asInt()).isEqualTo(400);
            assertThatThrownBy(() -> c.callTool(new McpSchema.CallToolRequest("no_such_tool", Map.of())))
                    .isInstanceOf(McpError.class).hasMessageContaining("Unknown tool");
        }
    }

    @Test
    void overHttpTheTokenDecidesWhoMayCallAndWhichStreams() throws Exception {
        HttpResponse<String> none = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/mcp")).header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        try (McpSyncClient c = http("guessed-token-000000000000")) {
            assertThatThrownBy(c::initialize).isInstanceOf(RuntimeException.class);
        }
        try (McpSyncClient c = http(LOBBY)) {
            c.initialize();
            JsonNode forbidden = refusal(c, "get_video_info", Map.of("video_id", CAM));
            assertThat(forbidden.get("status").asInt()).isEqualTo(403);
            assertThat(forbidden.get("field").asText()).isEqualTo("video_id");
        }
    }

    /** McpMain in its own JVM, on this test's class path, over the same Elasticsearch. */
    private static List<String> command() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), McpMain.class.getName(), "--es-url", es, "--frame-store", tmp.toString(),
                "--models", ModelDirectory.locate().toString(), "--detect-model", "none", "--flink-url", "none");
    }

    @Test
    void overStdioAnAgentStartsTheProcessAndCallsTools() throws Exception {
        List<String> cmd = command();
        ServerParameters params = ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpTools.jsonMapper());
        List<String> stderr = java.util.Collections.synchronizedList(new ArrayList<>());
        transport.setStdErrorHandler(stderr::add);
        try (McpSyncClient c = client(transport)) {
            c.initialize();
            assertThat(c.listTools().tools()).extracting(McpSchema.Tool::name).contains("get_video_info", "list_entities");
            assertThat(call(c, "get_video_info", Map.of("video_id", CAM)).get("video_id").asText()).isEqualTo(CAM);
            assertThat(call(c, "get_segment", Map.of("video_id", CAM, "start_time", 4, "end_time", 6)).toString())
                    .contains(CAM + ":shot:0000000100");
            assertThat(refusal(c, "get_video_info", Map.of("video_id", "no-such-stream")).get("status").asInt()).isEqualTo(404);
            assertThat(refusal(c, "get_video_info", Map.of()).get("field").asText()).isEqualTo("video_id");
        }
        assertThat(String.join("\n", stderr)).contains("videoworld MCP server on stdio");
    }

    @Test
    void overStdioStandardOutputIsProtocolOnly() throws Exception {
        Process p = new ProcessBuilder(command()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> transcript = new ArrayList<>();
        try (OutputStream in = p.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String[] requests = {
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"get_video_info\",\"arguments\":{\"video_id\":\"" + CAM + "\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"temporal_search\",\"arguments\":{\"video_id\":\"" + CAM
                        + "\",\"query\":\"weather tonight\",\"top_k\":1}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"list_entities\",\"arguments\":{\"video_id\":\"" + CAM + "\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"get_temporal_structure\",\"arguments\":{\"video_id\":\"" + CAM
                        + "\",\"granularity\":\"sometimes\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"delete_everything\",\"arguments\":{}}}"};
            for (String r : requests) {
                in.write((r + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                transcript.add("> " + r);
                if (r.contains("\"id\"")) {
                    String line = out.readLine();
                    assertThat(line).as("a reply to " + r).isNotNull();
                    JsonNode reply = Json.MAPPER.readTree(line);
                    assertThat(reply.get("jsonrpc").asText()).as(line).isEqualTo("2.0");
                    assertThat(reply.get("id").asInt()).isEqualTo(Json.MAPPER.readTree(r).get("id").asInt());
                    transcript.add("< " + (line.length() > 600 ? line.substring(0, 600) + "…" : line));
                }
            }
            in.close();
            assertThat(out.readLine()).as("nothing else on stdout once stdin ends").isNull();
        } finally {
            assertThat(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).as("exits when stdin ends").isTrue();
        }
        String text = String.join("\n", transcript);
        assertThat(text).contains("\"isError\":true").contains("granularity").contains("\"error\":{\"code\":-32602");
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/mcp-transcript.txt"), text + "\n");
        System.out.println("MCP stdio transcript:\n" + text);
    }
}
