package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Read side of {@code vw-graph}: the edges of one level that match a question's terms, best first. */
public final class GraphRepository {
    private final ElasticsearchClient client;

    public GraphRepository(ElasticsearchClient client) {
        this.client = client;
    }

    /** A push of a stream: its edges are searched. */
    public record Scope(String streamId, long epochMs) {}

    /** An edge as stored, with its BM25 score (0 when listed without terms). */
    public record Match(JsonNode edge, double score) {}

    /**
     * Up to {@code k} edges of {@code level} in the pushes named, overlapping presentation times
     * {@code [fromMs, toMs]}: with terms, those matching them (text, labels, relation; the triples'
     * parts each against their own field, a place against the labels, boosted), best first; with
     * none, in time order. Empty when the index does not exist yet.
     *
     * @param terms the plan's search text, or blank
     * @param triples [subject, relation, object] parts, "?" or blank for unknown
     * @param place a place or application to boost, or null
     */
    public List<Match> edges(List<Scope> scopes, String level, String terms, List<List<String>> triples, String place, long fromMs, long toMs, int k)
            throws IOException {
        if (k <= 0 || scopes.isEmpty()) {
            return List.of();
        }
        BoolQuery.Builder b = new BoolQuery.Builder()
                .filter(f -> f.term(t -> t.field("type").value("edge")))
                .filter(f -> f.term(t -> t.field("level").value(level)))
                .filter(f -> f.range(r -> r.number(n -> n.field("start_ms").lte((double) toMs))))
                .filter(f -> f.range(r -> r.number(n -> n.field("end_ms").gte((double) fromMs))))
                .filter(f -> f.bool(s -> {
                    for (Scope sc : scopes) {
                        s.should(q -> q.bool(x -> x.filter(y -> y.term(t -> t.field("stream_id").value(sc.streamId())))
                                .filter(y -> y.term(t -> t.field("epoch_ms").value(sc.epochMs())))));
                    }
                    return s.minimumShouldMatch("1");
                }));
        boolean text = terms != null && !terms.isBlank();
        if (text) {
            b.should(q -> q.multiMatch(m -> m.fields("text", "source_label^2", "target_label^2", "kind^1.5").query(terms)));
            for (List<String> t : triples) {
                part(b, "source_label", t, 0);
                part(b, "kind", t, 1);
                part(b, "target_label", t, 2);
            }
            if (place != null && !place.isBlank()) {
                b.should(q -> q.multiMatch(m -> m.fields("source_label", "target_label", "text").query(place).boost(2f)));
            }
            b.minimumShouldMatch("1");
        }
        Query query = Query.of(q -> q.bool(b.build()));
        try {
            List<Match> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> {
                s.index(Names.GRAPH_INDEX).size(k).query(query);
                if (!text) {
                    s.sort(o -> o.field(f -> f.field("start_ms").order(SortOrder.Asc)));
                }
                return s;
            }, JsonNode.class).hits().hits()) {
                if (h.source() != null) {
                    out.add(new Match(h.source(), h.score() == null ? 0 : h.score()));
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

    private static void part(BoolQuery.Builder b, String field, List<String> triple, int i) {
        if (triple.size() <= i) {
            return;
        }
        String v = triple.get(i);
        if (v == null || v.isBlank() || "?".equals(v.strip())) {
            return;
        }
        b.should(q -> q.match(m -> m.field(field).query(v.strip()).boost(1.5f)));
    }
}
