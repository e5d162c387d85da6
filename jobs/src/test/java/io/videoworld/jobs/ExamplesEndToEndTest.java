package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.query.McpMain;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.query.mcp.McpTools;
import io.videoworld.testkit.TestInfra;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files in {@code examples/} run as a user runs them, against what the demo serves: the demo's
 * generated video pushed through the ingest job, the query service over what it indexed, then the
 * curl session and the Python client as processes, and both MCP configurations read and connected
 * to as a client would.
 */
class ExamplesEndToEndTest {
    private static final String STREAM = "examples-demo";
    /** Each run its own push, so documents left by an earlier run against the same server never answer for this one. */
    private static final long EPOCH = System.currentTimeMillis();
    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;

    private static RestClientTransport transport;
    private static JobClient job;
    private static QueryServer server;
    private static String es;

    @BeforeAll
    static void ingest() throws Exception {
        TestInfra infra = TestInfra.get();
        es = infra.elasticsearchUrl();
        transport = EsClients.transport(es);
        ElasticsearchClient client = EsClients.sync(transport);
        Path video = tmp.resolve("demo.mp4");
        // The demo's own video, cut shorter: its first two cuts.
        List<Double> cuts = SampleVideo.DEMO_CUTS.stream().filter(c -> c < 20).toList();
        SampleVideo.write(video, 640, 360, 25, 20.0, cuts);
        assertThat(VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "examples.frames",
                "--stream-id", STREAM, "--fps", "5", "--epoch-ms", String.valueOf(EPOCH))).isZero();
        job = IngestRun.start(infra, "examples", tmp.resolve("frames"), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(ShotOptions.FRAME_STORE, tmp.resolve("frames").toUri().toString());
        });
        Query thisRun = Query.of(q -> q.term(t -> t.field("epoch_ms").value(EPOCH)));
        IngestRun.await("3 shots", 180, () -> IngestRun.count(client, Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b
                .filter(IngestRun.term("stream_id", STREAM)).filter(thisRun).filter(IngestRun.term("kind", "shot"))))) >= cuts.size() + 1
                && client.get(g -> g.index(Names.VIDEOS_INDEX).id(STREAM), JsonNode.class).source().get("epoch_ms").asLong() == EPOCH);
        server = new QueryServer(QueryConfig.of(es, tmp.resolve("frames").toUri().toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        job.cancel().get();
        transport.close();
    }

    private static String url() {
        return "http://127.0.0.1:" + server.port();
    }

    /** Runs a command in the repository root with the example's environment; returns its exit code and output. */
    private static Ran run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(EXAMPLES.getParent().toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        return new Ran(p.exitValue(), out);
    }

    private record Ran(int code, String out) {}

    @Test
    void theCurlSessionRunsThroughAgainstTheDemo() throws Exception {
        Ran r = run(Map.of("VW_URL", url(), "VW_STREAM", STREAM), "bash", "examples/curl-session.sh");
        assertThat(r.code()).as(r.out()).isZero();
        // One answer per step, each a JSON body naming this stream.
        assertThat(r.out()).contains("\"video_id\":\"" + STREAM + "\"", STREAM + ":shot:0000000000", "\"mode\":\"evidence\"")
                .contains("/v1/frames/" + STREAM + ":f:");
        assertThat(Pattern.compile(Pattern.quote(STREAM + ":shot:") + "\\d+").matcher(r.out()).results().map(java.util.regex.MatchResult::group).distinct())
                .hasSize(3);
    }

    @Test
    void theCurlSessionStopsOnAnErrorInsteadOfPrintingItAsAnAnswer() throws Exception {
        Ran r = run(Map.of("VW_URL", url(), "VW_STREAM", "no-such-stream"), "bash", "examples/curl-session.sh");
        assertThat(r.code()).as(r.out()).isNotZero();
        assertThat(r.out()).contains("404").doesNotContain("== its shots");
    }

    @Test
    void thePythonClientPrintsTheShotsAndTheEvidence() throws Exception {
        Ran r = run(Map.of(), "python3", "examples/videoworld_client.py", "--url", url(), "--stream", STREAM);
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("  shot "))).hasSize(3);
        assertThat(r.out()).contains("A: No LLM is configured", "clip 1: " + STREAM, "an unknown stream is a 404");
    }

    @Test
    void thePythonClientNamesAServiceItCannotReach() throws Exception {
        Ran r = run(Map.of(), "python3", "examples/videoworld_client.py", "--url", "http://127.0.0.1:9", "--stream", STREAM);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("cannot reach http://127.0.0.1:9").doesNotContain("Traceback");
    }

    @Test
    void theMcpHttpConfigurationReachesTheTools() throws Exception {
        JsonNode server = Json.MAPPER.readTree(EXAMPLES.resolve("mcp/http.json").toFile()).get("mcpServers").get("videoworld");
        assertThat(server.get("type").asText()).isEqualTo("http");
        URI configured = URI.create(server.get("url").asText());
        assertThat(configured.getPort()).isEqualTo(8080);
        McpClientTransport t = HttpClientStreamableHttpTransport.builder(url()).endpoint(configured.getPath())
                .jsonMapper(McpTools.jsonMapper()).build();
        try (McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofSeconds(60)).build()) {
            c.initialize();
            assertThat(c.listTools().tools()).extracting(McpSchema.Tool::name).contains("get_video_info", "temporal_search");
            assertThat(text(c.callTool(new McpSchema.CallToolRequest("get_video_info", Map.of("video_id", STREAM))))).contains(STREAM);
        }
    }

    @Test
    void theMcpStdioConfigurationStartsTheServerWithItsArguments() throws Exception {
        JsonNode server = Json.MAPPER.readTree(EXAMPLES.resolve("mcp/stdio.json").toFile()).get("mcpServers").get("videoworld");
        assertThat(server.get("command").asText()).endsWith("/bin/videoworld");
        List<String> args = new ArrayList<>();
        server.get("args").forEach(a -> args.add(a.asText()));
        assertThat(args.get(0)).isEqualTo("mcp");
        // bin/videoworld mcp runs McpMain with the rest of the arguments; here on this test's class path, pointed at the test's Elasticsearch.
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), McpMain.class.getName()));
        for (String a : args.subList(1, args.size())) {
            cmd.add(a.startsWith("http://127.0.0.1:9200") ? es : a);
        }
        assertThat(cmd).contains(es);
        StdioClientTransport t = new StdioClientTransport(ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build(),
                McpTools.jsonMapper());
        t.setStdErrorHandler(line -> { });
        try (McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofSeconds(60)).build()) {
            c.initialize();
            assertThat(text(c.callTool(new McpSchema.CallToolRequest("get_temporal_structure",
                    Map.of("video_id", STREAM, "granularity", "fine"))))).contains(STREAM + ":shot:0000000000");
        }
    }

    private static String text(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as(r.toString()).isNotEqualTo(Boolean.TRUE);
        return r.content().stream().map(c -> ((McpSchema.TextContent) c).text()).reduce("", String::concat);
    }

    static {
        // The examples are files of the repository; a test run from elsewhere would silently test nothing.
        if (!Files.isDirectory(EXAMPLES)) {
            throw new IllegalStateException("examples/ not found at " + EXAMPLES);
        }
    }
}
