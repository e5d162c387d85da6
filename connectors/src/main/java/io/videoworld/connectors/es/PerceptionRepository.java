package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hybrid search over what inference read in keyframes: BM25 on the OCR text and k-nearest
 * neighbours on its embedding, each normalised to [0, 1] and averaged (the server has no RRF
 * retriever). Either half may be missing (no embedder, no text match).
 */
public final class PerceptionRepository {
    /** A keyframe that matched, with its text and a score in [0, 1]. */
    public record Match(String streamId, long epochMs, long frameIndex, long ptsMs, String text, double score) {}

    private final ElasticsearchClient client;

    public PerceptionRepository(ElasticsearchClient client) {
        this.client = client;
    }

    public List<Match> search(String streamId, long epochMs, String text, float[] vector, int k) throws IOException {
        Map<Long, Match> byFrame = new HashMap<>();
        Map<Long, double[]> scores = new HashMap<>();
        try {
            Query scope = Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                    .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))));
            List<Hit<JsonNode>> bm25 = text == null || text.isBlank() ? List.of()
                    : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(k).source(src -> src.filter(f -> f.excludes("*_embedding", "image_descriptor")))
                            .query(q -> q.bool(b -> b.filter(scope).must(m -> m.match(mt -> mt.field("text").query(text))))), JsonNode.class)
                    .hits().hits();
            double top = bm25.stream().mapToDouble(h -> h.score() == null ? 0 : h.score()).max().orElse(1);
            for (Hit<JsonNode> h : bm25) {
                Match m = match(h, 0);
                byFrame.put(m.frameIndex(), m);
                scores.computeIfAbsent(m.frameIndex(), x -> new double[2])[0] = (h.score() == null ? 0 : h.score()) / top;
            }
            if (vector != null) {
                List<Float> qv = new ArrayList<>();
                for (float f : vector) {
                    qv.add(f);
                }
                for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(k)
                        .source(src -> src.filter(f -> f.excludes("*_embedding", "image_descriptor")))
                        .knn(kn -> kn.field("text_embedding").queryVector(qv).k(k).numCandidates(Math.max(50, k * 5)).filter(scope)),
                        JsonNode.class).hits().hits()) {
                    Match m = match(h, 0);
                    byFrame.putIfAbsent(m.frameIndex(), m);
                    // Elasticsearch reports cosine kNN scores as (1 + cos) / 2.
                    scores.computeIfAbsent(m.frameIndex(), x -> new double[2])[1] = h.score() == null ? 0 : h.score();
                }
            }
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
        boolean both = vector != null && text != null && !text.isBlank();
        List<Match> out = new ArrayList<>();
        byFrame.forEach((frame, m) -> {
            double[] s = scores.get(frame);
            double score = both ? (s[0] + s[1]) / 2 : Math.max(s[0], s[1]);
            out.add(new Match(m.streamId(), m.epochMs(), m.frameIndex(), m.ptsMs(), m.text(), score));
        });
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return out;
    }

    /** A keyframe's stored vectors. */
    public record Vectors(long frameIndex, long ptsMs, String text, float[] textEmbedding, float[] imageDescriptor) {}

    /** The analysed keyframes of a push between two presentation times. */
    public List<Vectors> inRange(String streamId, long epochMs, long fromPtsMs, long toPtsMs) throws IOException {
        try {
            List<Vectors> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(200)
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

    /** The {@code k} keyframes of a push nearest a vector in {@code field} (text_embedding or image_descriptor), score (1 + cos) / 2. */
    public List<Match> nearest(String streamId, long epochMs, String field, float[] vector, int k) throws IOException {
        List<Float> qv = new ArrayList<>();
        for (float f : vector) {
            qv.add(f);
        }
        Query scope = Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))));
        try {
            List<Match> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PERCEPTION_INDEX).size(k)
                    .source(src -> src.filter(f -> f.excludes("*_embedding", "image_descriptor")))
                    .knn(kn -> kn.field(field).queryVector(qv).k(k).numCandidates(Math.max(50, k * 5)).filter(scope)),
                    JsonNode.class).hits().hits()) {
                out.add(match(h, h.score() == null ? 0 : h.score()));
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

    private static Match match(Hit<JsonNode> h, double score) {
        JsonNode s = h.source();
        return new Match(s.path("stream_id").asText(), s.path("epoch_ms").asLong(), s.path("frame_index").asLong(),
                s.path("pts_ms").asLong(), s.path("text").asText(""), score);
    }
}
