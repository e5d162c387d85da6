package io.videoworld.bench;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

/**
 * Index size, build time, query-service heap and tool latency over a long generated history:
 * {@code bin/videoworld bench scale [DAYS] [--screens N] [--cameras M]} writes DAYS of N screens at
 * 1 fps and M cameras ({@link ScaleHistory}) straight into the indices, prints the size per day of
 * each index and stream kind (the JSON sent, and the share of the index's store by documents),
 * then starts the query service in its own JVM ({@link ServiceProcess}) and sends every read
 * tool and {@code /v1/ask} (evidence mode) open loop at {@code --rate} requests/s (200), each
 * request with arguments of its own: a random stream of the kind, a random time range, a query
 * drawn from hundreds of phrases the screens showed, an entity that exists. Each row prints p50
 * and p99 beside {@code GET /v1/tools} measured in the same run, and the share of the service's
 * read-cache lookups that hit during it. Options: {@code --hours H} instead of days, {@code --seconds S}
 * per row (10), {@code --warmup S} (5), {@code --prefix P} (scale: the stream ids' prefix),
 * {@code --reuse} (measure a history an earlier run wrote), {@code --skip-queries}.
 */
public final class ScaleBench {
    static {
        if (System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism") == null) {
            System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism", "2");
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Set<String> FLAGS = Set.of("reuse", "skip-queries");

    private ScaleBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("scale", args);
        Map<String, String> o = options(args);
        double hours = o.containsKey("hours") ? Double.parseDouble(o.get("hours")) : 24 * Double.parseDouble(o.getOrDefault("days", "1"));
        long seconds = Math.round(hours * 3600);
        int screens = Integer.parseInt(o.getOrDefault("screens", "1"));
        int cameras = Integer.parseInt(o.getOrDefault("cameras", "1"));
        String prefix = o.getOrDefault("prefix", "scale");
        String es = TestInfra.get().elasticsearchUrl();
        Path home = Path.of(System.getenv().getOrDefault("VW_HOME", ".vw")).resolve("bench-scale");
        Path frames = home.resolve("frames");
        Files.createDirectories(frames);
        List<String> screenIds = ids(prefix, "screen", screens);
        List<String> cameraIds = ids(prefix, "camera", cameras);
        double days = seconds / 86_400.0;
        ScaleHistory history;
        try (RestClientTransport t = EsClients.transport(es)) {
            RestClient rest = t.restClient();
            EsIndices.ensure(EsClients.sync(t), EsIndices.ALL);
            history = new ScaleHistory(rest, 35, FrameStore.open(frames.toString()));
            long t0 = System.nanoTime();
            if (!o.containsKey("reuse")) {
                for (String s : screenIds) {
                    history.screen(s, seconds);
                }
                for (String c : cameraIds) {
                    history.camera(c, seconds);
                }
                history.flush();
                refresh(rest);
                double took = (System.nanoTime() - t0) / 1e9;
                long docs = history.written().values().stream().mapToLong(w -> w.docs).sum();
                System.out.printf(Locale.ROOT, "%nBuild: %.2f days of %d screen(s) at 1 fps and %d camera(s) at %d detections/s, written through the "
                        + "job's document builders into %s, bulk requests of 8 MB from one thread%n", days, screens, cameras, ScaleHistory.DETECT_FPS, es);
                System.out.println("| documents | seconds to build | documents/s | seconds to build one stream-day |");
                System.out.println("|---:|---:|---:|---:|");
                System.out.printf(Locale.ROOT, "| %d | %.1f | %.0f | %.1f |%n", docs, took, docs / took, took / days / (screens + cameras));
                sizes(rest, history, prefix, days, screens, cameras);
                if (cameras > 0) {
                    System.out.printf(Locale.ROOT, "Camera keyframe JPEGs in the frame store (drawn boxes, not camera pictures): %.1f MB per camera-day%n",
                            history.jpegBytes() / 1e6 / days / cameras);
                }
            } else {
                // The queries need phrases and sightings: the first hour again, written nowhere (the same seed gives the same ones).
                history = new ScaleHistory(null, 35, null);
                history.screen(screenIds.get(0), Math.min(seconds, 3600));
                if (!cameraIds.isEmpty()) {
                    history.camera(cameraIds.get(0), Math.min(seconds, 3600));
                }
            }
        }
        if (o.containsKey("skip-queries")) {
            System.exit(0);
        }
        try (ServiceProcess service = ServiceProcess.start(es, home.resolve("frames"), ModelDirectory.locate(), home.resolve("service.log"))) {
            String base = service.url();
            queries(base, history, screenIds, cameraIds, seconds, Integer.parseInt(o.getOrDefault("rate", "200")),
                    Integer.parseInt(o.getOrDefault("seconds", "10")), Integer.parseInt(o.getOrDefault("warmup", "5")), days);
        }
        System.exit(0);
    }

    static List<String> ids(String prefix, String kind, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(prefix + "-" + kind + "-" + i);
        }
        return out;
    }

