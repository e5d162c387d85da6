package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of what inference found in keyframes ({@code vw-perception}): {@link HybridSearch} over
 * the OCR text and its embedding, nearest neighbours of any stored vector, the vectors of a time
 * range and the text lines near a time.
 */
public final class PerceptionRepository {
    /** A keyframe that matched, with its text and a score in [0, 1]. */
    public record Match(String streamId, long epochMs, long frameIndex, long ptsMs, String text, double score) {}

    /** Source fields not returned: the vectors. */
    private static final List<String> VECTORS = List.of("*_embedding", "image_descriptor");

    private final ElasticsearchClient client;
    /** Searches and vector reads by their arguments: a keyframe's analysis never changes once written. */
    private final TtlCache<String, List<?>> reads;

    public PerceptionRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a search's answer is reused for the same arguments (0: never) */
    public PerceptionRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.reads = new TtlCache<>(cacheMs);
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> cached(String key, TtlCache.Loader<String, List<T>> read) throws IOException {
        return (List<T>) reads.get(key, k -> List.copyOf(read.load(k)));
    }

    /** Keyframes of a push whose text matches, by BM25 on the OCR text and kNN on its embedding, fused; best first. */
    public List<Match> search(String streamId, long epochMs, String text, float[] vector, int k) throws IOException {
        return search(streamId, epochMs, text, vector, k, ScreenFilter.NONE);
    }

    /** {@link #search(String, long, String, float[], int)} over the keyframes {@code screen} admits only. */
    public List<Match> search(String streamId, long epochMs, String text, float[] vector, int k, ScreenFilter screen) throws IOException {
        return cached(String.join("\u0000", "search", streamId, String.valueOf(epochMs), String.valueOf(text), vectorKey(vector),
                String.valueOf(k), String.valueOf(screen)), key -> readSearch(streamId, epochMs, text, vector, k, screen));
    }

    /** A vector as part of a cache key. */
    static String vectorKey(float[] v) {
        return v == null ? "-" : v.length + ":" + java.util.Arrays.hashCode(v);
    }

    private List<Match> readSearch(String streamId, long epochMs, String text, float[] vector, int k, ScreenFilter screen) throws IOException {
        List<Match> out = new ArrayList<>();
        Query scope = screen.isEmpty() ? scope(streamId, epochMs)
                : Query.of(q -> q.bool(b -> b.filter(scope(streamId, epochMs)).filter(screen.perceptionClauses())));
        for (HybridSearch.Scored s : HybridSearch.search(client, new HybridSearch.Request(Names.PERCEPTION_INDEX, scope,
                List.of("text"), "text_embedding", VECTORS, false), text, vector, k)) {
            out.add(match(s.source(), s.score()));
        }
        return out;
    }

