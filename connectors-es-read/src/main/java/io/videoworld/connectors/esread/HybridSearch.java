package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.ErrorCause;
import co.elastic.clients.elasticsearch._types.ErrorResponse;
import co.elastic.clients.elasticsearch.core.msearch.MultiSearchResponseItem;
import co.elastic.clients.elasticsearch.core.msearch.RequestItem;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one hybrid search of the read side: BM25 over text fields, normalised by the best hit,
 * averaged with the k-nearest-neighbour score ((1 + cos) / 2, as Elasticsearch reports cosine) of
 * a vector field; either half alone when the other has nothing (no text, no embedder, no match).
 * The server has no RRF retriever, so the two are fused here. A missing index is no match.
 */
public final class HybridSearch {
    /** A document that matched: its id, its source (vectors left out) and the fused score in [0, 1]. */
    public record Scored(String id, JsonNode source, double score) {}

    /**
     * What to search.
     *
     * @param index the index
     * @param scope the filter every hit must pass (stream, push, time, level)
     * @param textFields fields BM25 runs on, boosts allowed ({@code summary^2})
     * @param vectorField the dense vector field kNN runs on
     * @param excludes source fields not to return (the vectors)
     * @param everythingWithoutQuery with neither text nor vector, whether every document in scope matches (score 1) or none does
     */
    record Request(String index, Query scope, List<String> textFields, String vectorField, List<String> excludes,
            boolean everythingWithoutQuery) {}

    private HybridSearch() {}

    /**
     * The {@code k} best of BM25 on {@code text} and the {@code k} nearest to {@code vector}, fused,
     * best first. Both halves go in one multi-search, one round trip.
     */
    static List<Scored> search(ElasticsearchClient client, Request r, String text, float[] vector, int k) throws IOException {
        boolean hasText = text != null && !text.isBlank();
        List<RequestItem> items = new ArrayList<>();
        if (hasText) {
            items.add(RequestItem.of(i -> i.header(h -> h.index(r.index())).body(b -> b.size(k)
                    .source(src -> src.filter(f -> f.excludes(r.excludes())))
                    .query(q -> q.bool(bb -> bb.filter(r.scope()).must(m -> m.multiMatch(mm -> mm.fields(r.textFields()).query(text))))))));
        }
        if (vector != null) {
            items.add(RequestItem.of(i -> i.header(h -> h.index(r.index())).body(b -> b.size(k)
                    .source(src -> src.filter(f -> f.excludes(r.excludes())))
                    .knn(kn -> kn.field(r.vectorField()).queryVector(queryVector(vector)).k(k).numCandidates(Math.max(50, k * 5))
                            .filter(r.scope())))));
        }
        boolean everything = !hasText && vector == null && r.everythingWithoutQuery();
        if (everything) {
            items.add(RequestItem.of(i -> i.header(h -> h.index(r.index())).body(b -> b.size(k)
                    .source(src -> src.filter(f -> f.excludes(r.excludes()))).query(r.scope()))));
        }
        if (items.isEmpty()) {
            return List.of();
        }
        List<MultiSearchResponseItem<JsonNode>> answers;
        try {
            answers = client.msearch(m -> m.searches(items), JsonNode.class).responses();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
        Map<String, JsonNode> docs = new LinkedHashMap<>();
        Map<String, double[]> scores = new HashMap<>();
        int at = 0;
        if (hasText) {
            List<Hit<JsonNode>> bm25 = hits(answers.get(at++));
            double top = bm25.stream().mapToDouble(h -> h.score() == null ? 0 : h.score()).max().orElse(1);
            for (Hit<JsonNode> h : bm25) {
                docs.put(h.id(), h.source());
                scores.computeIfAbsent(h.id(), x -> new double[2])[0] = (h.score() == null ? 0 : h.score()) / top;
            }
        }
        if (vector != null) {
            for (Hit<JsonNode> h : hits(answers.get(at++))) {
                docs.putIfAbsent(h.id(), h.source());
                scores.computeIfAbsent(h.id(), x -> new double[2])[1] = h.score() == null ? 0 : h.score();
            }
        }
        if (everything) {
            for (Hit<JsonNode> h : hits(answers.get(at))) {
                docs.put(h.id(), h.source());
                scores.put(h.id(), new double[] {1, 1});
            }
        }
        boolean both = vector != null && hasText;
        List<Scored> out = new ArrayList<>();
        docs.forEach((id, d) -> {
            double[] s = scores.get(id);
            out.add(new Scored(id, d, both ? (s[0] + s[1]) / 2 : Math.max(s[0], s[1])));
        });
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return out;
    }

    /** One search's hits; a missing index is no match, any other failure is raised as a search would raise it. */
    private static List<Hit<JsonNode>> hits(MultiSearchResponseItem<JsonNode> item) {
        if (item.isResult()) {
            return item.result().hits().hits();
        }
        ErrorCause cause = item.failure().error();
        if (item.failure().status() == 404 || "index_not_found_exception".equals(cause.type())) {
            return List.of();
        }
        throw new ElasticsearchException("msearch", new ErrorResponse.Builder().error(cause).status(item.failure().status()).build());
    }

    /** A query vector as the client takes it. */
    static List<Float> queryVector(float[] vector) {
        List<Float> qv = new ArrayList<>(vector.length);
        for (float f : vector) {
            qv.add(f);
        }
        return qv;
    }
}
