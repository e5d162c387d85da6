package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.query.api.RequestLimits;
import io.videoworld.testkit.TestInfra;
import io.videoworld.testkit.ToolFuzz;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile HTTP framing over a raw socket: broken chunking, lying or doubled lengths, oversized
 * heads and bodies, bad request lines, smuggling. The answer is a 4xx (or an honest 501), never a
 * 5xx, and never shows Java internals; a body that stops arriving gets the timeout.
 */
class RestFramingFuzzTest {
    private static final String CAM = ToolFuzz.STREAM;

    @TempDir
    static Path tmp;
    private static QueryServer server;

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        ToolFuzz.indexStream(es, tmp);
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void brokenFramingGetsA4xxAndNeverA5xxOrJavaInternals() throws Exception {
        FuzzClient client = new FuzzClient(server.port());
        framing(client);
        System.out.printf("[rest-framing-fuzz] %d requests, by status: %s%n", client.total(), client.byStatus());
        assertThat(client.failures()).as("requests answered wrongly").isEmpty();
        assertThat(client.total()).isGreaterThanOrEqualTo(40);
    }

    @Test
    void aBodyThatStopsArrivingIsAnsweredWithTheTimeoutNotA500() throws Exception {
        try (QueryServer quick = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())
                .withLimits(RequestLimits.defaults().withBodyIdleTimeoutMs(500)).withIngest(IngestHealth.of("none"))).start("127.0.0.1", 0)) {
            try (Socket s = new Socket("127.0.0.1", quick.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("POST /v1/tools/get_video_info HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"video_id\":")
                        .getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                long t = System.nanoTime();
                String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(response).startsWith("HTTP/1.1 408");
                assertThat(response).contains("\"timeout\"").doesNotContain("Exception");
                assertThat((System.nanoTime() - t) / 1e9).isLessThan(5);
            }
        }
    }

    private static void framing(FuzzClient client) throws Exception {
        String tool = "POST /v1/tools/get_video_info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
        String body = "{\"video_id\":\"" + CAM + "\"}";
        IntPredicate bad = s -> s == 400;
        client.raw("chunk size ZZ", tool + "Transfer-Encoding: chunked\r\n\r\nZZ\r\n" + body + "\r\n0\r\n\r\n", bad);
        client.raw("chunk size 20 hex digits", tool + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n" + body + "\r\n0\r\n\r\n", bad);
        client.raw("chunk size -1", tool + "Transfer-Encoding: chunked\r\n\r\n-1\r\n" + body + "\r\n0\r\n\r\n", bad);
        client.raw("chunk shorter than its size", tool + "Transfer-Encoding: chunked\r\n\r\n100\r\n" + body, bad);
        client.raw("chunks without the last", tool + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"vid\r\n", bad);
        client.raw("chunk without CRLF", tool + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n", bad);
        client.raw("chunk extension garbage", tool + "Transfer-Encoding: chunked\r\n\r\n2;\u0001\u0002\r\n{}\r\n0\r\n\r\n", s -> s == 400 || s == 404);
        client.raw("body shorter than Content-Length", tool + "Content-Length: 100\r\n\r\n" + body, bad);
        client.raw("Content-Length 1", tool + "Content-Length: 1\r\n\r\n" + body, bad);
        client.raw("Content-Length abc", tool + "Content-Length: abc\r\n\r\n" + body, bad);
        client.raw("Content-Length -5", tool + "Content-Length: -5\r\n\r\n" + body, bad);
        client.raw("two Content-Lengths", tool + "Content-Length: 5\r\nContent-Length: " + body.length() + "\r\n\r\n" + body, bad);
        client.raw("Content-Length and chunked", tool + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", s -> s < 500 || s == 501);
        client.raw("chunked twice", tool + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", s -> s < 500 || s == 501);
        client.raw("gzip transfer coding", tool + "Transfer-Encoding: gzip\r\n\r\n" + body, s -> s == 400 || s == 501);
        client.raw("Content-Length 10^12", tool + "Content-Length: 1000000000000\r\n\r\n" + body, s -> s == 413 || s == 400);
        client.raw("expect 100 with 10^9", tool + "Expect: 100-continue\r\nContent-Length: 1000000000\r\n\r\n", s -> s == 413);
        client.rawBytes("chunked 5 MiB", chunked(tool, 5 * 1024 * 1024), s -> s == 413);
        String deep = "[".repeat(20_000) + "]".repeat(20_000);
        client.raw("deep JSON body", tool + "Content-Length: " + deep.length() + "\r\n\r\n" + deep, bad);
        client.raw("form body", tool + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b", bad);
        client.raw("garbage line", "GARBAGE\r\n\r\n", bad);
        client.rawBytes("binary", new byte[] {0, 1, 2, 3, (byte) 0xff, 13, 10, 13, 10}, s -> s == 400 || s == 0);
        client.raw("no version", "GET /health\r\n\r\n", s -> s == 400);
        client.raw("HTTP/9.9", "GET /health HTTP/9.9\r\nHost: x\r\n\r\n", s -> s == 400);
        client.raw("HTTP/1.1 without Host", "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n", bad);
        client.raw("100k URI", "GET /v1/frames/" + "u".repeat(100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", s -> s == 414 || s == 431 || s == 400);
        client.raw("20k header", "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\nConnection: close\r\n\r\n", s -> s == 431);
        client.raw("1500 headers", "GET /health HTTP/1.1\r\nHost: x\r\n" + "X-H: v\r\n".repeat(1500) + "Connection: close\r\n\r\n", s -> s == 431);
        client.raw("header without colon", "GET /health HTTP/1.1\r\nHost: x\r\nNoColonHere\r\nConnection: close\r\n\r\n", bad);
        client.raw("folded header", "GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\nConnection: close\r\n\r\n", s -> s < 500 || s == 501);
        client.raw("NUL in path", "GET /v1/frames/a\u0000b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", bad);
        client.raw("bad percent escape", "GET /v1/frames/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", bad);
        client.raw("dot segments", "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", bad);
        client.raw("unknown method", "BREW /v1/tools/get_video_info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", s -> s < 500 || s == 501);
        client.raw("GET a tool", "GET /v1/tools/get_video_info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", s -> s == 404 || s == 405);
        client.raw("bare LF", "GET /health HTTP/1.1\nHost: x\nConnection: close\n\n", s -> s < 500 || s == 501);
        client.raw("pipelined then garbage", "GET /v1/tools HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n", s -> s == 200);
        client.raw("smuggled chunked", tool + "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n", s -> s == 400 || s == 501);
        client.raw("ask bad chunk", "POST /v1/ask HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\nQQ\r\n{}\r\n0\r\n\r\n", bad);
        client.raw("ask short body", "POST /v1/ask HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 500\r\n\r\n{\"question\":", bad);
    }

    private static byte[] chunked(String head, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((head + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) ' ');
        for (int sent = 0; sent < size; sent += chunk.length) {
            out.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(chunk);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }
}