    private static Query scope(String streamId, long epochMs) {
        return Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))));
    }

    /** A keyframe's stored vectors. */
    public record Vectors(long frameIndex, long ptsMs, String text, float[] textEmbedding, float[] imageDescriptor) {}

    /** The analysed keyframes of a push between two presentation times. */
    public List<Vectors> inRange(String streamId, long epochMs, long fromPtsMs, long toPtsMs) throws IOException {
        return cached(String.join("\u0000", "range", streamId, String.valueOf(epochMs), String.valueOf(fromPtsMs), String.valueOf(toPtsMs)),
                key -> readRange(streamId, epochMs, fromPtsMs, toPtsMs, 200, SortOrder.Asc));
    }

    /**
     * The last analysed keyframe of a push at or before {@code atPtsMs} and not before
     * {@code fromPtsMs}: what was on screen at that time when a gated stream analysed nothing
     * newer, because nothing changed.
     */
    public List<Vectors> lastBefore(String streamId, long epochMs, long fromPtsMs, long atPtsMs) throws IOException {
        return cached(String.join("\u0000", "last", streamId, String.valueOf(epochMs), String.valueOf(fromPtsMs), String.valueOf(atPtsMs)),
                key -> readRange(streamId, epochMs, fromPtsMs, atPtsMs, 1, SortOrder.Desc));
    }

    private List<Vectors> readRange(String streamId, long epochMs, long fromPtsMs, long toPtsMs, int size, SortOrder order) throws IOException {
        try {
            List<Vectors> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(size).sort(o -> o.field(f -> f.field("pts_ms").order(order)))
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                            .filter(f -> f.range(r -> r.number(n -> n.field("pts_ms").gte((double) fromPtsMs).lte((double) toPtsMs)))))),
                    JsonNode.class).hits().hits()) {
                JsonNode d = h.source();
                out.add(new Vectors(d.path("frame_index").asLong(), d.path("pts_ms").asLong(), d.path("text").asText(""),
                        floats(d.get("text_embedding")), floats(d.get("image_descriptor"))));
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /**
     * The frame numbers of the analysed keyframes of a push between two presentation times, in
     * time order: {@link #inRange} without the text and vectors, which a clip's frame list does
     * not need and whose parsing was most of the cost of that read (560 floats per keyframe).
     */
    public List<Long> framesInRange(String streamId, long epochMs, long fromPtsMs, long toPtsMs) throws IOException {
        return cached(String.join("\u0000", "frames", streamId, String.valueOf(epochMs), String.valueOf(fromPtsMs), String.valueOf(toPtsMs)),
                key -> {
                    try {
                        List<Long> out = new ArrayList<>();
                        for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(200)
                                .source(src -> src.filter(f -> f.includes("frame_index")))
                                .sort(o -> o.field(f -> f.field("pts_ms")))
                                .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                                        .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                                        .filter(f -> f.range(r -> r.number(n -> n.field("pts_ms").gte((double) fromPtsMs).lte((double) toPtsMs)))))),
                                JsonNode.class).hits().hits()) {
                            out.add(h.source().path("frame_index").asLong());
                        }
                        return out;
                    } catch (ElasticsearchException e) {
                        if (e.status() == 404) {
                            return List.<Long>of();
                        }
                        throw e;
                    }
                });
    }

    /** The {@code k} keyframes of a push nearest a vector in {@code field} (text_embedding or image_descriptor), score (1 + cos) / 2. */
    public List<Match> nearest(String streamId, long epochMs, String field, float[] vector, int k) throws IOException {
        return cached(String.join("\u0000", "nearest", streamId, String.valueOf(epochMs), field, vectorKey(vector), String.valueOf(k)),
                key -> readNearest(streamId, epochMs, field, vector, k));
    }

    private List<Match> readNearest(String streamId, long epochMs, String field, float[] vector, int k) throws IOException {
        List<Float> qv = HybridSearch.queryVector(vector);
        Query scope = scope(streamId, epochMs);
        try {
            List<Match> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(k)
                    .source(src -> src.filter(f -> f.excludes(VECTORS)))
                    // Elasticsearch stores these vectors quantized (int8 by default) and scores by the quantized copy, whose error
                    // moves with the index's other vectors; the similarity we report is rescored on the raw floats.
                    .knn(kn -> kn.field(field).queryVector(qv).k(k).numCandidates(Math.max(50, k * 5)).filter(scope)
                            .rescoreVector(r -> r.oversample(2f))),
                    JsonNode.class).hits().hits()) {
                out.add(match(h.source(), h.score() == null ? 0 : h.score()));
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** OCR lines (text, x, y, width, height in pixels) of the analysed keyframe nearest a time, within {@code maxOffsetMs}. */
    public List<io.videoworld.core.TextLine> linesNear(String streamId, long epochMs, long ptsMs, long maxOffsetMs) throws IOException {
        return cached(String.join("\u0000", "lines", streamId, String.valueOf(epochMs), String.valueOf(ptsMs), String.valueOf(maxOffsetMs)),
                key -> readLinesNear(streamId, epochMs, ptsMs, maxOffsetMs));
    }

    private List<io.videoworld.core.TextLine> readLinesNear(String streamId, long epochMs, long ptsMs, long maxOffsetMs) throws IOException {
        try {
            JsonNode best = null;
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(20)
                    .source(src -> src.filter(f -> f.includes("pts_ms", "lines")))
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                            .filter(f -> f.range(r -> r.number(n -> n.field("pts_ms").gte((double) ptsMs - maxOffsetMs).lte((double) ptsMs + maxOffsetMs)))))),
                    JsonNode.class).hits().hits()) {
                if (best == null || Math.abs(h.source().path("pts_ms").asLong() - ptsMs) < Math.abs(best.path("pts_ms").asLong() - ptsMs)) {
                    best = h.source();
                }
            }
            List<io.videoworld.core.TextLine> out = new ArrayList<>();
            if (best != null) {
                for (JsonNode l : best.path("lines")) {
                    out.add(new io.videoworld.core.TextLine(l.path("text").asText(), l.path("x").asInt(), l.path("y").asInt(),
                            l.path("width").asInt(), l.path("height").asInt(), l.path("score").asDouble()));
                }
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    private static float[] floats(JsonNode array) {
        if (array == null || !array.isArray()) {
            return null;
        }
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) array.get(i).asDouble();
        }
        return out;
    }

    private static Match match(JsonNode s, double score) {
        return new Match(s.path("stream_id").asText(), s.path("epoch_ms").asLong(), s.path("frame_index").asLong(),
                s.path("pts_ms").asLong(), s.path("text").asText(""), score);
    }

    /** Each read cache's hits, misses and loads, by name, for the service's metrics. */
    public java.util.Map<String, com.github.benmanes.caffeine.cache.stats.CacheStats> cacheStats() {
        return java.util.Map.of("reads", reads.stats());
    }
}
