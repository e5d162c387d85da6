package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.query.auth.Auth;
import io.videoworld.query.limits.TrafficLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The traffic limits of docs/limits.md against a real server. Requests are made slow by an
 * "Elasticsearch" that accepts connections and never answers, so nothing depends on timing: a
 * request waits on it until the test lets go.
 */
class LimitsTest {
    private static final String TOKEN_A = "team-a-token-0123456789";
    private static final String TOKEN_B = "team-b-token-0123456789";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path tmp;
    private SilentElasticsearch es;
    private QueryServer server;

    @BeforeEach
    void silentElasticsearch() throws IOException {
        es = new SilentElasticsearch();
    }

    @AfterEach
    void stop() throws Exception {
        // Closing the silent connections ends every request still waiting on them.
        es.close();
        if (server != null) {
            server.close();
        }
    }

    private QueryServer start(TrafficLimits traffic) throws IOException {
        Path tokens = Files.writeString(tmp.resolve("tokens.json"), "{\"tokens\": [{\"name\": \"team-a\", \"token\": \"" + TOKEN_A
                + "\", \"streams\": [\"*\"]}, {\"name\": \"team-b\", \"token\": \"" + TOKEN_B + "\", \"streams\": [\"*\"]}]}");
        server = new QueryServer(QueryConfig.of(es.url(), tmp.toString()).withAuth(Auth.load(tokens, null)).withTraffic(traffic))
                .start("127.0.0.1", 0);
        return server;
    }

    private HttpRequest.Builder at(String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60));
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String scrape() throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))).body();
    }

    /** Waits until /metrics shows {@code series} at {@code value}: the moment a request is known to be in progress. */
    private void awaitMetric(String series, String value) throws Exception {
        for (int i = 0; i < 600 && !scrape().contains(series + " " + value); i++) {
            Thread.sleep(50);
        }
        assertThat(scrape()).contains(series + " " + value);
    }

    @Test
    void aTokenPastItsRateGets429WithRetryAfterAndOtherTokensDoNot() throws Exception {
        // A burst of 3 and one more request per 1000 s: exactly 3 pass however slowly the requests go.
        start(TrafficLimits.defaults().withRate(0.001, 3));
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> refused = null;
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> r = send(at("/v1/tools", TOKEN_A));
            statuses.add(r.statusCode());
            if (r.statusCode() == 429) {
                refused = r;
            }
        }
        assertThat(statuses).containsExactly(200, 200, 200, 429, 429, 429, 429, 429);
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 1000L);
        assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(refused.body()).contains("\"code\":\"rate_limited\"").contains("rate limit").contains("bursts of 3");
        // the limit is per token
        assertThat(send(at("/v1/tools", TOKEN_B)).statusCode()).isEqualTo(200);
        // MCP over HTTP counts against the same bucket
        HttpResponse<String> mcp = send(at("/mcp", TOKEN_A).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertThat(mcp.statusCode()).isEqualTo(429);
        assertThat(mcp.headers().firstValue("Retry-After")).isPresent();
        // /health and /metrics are not rate limited
        assertThat(scrape()).contains("vw_limited_total{limit=\"rate\"} 6.0");
    }

    @Test
    void anAnswerPastTheDeadlineIs504AndTheConnectionIsFree() throws Exception {
        start(TrafficLimits.defaults().withDeadlineMs(300));
        HttpResponse<String> r = send(at("/v1/tools/get_video_info", TOKEN_A)
                .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"lobby\"}")));
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(r.body()).contains("\"code\":\"deadline_exceeded\"").contains("300 ms").contains("--request-deadline");
        // the same server answers what needs no Elasticsearch at once
        assertThat(send(at("/v1/tools", TOKEN_A)).statusCode()).isEqualTo(200);
        assertThat(scrape()).contains("vw_limited_total{limit=\"deadline\"} 1.0")
                .contains("vw_requests_seconds_count{method=\"POST\",route=\"/v1/tools/{name}\",status=\"504\",tool=\"get_video_info\"} 1");
    }

    @Test
    void asksPastTheBoundGet503WithRetryAfter() throws Exception {
        start(TrafficLimits.defaults().withMaxConcurrentAsk(1).withDeadlineMs(0));
        CompletableFuture<HttpResponse<String>> first = HTTP.sendAsync(at("/v1/ask", TOKEN_A)
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"Who came in?\", \"stream_ids\": [\"lobby\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        awaitMetric("vw_in_flight{kind=\"ask\"}", "1.0");
        HttpResponse<String> second = send(at("/v1/ask", TOKEN_B).POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"Who left?\", \"stream_ids\": [\"lobby\"]}")));
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(second.body()).contains("\"code\":\"busy\"").contains("--max-concurrent-ask");
        es.close();
        first.get();
        // the place is given back when the first run ends
        awaitMetric("vw_in_flight{kind=\"ask\"}", "0.0");
        assertThat(scrape()).contains("vw_limited_total{limit=\"ask\"} 1.0");
    }

    @Test
    void eventStreamsPastTheBoundGet503AndAreCounted() throws Exception {
        start(TrafficLimits.defaults().withMaxSseClients(1));
        CompletableFuture<HttpResponse<String>> first = HTTP.sendAsync(at("/v1/streams/lobby/events", TOKEN_A).build(),
                HttpResponse.BodyHandlers.ofString());
        awaitMetric("vw_sse_clients", "1.0");
        HttpResponse<String> second = send(at("/v1/streams/lobby/events", TOKEN_B));
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(second.body()).contains("\"code\":\"busy\"").contains("--max-sse-clients");
        es.close();
        first.get();
        awaitMetric("vw_sse_clients", "0.0");
    }

    @Test
    void theCommandLineDefaultsAreTheOnesTheLibraryStartsWith() {
        QueryServiceMain main = new QueryServiceMain();
        new picocli.CommandLine(main).parseArgs();
        assertThat(main.options.traffic()).isEqualTo(TrafficLimits.defaults());
        QueryServiceMain off = new QueryServiceMain();
        new picocli.CommandLine(off).parseArgs("--rate-limit", "0", "--request-deadline", "0.5", "--max-concurrent-ask", "2");
        assertThat(off.options.traffic()).isEqualTo(TrafficLimits.defaults().withRate(0, TrafficLimits.DEFAULT_BURST).withDeadlineMs(500)
                .withMaxConcurrentAsk(2));
        QueryServiceMain bad = new QueryServiceMain();
        new picocli.CommandLine(bad).parseArgs("--max-sse-clients", "0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bad.options.traffic()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--max-sse-clients");
    }

    /** Accepts connections, reads nothing, answers nothing, until closed. */
    static final class SilentElasticsearch implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> open = new CopyOnWriteArrayList<>();

        SilentElasticsearch() throws IOException {
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        open.add(socket.accept());
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "silent-es");
            t.setDaemon(true);
            t.start();
        }

        String url() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