    private static void refresh(RestClient rest) throws Exception {
        rest.performRequest(new Request("POST", "/vw-*/_refresh"));
    }

    /**
     * Size per day of each index and stream kind: the JSON the generator sent (exact) and the
     * index's store (primaries, after a flush) times the generated stream kind's share of its documents,
     * which is the index's own size where the history is all it holds.
     */
    private static void sizes(RestClient rest, ScaleHistory history, String prefix, double days, int screens, int cameras) throws Exception {
        rest.performRequest(new Request("POST", "/vw-*/_flush"));
        JsonNode stats = Json.MAPPER.readTree(rest.performRequest(new Request("GET", "/vw-*/_stats/store,docs")).getEntity().getContent());
        System.out.printf(Locale.ROOT, "%nSize per day of one stream, by index and stream kind (%.2f days; store: the index's primary store "
                + "times the generated documents' share of it)%n", days);
        System.out.println("| index | stream kind | documents/day | JSON sent MB/day | store MB/day | store bytes/document | generated share of the index |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|");
        Map<String, double[]> totals = new LinkedHashMap<>();
        for (Map.Entry<String, ScaleHistory.Written> e : history.written().entrySet()) {
            String index = e.getKey().split("/")[0];
            String kind = e.getKey().split("/")[1];
            int streams = kind.equals("screen") ? screens : cameras;
            JsonNode prim = stats.path("indices").path(index).path("primaries");
            // Top-level documents on both sides: the store's own count includes nested objects.
            long indexDocs = count(rest, index, "");
            long store = prim.path("store").path("size_in_bytes").asLong();
            long ours = count(rest, index, prefix + "-" + kind + "-");
            double share = indexDocs == 0 ? 0 : Math.min(1.0, (double) ours / indexDocs);
            double perDay = streams * days;
            double storeDay = store * share / perDay;
            double jsonDay = e.getValue().bytes / perDay;
            System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.1f | %.1f | %.0f | %.3f |%n", index, kind, ours / perDay, jsonDay / 1e6,
                    storeDay / 1e6, ours == 0 ? 0 : store * share / ours, share);
            double[] t = totals.computeIfAbsent(kind, k -> new double[2]);
            t[0] += jsonDay;
            t[1] += storeDay;
        }
        totals.forEach((kind, t) -> System.out.printf(Locale.ROOT, "| all | %s | | %.1f | %.1f | | |%n", kind, t[0] / 1e6, t[1] / 1e6));
        System.out.println("Keyframe JPEGs (the frame store) are not in these sizes; the generator writes only the camera's, drawings of its boxes.");
    }

    private static long count(RestClient rest, String index, String streamPrefix) throws Exception {
        Request r = new Request("POST", "/" + index + "/_count");
        r.setJsonEntity(streamPrefix.isEmpty() ? "{\"query\":{\"match_all\":{}}}"
                : "{\"query\":{\"prefix\":{\"stream_id\":" + Json.MAPPER.writeValueAsString(streamPrefix) + "}}}");
        return Json.MAPPER.readTree(rest.performRequest(r).getEntity().getContent()).path("count").asLong();
    }

    /** The rows: a name and a maker of the i-th request's body (null: the reference, GET /v1/tools). */
    static Map<String, Function<Random, String>> rows(ScaleHistory history, List<String> screens, List<String> cameras, long seconds,
            List<String> entities) {
        List<String> phrases = queries(history.phrases());
        Map<String, Function<Random, String>> rows = new LinkedHashMap<>();
        Function<Random, String> anyScreen = r -> screens.get(r.nextInt(screens.size()));
        Function<Random, String> anyStream = r -> {
            int i = r.nextInt(screens.size() + cameras.size());
            return i < screens.size() ? screens.get(i) : cameras.get(i - screens.size());
        };
        Function<Random, String> anyCamera = cameras.isEmpty() ? anyScreen : r -> cameras.get(r.nextInt(cameras.size()));
        rows.put("GET /v1/tools (reference)", null);
        rows.put("get_video_info", r -> "{" + v(anyStream.apply(r)) + "}");
        rows.put("get_temporal_structure fine", r -> "{" + v(anyStream.apply(r)) + ", \"granularity\": \"fine\"}");
        rows.put("get_temporal_structure coarse", r -> "{" + v(anyStream.apply(r)) + ", \"granularity\": \"coarse\"}");
        rows.put("get_segment", r -> {
            double t = at(r, seconds, 2);
            return "{" + v(anyStream.apply(r)) + ", \"start_time\": " + f(t) + ", \"end_time\": " + f(t + 2) + "}";
        });
        rows.put("sample_frames uniform frame_id x10", r -> "{" + v(anyStream.apply(r)) + ", \"num_frames\": 10, \"format\": \"frame_id\", "
                + range(r, seconds, 600) + "}");
        rows.put("sample_frames keyframe url", r -> "{" + v(anyStream.apply(r)) + ", \"sample_method\": \"keyframe\", \"format\": \"url\", "
                + range(r, seconds, 600) + "}");
        rows.put("detect_objects (camera)", r -> "{" + v(anyCamera.apply(r)) + ", \"timestamp\": " + f(at(r, seconds, 1)) + "}");
        rows.put("recognize_activity", r -> {
            double t = at(r, seconds, 30);
            return "{" + v(anyStream.apply(r)) + ", \"start_time\": " + f(t) + ", \"end_time\": " + f(t + 30) + "}";
        });
        rows.put("get_transcript", r -> "{" + v(anyStream.apply(r)) + ", " + range(r, seconds, 300) + "}");
        rows.put("detect_audio_events", r -> "{" + v(anyStream.apply(r)) + ", " + range(r, seconds, 300) + "}");
        if (!entities.isEmpty()) {
            rows.put("track_entity (camera)", r -> {
                String[] e = entities.get(r.nextInt(entities.size())).split("\t");
                return "{" + v(e[0]) + ", \"entity_id\": \"" + e[1] + "\"}";
            });
            rows.put("spatial_relation (camera)", r -> {
                String[] e = entities.get(r.nextInt(entities.size())).split("\t");
                return "{" + v(e[0]) + ", \"timestamp\": " + e[2] + ", \"subject\": \"" + e[1] + "\"}";
            });
        }
        rows.put("list_entities (camera)", r -> "{" + v(anyCamera.apply(r)) + "}");
        rows.put("temporal_search", r -> "{" + v(anyScreen.apply(r)) + ", \"query\": " + q(phrases, r)
                + (r.nextBoolean() ? ", " + range(r, seconds, 3600) : "") + "}");
        rows.put("search_segments_by_semantics", r -> "{" + v(anyScreen.apply(r)) + ", \"query\": " + q(phrases, r)
                + (r.nextBoolean() ? ", " + range(r, seconds, 3600) : "") + "}");
        rows.put("find_similar_segments", r -> {
            double t = at(r, seconds, 6);
            return "{" + v(anyScreen.apply(r)) + ", \"example_segment\": {\"start_time\": " + f(t) + ", \"end_time\": " + f(t + 6) + "}}";
        });
        rows.put("read_memory", r -> "{" + v(anyScreen.apply(r)) + ", \"query\": " + q(phrases, r) + "}");
        rows.put("POST /v1/ask (evidence mode)", r -> "{\"question\": " + quote("When did I see " + phrases.get(r.nextInt(phrases.size())) + "?")
                + ", \"stream_ids\": [\"" + anyScreen.apply(r) + "\"]}");
        return rows;
    }

    /** Hundreds of distinct queries: spans the screens showed, and the same words asked as a person would. */
    static List<String> queries(List<String> spans) {
        List<String> out = new ArrayList<>();
        String[] asks = {"where was %s", "the page about %s", "%s in the terminal", "when did I read %s", "%s"};
        for (int i = 0; i < spans.size() && out.size() < 600; i++) {
            String s = spans.get(i);
            out.add(String.format(Locale.ROOT, asks[i % asks.length], s));
        }
        out.addAll(List.of("licence terms", "copyright notice", "manual page options", "changelog entry", "the chat about the release",
                "files in the work folder", "editing the notes", "the document I was reading"));
        return out.stream().distinct().toList();
    }

    private static String quote(String s) {
        return Json.MAPPER.getNodeFactory().textNode(s).toString();
    }

    private static String v(String stream) {
        return "\"video_id\": \"" + stream + "\"";
    }

    private static String q(List<String> phrases, Random r) {
        return quote(phrases.get(r.nextInt(phrases.size())));
    }

    private static double at(Random r, long seconds, double room) {
        return Math.floor(r.nextDouble() * Math.max(1, seconds - room) * 10) / 10;
    }

    private static String range(Random r, long seconds, double wanted) {
        double len = Math.min(wanted, seconds / 2.0);
        double t = at(r, seconds, len);
        return "\"time_range\": {\"start_time\": " + f(t) + ", \"end_time\": " + f(t + len) + "}";
    }

    private static String f(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }

    private static void queries(String base, ScaleHistory history, List<String> screens, List<String> cameras, long seconds, int rate,
            int rowSeconds, int warmup, double days) throws Exception {
        List<String> entities = new ArrayList<>();
        List<double[]> sightings = history.sightings();
        Random pick = new Random(7);
        for (int i = 0; i < 20 && !sightings.isEmpty() && !cameras.isEmpty(); i++) {
            double[] s = sightings.get(pick.nextInt(sightings.size()));
            String camera = cameras.get(0);
            String body = String.format(Locale.ROOT, "{\"video_id\": \"%s\", \"timestamp\": %.3f, \"bbox\": [%.4f, %.4f, %.4f, %.4f], "
                    + "\"entity_hint\": \"person %d\"}", camera, s[0], s[1], s[2], s[3], s[4], i);
            JsonNode e = post(base, "/v1/tools/register_entity", body);
            if (e.hasNonNull("entity_id")) {
                entities.add(camera + "\t" + e.path("entity_id").asText() + "\t" + f(s[0]));
            }
        }
        System.out.println("registered " + entities.size() + " entities on camera tracks; " + queries(history.phrases()).size() + " distinct queries");
        Map<String, Function<Random, String>> rows = rows(history, screens, cameras, seconds, entities);
        Random rnd = new Random(35);
        if (warmup > 0) {
            List<HttpRequest> all = new ArrayList<>();
            for (int i = 0; i < rate * warmup; i++) {
                List<String> names = new ArrayList<>(rows.keySet());
                String row = names.get(i % names.size());
                all.add(request(base, row, rows.get(row) == null ? null : rows.get(row).apply(rnd)));
            }
            ToolLatencyBench.run(all, rate, warmup);
            ToolLatencyBench.drain(base);
        }
        System.out.printf(Locale.ROOT, "%nQueries at %.2f days of history: %d requests/s open loop for %d s per row, every request with its own "
                + "arguments, against %s; %s%n", days, rate, rowSeconds, base, ToolLatencyBench.loadAverage());
        System.out.println("| call | p50 ms | p99 ms | max ms | non-2xx | p50 / ref p50 | p99 / ref p99 | read-cache hits |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        double refP50 = Double.NaN;
        double refP99 = Double.NaN;
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, Function<Random, String>> row : rows.entrySet()) {
            List<HttpRequest> reqs = new ArrayList<>();
            for (int i = 0; i < rate * (rowSeconds + 1); i++) {
                reqs.add(request(base, row.getKey(), row.getValue() == null ? null : row.getValue().apply(rnd)));
            }
            if (row.getValue() != null) {
                String body = row.getValue().apply(rnd);
                HttpResponse<String> one = HTTP.send(request(base, row.getKey(), body), HttpResponse.BodyHandlers.ofString());
                if (one.statusCode() / 100 != 2) {
                    notes.add(row.getKey() + ": " + one.statusCode() + " " + one.body().substring(0, Math.min(160, one.body().length())));
                }
            }
            ToolLatencyBench.run(reqs.subList(0, rate), rate, 1); // warm-up, arguments not reused below
            double[] before = cacheGets(base);
            double[] lat = ToolLatencyBench.run(reqs.subList(rate, reqs.size()), rate, rowSeconds);
            double[] after = cacheGets(base);
            ToolLatencyBench.drain(base);
            double p50 = ToolLatencyBench.pct(lat, 0.5);
            double p99 = ToolLatencyBench.pct(lat, 0.99);
            if (Double.isNaN(refP99)) {
                refP50 = p50;
                refP99 = p99;
            }
            double hits = after[0] - before[0];
            double lookups = hits + after[1] - before[1];
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %d | %.1f | %.1f | %s |%n", row.getKey(), p50, p99, lat[lat.length - 2],
                    (long) lat[lat.length - 1], p50 / refP50, p99 / refP99,
                    lookups == 0 ? "no lookups" : String.format(Locale.ROOT, "%.0f%% of %.0f", 100 * hits / lookups, lookups));
        }
        notes.forEach(n -> System.out.println("non-2xx: " + n));
        double[] heap = heap(base);
        System.out.printf(Locale.ROOT, "%nQuery service heap after the queries (its own JVM, default heap)%n");
        System.out.println("| heap used MB | heap committed MB | heap max MB |");
        System.out.println("|---:|---:|---:|");
        System.out.printf(Locale.ROOT, "| %.0f | %.0f | %.0f |%n", heap[0] / 1e6, heap[1] / 1e6, heap[2] / 1e6);
    }

    private static HttpRequest request(String base, String row, String body) {
        if (body == null) {
            return HttpRequest.newBuilder(URI.create(base + "/v1/tools")).timeout(Duration.ofSeconds(10)).build();
        }
        String path = row.startsWith("POST /v1/ask") ? "/v1/ask" : "/v1/tools/" + row.split(" ")[0];
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static JsonNode post(String base, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? Json.MAPPER.readTree(r.body()) : Json.MAPPER.createObjectNode();
    }

    private static String metrics(String base) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Read-cache hits and misses so far, summed over the service's caches. */
    static double[] cacheGets(String base) throws Exception {
        return cacheGets(metrics(base).lines().toList());
    }

    static double[] cacheGets(List<String> lines) {
        double[] out = new double[2];
        for (String l : lines) {
            if (l.startsWith("cache_gets_total{")) {
                double value = Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
                out[l.contains("result=\"hit\"") ? 0 : 1] += value;
            }
        }
        return out;
    }

    /** Heap used, committed and max in bytes, summed over the heap's pools. */
    private static double[] heap(String base) throws Exception {
        double[] out = new double[3];
        String[] names = {"jvm_memory_used_bytes{", "jvm_memory_committed_bytes{", "jvm_memory_max_bytes{"};
        for (String l : metrics(base).lines().toList()) {
            for (int i = 0; i < 3; i++) {
                if (l.startsWith(names[i]) && l.contains("area=\"heap\"")) {
                    double value = Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
                    out[i] += Math.max(0, value);
                }
            }
        }
        return out;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                o.put("days", args[i]);
                continue;
            }
            String name = args[i].substring(2);
            o.put(name, FLAGS.contains(name) ? "true" : args[++i]);
        }
        return o;
    }
}
