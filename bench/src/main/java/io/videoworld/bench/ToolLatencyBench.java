package io.videoworld.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * p50/p99 of each tool at a fixed request rate, from this (second) process against a running
 * query service on loopback, open loop: each request's latency counts from when it was due, so
 * a slow response cannot hide the ones queued behind it. The reference, measured in the same run,
 * is {@code GET /v1/tools}, which touches no storage.
 *
 * <p>Run {@code bin/videoworld demo --detach}, then {@code bin/videoworld bench tools [url] [stream] [rate] [seconds]}.
 */
public final class ToolLatencyBench {
    private ToolLatencyBench() {}

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        String stream = args.length > 1 ? args[1] : "demo";
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        String v = "\"video_id\": \"" + stream + "\"";
        Map<String, String> calls = new LinkedHashMap<>();
        calls.put("GET /v1/tools (reference)", null);
        calls.put("get_video_info", "{" + v + "}");
        calls.put("get_temporal_structure fine", "{" + v + ", \"granularity\": \"fine\"}");
        calls.put("get_temporal_structure coarse", "{" + v + ", \"granularity\": \"coarse\"}");
        calls.put("get_segment", "{" + v + ", \"start_time\": 10, \"end_time\": 12}");
        calls.put("sample_frames frame_id x10", "{" + v + ", \"num_frames\": 10, \"format\": \"frame_id\"}");
        calls.put("sample_frames keyframe url", "{" + v + ", \"sample_method\": \"keyframe\", \"format\": \"url\"}");
        calls.put("sample_frames base64 x1 @320", "{" + v + ", \"sample_method\": \"specific\", \"timestamps\": [12.3], "
                + "\"resolution\": {\"width\": 320}}");
        calls.put("crop_region timestamp", "{" + v + ", \"source\": {\"type\": \"timestamp\", \"timestamp\": 12.3}, "
                + "\"regions\": [{\"bbox\": [0.25, 0.25, 0.5, 0.5]}], \"output_resolution\": {\"width\": 128, \"height\": 128}}");
        calls.put("POST /v1/ask (evidence mode)", "{\"question\": \"When does the scene change?\", \"stream_ids\": [\"" + stream + "\"]}");

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        System.out.printf("%d requests/s for %d s per call against %s, stream %s%n", rate, seconds, base, stream);
        System.out.println("| call | p50 ms | p99 ms | max ms | non-2xx | p99 / reference p99 |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        double refP99 = Double.NaN;
        for (Map.Entry<String, String> c : calls.entrySet()) {
            HttpRequest req = c.getValue() == null
                    ? HttpRequest.newBuilder(URI.create(base + "/v1/tools")).timeout(Duration.ofSeconds(10)).build()
                    : HttpRequest.newBuilder(URI.create(base + (c.getKey().startsWith("POST /v1/ask") ? "/v1/ask"
                            : "/v1/tools/" + c.getKey().split(" ")[0]))).timeout(Duration.ofSeconds(10))
                            .POST(HttpRequest.BodyPublishers.ofString(c.getValue())).build();
            run(http, req, rate, 1); // warm-up
            double[] lat = run(http, req, rate, seconds);
            double p99 = pct(lat, 0.99);
            if (Double.isNaN(refP99)) {
                refP99 = p99;
            }
            System.out.printf("| %s | %.2f | %.2f | %.2f | %d | %.1f |%n", c.getKey(), pct(lat, 0.5), p99, lat[lat.length - 2],
                    (long) lat[lat.length - 1], p99 / refP99);
        }
        System.exit(0);
    }

    /** Latencies in ms, sorted; the last element is the count of non-2xx answers, the one before it the max. */
    private static double[] run(HttpClient http, HttpRequest req, int rate, int seconds) throws Exception {
        int n = rate * seconds;
        double[] lat = new double[n];
        AtomicInteger bad = new AtomicInteger();
        List<CompletableFuture<?>> pending = new ArrayList<>(n);
        long start = System.nanoTime();
        long interval = 1_000_000_000L / rate;
        for (int i = 0; i < n; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            int k = i;
            pending.add(http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
                lat[k] = (System.nanoTime() - due) / 1e6;
                if (e != null || r.statusCode() / 100 != 2) {
                    bad.incrementAndGet();
                }
                return null;
            }));
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).join();
        Arrays.sort(lat);
        double[] out = Arrays.copyOf(lat, n + 2);
        out[n] = lat[n - 1];
        out[n + 1] = bad.get();
        return out;
    }

    private static double pct(double[] latWithTail, double p) {
        int n = latWithTail.length - 2;
        return latWithTail[Math.min(n - 1, (int) Math.ceil(p * n) - 1)];
    }
}
