package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link StackBench} reads back from Elasticsearch while a run goes on, each poll: how far each
 * stream's frame documents reach (every frame has one, in order, so a frame's lag is the time its
 * stream's frontier passed it), and each new perception and detection document with its lag from
 * the frame's capture (event) time to the poll that first saw it searchable.
 */
final class StackProbe {
    /** Documents whose frame is older than this at the poll are looked for no more (and count as lost to the lag figures). */
    private static final long WINDOW_MS = 180_000;

    private static final java.util.regex.Pattern CARRIED = java.util.regex.Pattern.compile("carried from frame (\\d+)");
    private final ElasticsearchClient es;
    private final long epoch;
    private final String prefix;
    private final Map<String, Long> frameStep;
    private final Map<String, Long> frontier = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    final List<Double> frameLag = new ArrayList<>();
    final List<Double> screenPerceptionLag = new ArrayList<>();
    final List<Double> cameraPerceptionLag = new ArrayList<>();
    final List<Double> detectionLag = new ArrayList<>();
    /** Per lag kind ("frame doc", "screen", "camera", "detection"): {capture second since the push began, lag s}, to tell start-up from growth. */
    final Map<String, List<double[]>> series = new java.util.LinkedHashMap<>();
    long framesIndexed;
    long perceived;
    long perceptionFailed;
    long perceptionShed;
    /** What a shed keyframe loses: how much older (s) the keyframe its text was carried from is; {@link #shedNothingCarried} had none. */
    final List<Double> shedTextAge = new ArrayList<>();
    long shedNothingCarried;
    long detected;
    long lastNewMs;

    /** {@code frameStep}: each stream's frame interval in ms (1000 for a 1 fps screen, 40 for a 25 fps camera). */
    StackProbe(ElasticsearchClient es, long epoch, String prefix, Map<String, Long> frameStep) {
        this.es = es;
        this.epoch = epoch;
        this.prefix = prefix;
        this.frameStep = frameStep;
    }

    void poll() throws Exception {
        long now = System.currentTimeMillis();
        frames(now);
        perDocument(Names.PERCEPTION_INDEX, now);
        perDocument(Names.DETECTIONS_INDEX, now);
    }

    private boolean exists(String index) throws Exception {
        return es.indices().exists(e -> e.index(index)).value();
    }

    private void frames(long now) throws Exception {
        if (!exists(Names.FRAMES_INDEX)) {
            return;
        }
        var resp = es.search(s -> s.index(Names.FRAMES_INDEX).size(0).query(q -> q.bool(b -> b.filter(f -> f.prefix(p -> p.field("stream_id").value(prefix)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epoch)))))
                .aggregations("s", a -> a.terms(t -> t.field("stream_id").size(1000)).aggregations("m", m -> m.max(x -> x.field("pts_ms")))), Void.class);
        for (StringTermsBucket bucket : resp.aggregations().get("s").sterms().buckets().array()) {
            String id = bucket.key().stringValue();
            long step = frameStep.getOrDefault(id, 1000L);
            long upTo = (long) bucket.aggregations().get("m").max().value();
            long before = frontier.getOrDefault(id, -step);
            for (long pts = before + step; pts <= upTo; pts += step) {
                add("frame doc", frameLag, epoch + pts, now);
                framesIndexed++;
                lastNewMs = now;
            }
            frontier.put(id, Math.max(before, upTo));
        }
    }

    private void perDocument(String index, long now) throws Exception {
        if (!exists(index)) {
            return;
        }
        var resp = es.search(s -> s.index(index).size(5000).source(src -> src.filter(f -> f.includes("stream_id", "event_time_ms", "role", "perception_status",
                "frame_index", "perception_error")))
                .query(q -> q.bool(b -> b.filter(f -> f.prefix(p -> p.field("stream_id").value(prefix)))
                        .filter(f -> f.term(t -> t.field("epoch_ms").value(epoch)))
                        .filter(f -> f.range(r -> r.date(d -> d.field("event_time_ms").gte(String.valueOf(now - WINDOW_MS)).format("epoch_millis")))))),
                JsonNode.class);
        boolean perception = index.equals(Names.PERCEPTION_INDEX);
        for (Hit<JsonNode> h : resp.hits().hits()) {
            if (!seen.add(index + "/" + h.id())) {
                continue;
            }
            lastNewMs = now;
            JsonNode doc = h.source();
            if (!perception) {
                detected++;
                add("detection", detectionLag, doc.get("event_time_ms").asLong(), now);
                continue;
            }
            String status = doc.path("perception_status").asText("ok");
            // Shed keyframes were not perceived (text carried): counted apart, and not in the lag of what was perceived.
            if ("shed".equalsIgnoreCase(status)) {
                perceptionShed++;
                java.util.regex.Matcher m = CARRIED.matcher(doc.path("perception_error").asText(""));
                if (m.find()) {
                    long step = frameStep.getOrDefault(doc.get("stream_id").asText(), 1000L);
                    shedTextAge.add((doc.path("frame_index").asLong() - Long.parseLong(m.group(1))) * step / 1000.0);
                } else {
                    shedNothingCarried++;
                }
                continue;
            }
            perceived++;
            if (!"ok".equalsIgnoreCase(status)) {
                perceptionFailed++;
            }
            // Middle and last keyframes are chosen when their shot closes: their wait is the shot's length, not perception's.
            if (doc.hasNonNull("role") && !timely(doc.get("role").asText())) {
                continue;
            }
            boolean screen = doc.get("stream_id").asText().startsWith(prefix + "scr");
            add(screen ? "screen" : "camera", screen ? screenPerceptionLag : cameraPerceptionLag, doc.get("event_time_ms").asLong(), now);
        }
    }

    private void add(String kind, List<Double> lags, long eventTimeMs, long now) {
        double lag = (now - eventTimeMs) / 1000.0;
        lags.add(lag);
        series.computeIfAbsent(kind, k -> new ArrayList<>()).add(new double[] {(eventTimeMs - epoch) / 1000.0, lag});
    }

    /** Lag p50 / p99 / max per {@code bucketS} seconds of capture time, one row per bucket and a column per lag kind. */
    String overTime(int bucketS) {
        StringBuilder sb = new StringBuilder("| captured s |");
        int last = 0;
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            sb.append(' ').append(e.getKey()).append(" lag p50/p99/max s (n) |");
            for (double[] x : e.getValue()) {
                last = Math.max(last, (int) (x[0] / bucketS));
            }
        }
        sb.append("\n|---|").append("---:|".repeat(series.size())).append('\n');
        for (int b = 0; b <= last; b++) {
            sb.append(String.format("| %d-%d |", b * bucketS, (b + 1) * bucketS));
            for (List<double[]> xs : series.values()) {
                List<Double> in = new ArrayList<>();
                for (double[] x : xs) {
                    if ((int) (x[0] / bucketS) == b) {
                        in.add(x[1]);
                    }
                }
                sb.append(in.isEmpty() ? " - |" : String.format(" %.1f / %.1f / %.1f (%d) |", pct(in, 50), pct(in, 99), pct(in, 100), in.size()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static boolean timely(String role) {
        return KeyframeRef.FIRST.equals(role) || KeyframeRef.PERIODIC.equals(role);
    }

    static double pct(List<Double> xs, int p) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(xs);
        sorted.sort(Double::compare);
        return sorted.get(Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)));
    }
}
