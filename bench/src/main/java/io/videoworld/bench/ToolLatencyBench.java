package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * p50/p99 of every tool of the catalog and {@code /v1/ask} at a fixed request rate, open loop:
 * each request's latency counts from when it was due, so a slow response cannot hide the ones
 * queued behind it. The reference, measured in the same run, is {@code GET /v1/tools}, which
 * touches no storage; every row is also printed as a ratio to it, since the machine is shared.
 *
 * <p>Self-contained: {@code bin/videoworld bench tools --setup [--live]} generates a 10-minute
 * video, pushes and ingests it into the real Elasticsearch with the ingest job on a local Flink
 * (in this JVM), starts the query service in its own JVM as {@code bin/videoworld query-service}
 * does, and prints the table; with {@code --live} a second table
 * is measured while a second copy of the video is pushed and ingested in real time. Against a
 * running demo: {@code bin/videoworld bench tools --url http://127.0.0.1:8080 --stream demo}.
 * Options: {@code --rate N} (200), {@code --seconds S} per call (5), {@code --video-seconds S} (600),
 * {@code --push-fps F} (5), {@code --detect-fps F} (4, the job's default, 0 for none), {@code --only tool,tool};
 * {@code --reuse} measures the video an earlier {@code --setup} run of this frame store ingested
 * instead of pushing it again, and {@code --skip-idle} measures only the live table, so that one
 * run of the whole bench can be split into runs of a few minutes each ({@code --ingest-only} stops
 * after the ingest). Before each table every call is sent in turn for {@code --warmup S} (10) at the
 * rate, and each row is preceded by one more second of its own call, so that no row times the
 * service's JIT warm-up.
 */
public final class ToolLatencyBench {
    static {
        // On a 2-core machine the common pool has one thread, and then every asynchronous step of a
        // CompletableFuture (the HTTP client completes each response body with one) starts a new thread:
        // 33,000 threads in one run, the client's cost charged to every row. Set before anything uses the pool.
        if (System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism") == null) {
            System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism", "2");
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ToolLatencyBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("tools", args);
        Map<String, String> o = options(args);
        if (java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() < 2) {
            System.out.println("note: the common pool has one thread, so the client starts a thread per response; "
                    + "run with -Djava.util.concurrent.ForkJoinPool.common.parallelism=2");
        }
        int rate = Integer.parseInt(o.getOrDefault("rate", "200"));
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "5"));
        Set<String> only = o.containsKey("only") ? Set.of(o.get("only").split(",")) : null;
        if (!o.containsKey("setup")) {
            String base = o.getOrDefault("url", "http://127.0.0.1:8080");
            table(base, o.getOrDefault("stream", "demo"), rate, seconds, warmup(o), only, "against " + base);
            System.exit(0);
        }
        double videoSeconds = Double.parseDouble(o.getOrDefault("video-seconds", "600"));
        double pushFps = Double.parseDouble(o.getOrDefault("push-fps", "5"));
        Path home = Path.of(System.getenv().getOrDefault("VW_HOME", ".vw"));
        try (ToolBenchSetup setup = new ToolBenchSetup(home.resolve("bench-tools"), pushFps)) {
            Path video = setup.video(videoSeconds);
            // At 1 fps the generated video's moving box jumps too far between samples for the tracker to confirm a track,
            // and the entity rows would time a 404.
            setup.startJob(Double.parseDouble(o.getOrDefault("detect-fps", "4")));
            String stream = "bench-tools-" + (long) videoSeconds + "s";
            if (o.containsKey("reuse") && setup.ingested(stream)) {
                System.out.println("reusing " + stream + " as an earlier run ingested it");
            } else {
                long t0 = System.nanoTime();
                var push = setup.pushAndAwait(video, stream, System.currentTimeMillis());
                System.out.printf("pushed and ingested %d frames (%.0f s of video at %.0f fps) in %.0f s%n", push.frames(), videoSeconds,
                        pushFps, (System.nanoTime() - t0) / 1e9);
            }
            if (o.containsKey("ingest-only")) {
                System.exit(0);
            }
            String base = setup.startServer();
            if (!o.containsKey("skip-idle")) {
                table(base, stream, rate, seconds, warmup(o), only, "ingestion idle");
            }
            if (o.containsKey("live")) {
                setup.startLive(video, stream + "-live");
                Thread.sleep(10_000); // let the live stream reach the job before measuring
                table(base, stream, rate, seconds, warmup(o), only, "ingestion running (a second stream pushed in real time)");
            }
        }
        System.exit(0);
    }

    private static int warmup(Map<String, String> o) {
        return Integer.parseInt(o.getOrDefault("warmup", "10"));
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                // The older positional form: [url] [stream] [rate] [seconds].
                String[] names = {"url", "stream", "rate", "seconds"};
                for (int j = i; j < args.length && j - i < names.length; j++) {
                    o.put(names[j - i], args[j]);
                }
                return o;
            }
            String name = args[i].substring(2);
            boolean flag = Set.of("setup", "live", "reuse", "skip-idle", "ingest-only").contains(name);
            o.put(name, flag ? "true" : args[++i]);
        }
        return o;
    }

    /** Every call the table measures, by row name: null body for the reference, "ask" rows go to /v1/ask. */
    static Map<String, String> calls(String base, String stream) throws Exception {
        String v = "\"video_id\": \"" + stream + "\"";
        // Ids that other tools take: an entity (registered under a tracked object, so every entity tool has something to answer) and two memories.
        Sighting at = sighting(base, v);
        String box = String.format(java.util.Locale.ROOT, "[%.4f, %.4f, %.4f, %.4f]", at.box()[0], at.box()[1], at.box()[2], at.box()[3]);
        String t = String.format(java.util.Locale.ROOT, "%.3f", at.time());
        String register = "{" + v + ", \"timestamp\": " + t + ", \"bbox\": " + box + ", \"entity_hint\": \"the box\"}";
        JsonNode entity = post(base, "/v1/tools/register_entity", register);
        String entityId = entity.path("entity_id").asText("e_missing");
        if (entity.path("associated_tracks").isEmpty()) {
            System.out.println("note: the bench's entity has no track (" + entity + "); its rows time a 404");
        }
        String m1 = post(base, "/v1/tools/write_memory", "{" + v + ", \"content\": \"a red box moves\", \"level\": \"event\", "
                + "\"time_range\": {\"start_time\": 10, \"end_time\": 20}}").path("memory_id").asText("m1");
        String m2 = post(base, "/v1/tools/write_memory", "{" + v + ", \"content\": \"the ball crosses\", \"level\": \"event\", "
                + "\"time_range\": {\"start_time\": 20, \"end_time\": 30}}").path("memory_id").asText("m2");
        Map<String, String> c = new LinkedHashMap<>();
        c.put("GET /v1/tools (reference)", null);
        c.put("get_video_info", "{" + v + "}");
        c.put("get_temporal_structure fine", "{" + v + ", \"granularity\": \"fine\"}");
        c.put("get_temporal_structure coarse", "{" + v + ", \"granularity\": \"coarse\"}");
        c.put("get_segment", "{" + v + ", \"start_time\": 100, \"end_time\": 102}");
        c.put("sample_frames uniform frame_id x10", "{" + v + ", \"num_frames\": 10, \"format\": \"frame_id\"}");
        c.put("sample_frames keyframe url", "{" + v + ", \"sample_method\": \"keyframe\", \"format\": \"url\"}");
        c.put("sample_frames adaptive url", "{" + v + ", \"sample_method\": \"adaptive\", \"format\": \"url\"}");
        c.put("sample_frames base64 x1 @320 (decodes)", "{" + v + ", \"sample_method\": \"specific\", \"timestamps\": [12.3], "
                + "\"resolution\": {\"width\": 320}}");
        c.put("crop_region timestamp (decodes)", "{" + v + ", \"source\": {\"type\": \"timestamp\", \"timestamp\": 12.3}, "
                + "\"regions\": [{\"bbox\": [0.25, 0.25, 0.5, 0.5]}], \"output_resolution\": {\"width\": 128, \"height\": 128}}");
        c.put("describe_visual (composed, no model)", "{" + v + ", \"start_time\": 10, \"end_time\": 14}");
        c.put("detect_objects", "{" + v + ", \"timestamp\": 30}");
        c.put("recognize_activity", "{" + v + ", \"start_time\": 10, \"end_time\": 40}");
        c.put("get_scene_attributes (decodes two frames)", "{" + v + ", \"timestamp\": 30}");
        c.put("get_transcript", "{" + v + "}");
        c.put("detect_audio_events", "{" + v + "}");
        c.put("register_entity", register);
        c.put("track_entity", "{" + v + ", \"entity_id\": \"" + entityId + "\"}");
        c.put("query_entity_state (decodes once per box)", "{" + v + ", \"entity_id\": \"" + entityId + "\", \"time\": " + t + ", \"query\": \"where is it?\"}");
        c.put("spatial_relation", "{" + v + ", \"timestamp\": " + t + ", \"subject\": \"" + entityId + "\"}");
        c.put("list_entities", "{" + v + "}");
        c.put("temporal_search", "{" + v + ", \"query\": \"shot 12\"}");
        c.put("search_segments_by_semantics", "{" + v + ", \"query\": \"a box moving while a ball crosses\"}");
        c.put("find_similar_segments", "{" + v + ", \"example_segment\": {\"start_time\": 30, \"end_time\": 36}}");
        c.put("write_memory", "{" + v + ", \"content\": \"a red box moves\", \"level\": \"event\", "
                + "\"time_range\": {\"start_time\": 10, \"end_time\": 20}}");
        c.put("read_memory", "{" + v + ", \"query\": \"box\"}");
        c.put("merge_events", "{" + v + ", \"event_ids\": [\"" + m1 + "\", \"" + m2 + "\"]}");
        c.put("POST /v1/ask (evidence mode)", "{\"question\": \"When does the scene change?\", \"stream_ids\": [\"" + stream + "\"]}");
        return c;
    }

    /** Where and when an object was tracked: a time and its box there, as [x, y, width, height]. */
    private record Sighting(double time, double[] box) {}

    /**
     * The middle observation of the longest track of the video (or of a registered entity's
     * tracks), so that an entity registered there has a track (the first detection at a fixed time may be one the tracker never confirmed);
     * 30 s and a fixed box when nothing is tracked.
     */
    private static Sighting sighting(String base, String v) throws Exception {
        JsonNode longest = null;
        for (JsonNode e : post(base, "/v1/tools/list_entities", "{" + v + "}").path("entities")) {
            // A registered entity counts as the track it claimed: every run registers one, and after a few
            // runs of the same stream no track is left unclaimed.
            boolean tracked = !e.path("tracks").isEmpty();
            if (tracked && (longest == null
                    || e.path("total_duration").asDouble() > longest.path("total_duration").asDouble())) {
                longest = e;
            }
        }
        if (longest != null) {
            JsonNode widest = null;
            for (JsonNode piece : post(base, "/v1/tools/track_entity", "{" + v + ", \"entity_id\": \"" + longest.path("entity_id").asText()
                    + "\"}").path("trajectory")) {
                if (widest == null || piece.path("bboxes").size() > widest.path("bboxes").size()) {
                    widest = piece;
                }
            }
            if (widest != null && !widest.path("bboxes").isEmpty()) {
                JsonNode b = widest.path("bboxes").get(widest.path("bboxes").size() / 2);
                double[] box = new double[4];
                for (int i = 0; i < 4; i++) {
                    box[i] = b.path("bbox").path(i).asDouble();
                }
                // Inside [0, 1] as register_entity requires.
                box[0] = Math.max(0, box[0]);
                box[1] = Math.max(0, box[1]);
                box[2] = Math.min(box[2], 0.9999 - box[0]);
                box[3] = Math.min(box[3], 0.9999 - box[1]);
                return new Sighting(b.path("time").asDouble(), box);
            }
        }
        System.out.println("note: nothing is tracked in the video; the entity rows time an entity without a track");
        return new Sighting(30, new double[] {0.3, 0.3, 0.3, 0.3});
    }

    private static JsonNode post(String base, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? Json.MAPPER.readTree(r.body()) : Json.MAPPER.createObjectNode();
    }

    private static HttpRequest request(String base, String row, String body) {
        String name = row.split(" ")[0];
        return body == null
                ? HttpRequest.newBuilder(URI.create(base + "/v1/tools")).timeout(Duration.ofSeconds(10)).build()
                : HttpRequest.newBuilder(URI.create(base + (row.startsWith("POST /v1/ask") ? "/v1/ask" : "/v1/tools/" + name)))
                        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static boolean skipped(String row, String body, Set<String> only) {
        return body != null && only != null && !only.contains(row.split(" ")[0]) && !only.contains(row);
    }

    private static void table(String base, String stream, int rate, int seconds, int warmup, Set<String> only, String title)
            throws Exception {
        Map<String, String> calls = calls(base, stream);
        // A service just started runs interpreted code for its first seconds: the first rows measured would time the JIT.
        List<HttpRequest> all = new ArrayList<>();
        calls.forEach((row, body) -> {
            if (!skipped(row, body, only)) {
                all.add(request(base, row, body));
            }
        });
        if (warmup > 0) {
            run(all, rate, warmup);
            drain(base);
        }
        System.out.printf("%n%s: %d requests/s for %d s per call against %s, stream %s; load before: %s%n", title, rate, seconds, base,
                stream, loadAverage());
        System.out.println("| call | p50 ms | p99 ms | max ms | non-2xx | p50 / ref p50 | p99 / ref p99 |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        double refP50 = Double.NaN;
        double refP99 = Double.NaN;
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, String> c : calls.entrySet()) {
            if (skipped(c.getKey(), c.getValue(), only)) {
                continue;
            }
            HttpRequest req = request(base, c.getKey(), c.getValue());
            HttpResponse<String> one = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            if (one.statusCode() / 100 != 2) {
                notes.add(c.getKey() + ": " + one.statusCode() + " " + one.body().substring(0, Math.min(160, one.body().length())));
            }
            run(List.of(req), rate, 1); // warm-up
            double[] lat = run(List.of(req), rate, seconds);
            drain(base);
            double p50 = pct(lat, 0.5);
            double p99 = pct(lat, 0.99);
            if (Double.isNaN(refP99)) {
                refP50 = p50;
                refP99 = p99;
            }
            System.out.printf("| %s | %.2f | %.2f | %.2f | %d | %.1f | %.1f |%n", c.getKey(), p50, p99, lat[lat.length - 2],
                    (long) lat[lat.length - 1], p50 / refP50, p99 / refP99);
        }
        System.out.println("load after: " + loadAverage());
        notes.forEach(n -> System.out.println("non-2xx: " + n));
    }

    /**
     * Waits until the server has worked off what a row left queued (requests the client gave up on
     * still run there), so one row's backlog is not charged to the next: until the reference answers
     * within 50 ms three times running, for at most 60 s.
     */
    static void drain(String base) throws Exception {
        HttpRequest ref = HttpRequest.newBuilder(URI.create(base + "/v1/tools")).timeout(Duration.ofSeconds(60)).build();
        long deadline = System.currentTimeMillis() + 60_000;
        int quick = 0;
        while (quick < 3 && System.currentTimeMillis() < deadline) {
            long t0 = System.nanoTime();
            HTTP.send(ref, HttpResponse.BodyHandlers.discarding());
            quick = (System.nanoTime() - t0) / 1e6 < 50 ? quick + 1 : 0;
            Thread.sleep(100);
        }
    }

    static String loadAverage() {
        try {
            return "load average " + Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "load average unknown";
        }
    }

    /**
     * Sends {@code reqs} in turn at {@code rate} for {@code seconds}; latencies in ms, sorted, and after
     * them the max and the count of non-2xx answers.
     */
    static double[] run(List<HttpRequest> reqs, int rate, int seconds) throws Exception {
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
            pending.add(HTTP.sendAsync(reqs.get(i % reqs.size()), HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
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

    static double pct(double[] latWithTail, double p) {
        int n = latWithTail.length - 2;
        return latWithTail[Math.min(n - 1, (int) Math.ceil(p * n) - 1)];
    }
}
