package io.videoworld.query;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * Sends hostile requests to one server and judges each answer: never a 5xx (an honest 501
 * excepted), the expected status, the expected words, and no Java class names or stack frames.
 * Collects what went wrong instead of failing at the first, so one run lists every bad answer.
 */
final class FuzzClient {
    private static final Pattern INTERNALS = Pattern.compile("Exception|Throwable|java\\.|io\\.videoworld\\.|\\tat ");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One answer: its status and its body ("(image)" for an image). */
    record Answer(int status, String body) {}

    private final int port;
    private final Map<Integer, Integer> byStatus = new TreeMap<>();
    private final List<String> failures = new ArrayList<>();

    FuzzClient(int port) {
        this.port = port;
    }

    Map<Integer, Integer> byStatus() {
        return byStatus;
    }

    List<String> failures() {
        return failures;
    }

    int total() {
        return byStatus.values().stream().mapToInt(Integer::intValue).sum();
    }

    void post(String label, String path, String body, IntPredicate expected, String mustContain) throws Exception {
        postBytes(label, path, body.getBytes(StandardCharsets.UTF_8), expected, mustContain);
    }

    void postBytes(String label, String path, byte[] body, IntPredicate expected, String mustContain) throws Exception {
        judge(label, send("POST", path, body), expected, mustContain);
    }

    void get(String label, String path, IntPredicate expected, String mustContain) throws Exception {
        judge(label, send("GET", path, null), expected, mustContain);
    }

    Answer send(String method, String path, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
        b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<byte[]> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        String text = r.headers().firstValue("Content-Type").orElse("").startsWith("image/") ? "(image)"
                : new String(r.body(), StandardCharsets.UTF_8);
        Answer a = new Answer(r.statusCode(), text);
        byStatus.merge(a.status, 1, Integer::sum);
        return a;
    }

    void raw(String label, String request, IntPredicate expected) throws Exception {
        rawBytes(label, request.getBytes(StandardCharsets.ISO_8859_1), expected);
    }

    /** Sends bytes on a fresh socket, half-closes it (so a short body ends at once instead of at the idle timeout) and reads the first response. */
    void rawBytes(String label, byte[] request, IntPredicate expected) throws Exception {
        String response;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
                s.shutdownOutput();
            } catch (IOException e) {
                // The server may answer and close before reading everything (413, 431): read what it said.
            }
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(in);
            } catch (IOException e) {
                // A reset after the response was written still leaves the response.
            }
            response = in.toString(StandardCharsets.ISO_8859_1);
        }
        int status = 0;
        if (response.startsWith("HTTP/1.")) {
            status = Integer.parseInt(response.substring(9, 12));
        }
        int end = response.indexOf("\r\n\r\n");
        String body = end < 0 ? "" : response.substring(end + 4);
        // Only the first response of the connection is judged, but every later one must be clean too.
        Answer a = new Answer(status, body);
        byStatus.merge(a.status, 1, Integer::sum);
        judge(label, a, expected, null);
        if (response.indexOf("HTTP/1.1 5", 1) > 0 && !response.contains(" 501 ")) {
            failures.add(label + ": a later response on the connection was a 5xx: " + cut(response));
        }
    }

    void judge(String label, Answer a, IntPredicate expected, String mustContain) {
        // 501 is the honest answer for a capability that is not built yet, and Jetty's for a transfer coding it does not implement.
        boolean honest501 = a.status == 501 && (a.body.contains("\"not_implemented\"") || a.body.contains("Transfer-Encoding")
                || a.body.contains("Not Implemented"));
        if (a.status >= 500 && !honest501) {
            failures.add(label + ": " + a.status + " " + cut(a.body));
        } else if (!expected.test(a.status)) {
            failures.add(label + ": unexpected " + a.status + " " + cut(a.body));
        } else if (mustContain != null && !a.body.contains(mustContain)) {
            failures.add(label + ": " + a.status + " without '" + mustContain + "': " + cut(a.body));
        }
        if (INTERNALS.matcher(a.body).find()) {
            failures.add(label + ": shows Java internals: " + cut(a.body));
        }
    }

    private static String cut(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
