package io.videoworld.query.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.GraphRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.Ids;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Seed 003's graph search over {@code vw-graph}: the plan's terms, triples and place search three
 * tiers of edges, each up to its allocation: high-level edges (entities and their relations),
 * low-level edges (events with clip ids) and utterances. The edges found become clips of at most
 * {@value #MAX_CLIP_MS} ms (best first, one per stretch of a stream), and the text the model reads
 * lists them by tier with their clip numbers.
 */
public final class GraphSearch {
    /** Longest clip cut from an edge: its start and the ten seconds after. */
    static final long MAX_CLIP_MS = 10_000;
    private static final Pattern SPEECH = Pattern.compile("\\b(say|says|said|saying|tell|told|talk|talked|talking|speak|spoke|mention|mentioned|"
            + "conversation|hear|heard|ask|asked|words?)\\b", Pattern.CASE_INSENSITIVE);

    private final GraphRepository graph;
    private final VideoRepository videos;
    private final SegmentRepository segments;

    public GraphSearch(GraphRepository graph, VideoRepository videos, SegmentRepository segments) {
        this.graph = graph;
        this.videos = videos;
        this.segments = segments;
    }

    /**
     * How many edges of each tier to retrieve (seed 003's allocation).
     *
     * @param high high-level edges
     * @param low low-level edges
     * @param conversations utterances
     */
    public record Allocation(int high, int low, int conversations) {
        /** Most edges of one tier. */
        public static final int MAX = 30;

        /** The model's {@code allocation} object where it gave one (k_high_level, k_low_level, k_conversations), else {@link #forQuestion}. */
        public static Allocation fromParse(JsonNode parsed, String question) {
            Allocation d = forQuestion(question);
            JsonNode a = parsed == null ? null : parsed.path("allocation");
            if (a == null || !a.isObject()) {
                return d;
            }
            return new Allocation(k(a, "k_high_level", d.high()), k(a, "k_low_level", d.low()), k(a, "k_conversations", d.conversations()));
        }

        /** Without a parse: 5 high-level, 10 low-level and 5 utterances, or 10 utterances and 5 low-level when the question asks what was said. */
        public static Allocation forQuestion(String question) {
            return question != null && SPEECH.matcher(question).find() ? new Allocation(5, 5, 10) : new Allocation(5, 10, 5);
        }

        private static int k(JsonNode a, String field, int fallback) {
            JsonNode v = a.path(field);
            return v.canConvertToInt() ? Math.max(0, Math.min(MAX, v.asInt())) : fallback;
        }

        /** As the trace shows it. */
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("k_high_level", high);
            m.put("k_low_level", low);
            m.put("k_conversations", conversations);
            return m;
        }
    }

    /** One edge found, with its score relative to the best edge of the search (0-1). */
    public record Edge(String id, String streamId, String level, String relation, String sourceLabel, String targetLabel, String text, long startMs,
            long endMs, List<String> frameIds, String clipId, double score) {}

    /** What the graph search found, by tier, each best first. */
    public record Found(List<Edge> high, List<Edge> low, List<Edge> utterances) {
        public static final Found NONE = new Found(List.of(), List.of(), List.of());

        public boolean isEmpty() {
            return high.isEmpty() && low.isEmpty() && utterances.isEmpty();
        }

        /** Every edge, best first. */
        public List<Edge> all() {
            List<Edge> all = new ArrayList<>(low);
            all.addAll(utterances);
            all.addAll(high);
            all.sort(Comparator.comparingDouble(Edge::score).reversed());
            return all;
        }

        /**
         * Seed 003's graph summary: the three tiers, each edge with the clip that cites it
         * ({@code [clip N]}) where one does, read or heard text quoted.
         */
        public String text(List<Evidence> clips) {
            StringBuilder sb = new StringBuilder();
            tier(sb, "High-Level Information (entities and their relations):", high, clips);
            tier(sb, "Low-Level Information (events with clip ids):", low, clips);
            tier(sb, "Conversations:", utterances, clips);
            return sb.toString();
        }

        private static void tier(StringBuilder sb, String title, List<Edge> edges, List<Evidence> clips) {
            sb.append(title).append('\n');
            if (edges.isEmpty()) {
                sb.append("(nothing relevant)\n");
            }
            for (Edge e : edges) {
                String clip = clips.stream().filter(c -> e.id().equals(edgeOf(c)))
                        .map(c -> "[clip " + c.clip() + "] ").findFirst().orElse("");
                sb.append(clip).append(e.sourceLabel()).append(' ').append(e.relation().replace('_', ' ')).append(' ').append(e.targetLabel())
                        .append(String.format(Locale.ROOT, " (stream %s, %.1f-%.1f s): \"%s\"", e.streamId(), e.startMs() / 1000.0, e.endMs() / 1000.0,
                                EvidenceSearch.abbreviate(e.text())))
                        .append('\n');
            }
        }
    }

    /** The edge a graph clip was cut from (its segment id is {@code edge:<id>}), or null. */
    static String edgeOf(Evidence c) {
        return c.segmentId() != null && c.segmentId().startsWith("edge:") ? c.segmentId().substring(5) : null;
    }

    /** Searches the three tiers in the named streams' current pushes, in [from, to] seconds. */
    public Found search(List<String> streams, double from, double to, QueryPlan plan, String question, Allocation k) throws IOException {
        List<GraphRepository.Scope> scopes = new ArrayList<>();
        for (String s : streams) {
            videos.find(s).ifPresent(v -> scopes.add(new GraphRepository.Scope(s, v.epochMs())));
        }
        long fromMs = Math.round(from * 1000);
        long toMs = to == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(to * 1000);
        String terms = plan.searchText(question);
        List<GraphRepository.Match> high = graph.edges(scopes, GraphDoc.HIGH, terms, plan.triples(), plan.place(), fromMs, toMs, k.high());
        List<GraphRepository.Match> low = graph.edges(scopes, GraphDoc.LOW, terms, plan.triples(), plan.place(), fromMs, toMs, k.low());
        List<GraphRepository.Match> said = graph.edges(scopes, GraphDoc.UTTERANCE, terms, plan.triples(), plan.place(), fromMs, toMs, k.conversations());
        double best = 0;
        for (List<GraphRepository.Match> l : List.of(high, low, said)) {
            for (GraphRepository.Match m : l) {
                best = Math.max(best, m.score());
            }
        }
        double top = best;
        return new Found(edges(high, top), ordered(edges(low, top), plan), edges(said, top));
    }

    private static List<Edge> edges(List<GraphRepository.Match> ms, double best) {
        List<Edge> out = new ArrayList<>();
        for (GraphRepository.Match m : ms) {
            JsonNode e = m.edge();
            List<String> frames = new ArrayList<>();
            e.path("frame_ids").forEach(f -> frames.add(f.asText()));
            out.add(new Edge(e.path("graph_id").asText(), e.path("stream_id").asText(), e.path("level").asText(), e.path("kind").asText(),
                    e.path("source_label").asText(), e.path("target_label").asText(), e.path("text").asText(), e.path("start_ms").asLong(),
                    e.path("end_ms").asLong(), frames, e.path("clip_id").asText(null), best > 0 ? Math.round(m.score() / best * 1000) / 1000.0 : 0));
        }
        return out;
    }

    /** Where the plan asks for the first or last time, the edges scoring near the best in time order. */
    static List<Edge> ordered(List<Edge> edges, QueryPlan plan) {
        if (plan.order() == null || edges.isEmpty()) {
            return edges;
        }
        double best = edges.stream().mapToDouble(Edge::score).max().orElse(0);
        List<Edge> tier = new ArrayList<>(edges.stream().filter(e -> e.score() >= EvidenceSearch.ORDER_TIER * best).toList());
        Comparator<Edge> byTime = Comparator.comparingLong(Edge::startMs);
        tier.sort("latest".equals(plan.order()) ? byTime.reversed() : byTime);
        List<Edge> out = new ArrayList<>(tier);
        edges.stream().filter(e -> !tier.contains(e)).forEach(out::add);
        return out;
    }

    /**
     * The clips the edges point at, numbered from {@code firstClip}, at most {@code max}: each edge's
     * start and at most ten seconds after, every tier's edges by score (where the plan asks for the
     * first or last time, those scoring near the best in time order); an edge whose clip overlaps
     * one already taken in its stream adds none. Frames: the edge's own evidence frames, else the keyframes of the clip's shots.
     */
    public List<Evidence> clips(Found found, QueryPlan plan, int firstClip, int max) throws IOException {
        List<Edge> order = ordered(found.all(), plan);
        List<Evidence> out = new ArrayList<>();
        Map<String, List<Segment>> shots = new LinkedHashMap<>();
        for (Edge e : order) {
            if (out.size() >= max) {
                break;
            }
            long a = e.startMs();
            long b = Math.max(a, Math.min(e.endMs(), a + MAX_CLIP_MS));
            boolean taken = out.stream().anyMatch(c -> c.streamId().equals(e.streamId()) && c.startTime() * 1000 < b && c.endTime() * 1000 > a
                    || (c.streamId().equals(e.streamId()) && c.startTime() * 1000 == a && c.endTime() * 1000 == b));
            if (taken) {
                continue;
            }
            List<String> frames = e.frameIds().stream().limit(3).toList();
            if (frames.isEmpty()) {
                frames = keyframes(shots, e.streamId(), a, b);
            }
            int clip = firstClip + out.size();
            String line = String.format(Locale.ROOT, "[clip %d] stream %s, %.1f-%.1f s: graph edge %s %s %s (%s): \"%s\"", clip, e.streamId(),
                    a / 1000.0, b / 1000.0, e.sourceLabel(), e.relation().replace('_', ' '), e.targetLabel(), e.level(),
                    EvidenceSearch.abbreviate(e.text()));
            List<String> episodes = e.clipId() != null && e.clipId().contains(":e:") ? List.of(e.clipId()) : List.of();
            out.add(new Evidence(clip, e.streamId(), "edge:" + e.id(), null, a / 1000.0, b / 1000.0, frames,
                    frames.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(), episodes, e.score(), e.text(), List.of(), line));
        }
        return out;
    }

    private List<String> keyframes(Map<String, List<Segment>> cache, String stream, long a, long b) throws IOException {
        List<Segment> shots = cache.get(stream);
        if (shots == null) {
            VideoDoc v = videos.find(stream).orElse(null);
            shots = v == null ? List.of() : segments.list(stream, v.epochMs(), Segment.SHOT);
            cache.put(stream, shots);
        }
        List<String> out = new ArrayList<>();
        for (Segment s : shots) {
            for (var k : s.keyframes()) {
                if (k.ptsMs() >= a && k.ptsMs() <= b && out.size() < 3) {
                    out.add(Ids.frame(stream, k.frameIndex()));
                }
            }
        }
        return out;
    }
}
