package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Streams as a whole across every index: the list with per-stream counts (one terms aggregation
 * per index), deleting a stream's documents everywhere, and expiring documents by age. The server
 * has no {@code _delete_by_query} (its reindex module is not in the distribution), so deletion is
 * search, bulk delete, refresh, repeated until nothing matches.
 */
public final class StreamIndex {
    private static final int PAGE = 1000;
    private final ElasticsearchClient client;

    public StreamIndex(ElasticsearchClient client) {
        this.client = client;
    }

    /** Every stream's document (at most 10,000 streams, Elasticsearch's result window). */
    public List<VideoDoc> streams() throws IOException {
        SearchResponse<VideoDoc> r = client.search(s -> s.index(Names.VIDEOS_INDEX).ignoreUnavailable(true).size(10_000)
                .sort(o -> o.field(f -> f.field("stream_id"))), VideoDoc.class);
        return r.hits().hits().stream().map(Hit::source).toList();
    }

    /** Documents per stream in {@code index}, narrowed by {@code filter} (null: all). */
    public Map<String, Long> countByStream(String index, Query filter) throws IOException {
        SearchResponse<Void> r = client.search(s -> s.index(index).ignoreUnavailable(true).size(0)
                .query(filter == null ? Query.of(q -> q.matchAll(m -> m)) : filter)
                .aggregations("streams", a -> a.terms(t -> t.field("stream_id").size(10_000))), Void.class);
        Map<String, Long> out = new HashMap<>();
        if (r.aggregations() != null && r.aggregations().get("streams") != null) {
            r.aggregations().get("streams").sterms().buckets().array().forEach(b -> out.put(b.key().stringValue(), b.docCount()));
        }
        return out;
    }

    /** The sum of a numeric field per stream in {@code index}, narrowed by {@code filter} (null: all). */
    public Map<String, Long> sumByStream(String index, String field, Query filter) throws IOException {
        SearchResponse<Void> r = client.search(s -> s.index(index).ignoreUnavailable(true).size(0)
                .query(filter == null ? Query.of(q -> q.matchAll(m -> m)) : filter)
                .aggregations("streams", a -> a.terms(t -> t.field("stream_id").size(10_000))
                        .aggregations("sum", x -> x.sum(m -> m.field(field)))), Void.class);
        Map<String, Long> out = new HashMap<>();
        if (r.aggregations() != null && r.aggregations().get("streams") != null) {
            r.aggregations().get("streams").sterms().buckets().array()
                    .forEach(b -> out.put(b.key().stringValue(), Math.round(b.aggregations().get("sum").sum().value())));
        }
        return out;
    }

    /** The oldest {@code size} documents {@code filter} matches by {@code timeField}, each source (the fields named) with its {@code _id}. */
    public List<JsonNode> oldest(String index, Query filter, String timeField, int size, String... fields) throws IOException {
        SearchResponse<JsonNode> r = client.search(s -> s.index(index).ignoreUnavailable(true).size(size).query(filter)
                .sort(o -> o.field(f -> f.field(timeField).order(co.elastic.clients.elasticsearch._types.SortOrder.Asc)))
                .source(src -> src.filter(f -> f.includes(List.of(fields)))), JsonNode.class);
        List<JsonNode> out = new ArrayList<>();
        for (Hit<JsonNode> h : r.hits().hits()) {
            com.fasterxml.jackson.databind.node.ObjectNode doc = h.source() == null ? io.videoworld.core.Json.MAPPER.createObjectNode()
                    : (com.fasterxml.jackson.databind.node.ObjectNode) h.source().deepCopy();
            doc.put("_id", h.id());
            out.add(doc);
        }
        return out;
    }

    /** The distinct values of a numeric field in {@code index} (at most 10,000). */
    public List<Long> terms(String index, String field) throws IOException {
        SearchResponse<Void> r = client.search(s -> s.index(index).ignoreUnavailable(true).size(0)
                .aggregations("values", a -> a.terms(t -> t.field(field).size(10_000))), Void.class);
        List<Long> out = new ArrayList<>();
        if (r.aggregations() != null && r.aggregations().get("values") != null) {
            r.aggregations().get("values").lterms().buckets().array().forEach(b -> out.add(b.key()));
        }
        return out;
    }

    /** Deletes every document of the stream in every index; returns how many. */
    public long deleteStream(String streamId, List<String> indices) throws IOException {
        long n = 0;
        Query q = Query.of(b -> b.term(t -> t.field("stream_id").value(streamId)));
        for (String index : indices) {
            n += deleteWhere(index, q, null);
        }
        return n;
    }

    /**
     * Deletes the documents of {@code index} that {@code query} matches, handing each one's source
     * (only the fields named in {@code fields}) to {@code each} first, e.g. to delete a stored frame.
     */
    public long deleteWhere(String index, Query query, Consumer<JsonNode> each, String... fields) throws IOException {
        long deleted = 0;
        while (true) {
            SearchResponse<JsonNode> r = client.search(s -> s.index(index).ignoreUnavailable(true).size(PAGE).query(query)
                    .source(src -> fields.length == 0 ? src.fetch(false) : src.filter(f -> f.includes(List.of(fields)))), JsonNode.class);
            List<Hit<JsonNode>> hits = r.hits().hits();
            if (hits.isEmpty()) {
                return deleted;
            }
            List<BulkOperation> ops = new ArrayList<>();
            for (Hit<JsonNode> h : hits) {
                if (each != null && h.source() != null) {
                    each.accept(h.source());
                }
                ops.add(BulkOperation.of(o -> o.delete(d -> d.index(h.index()).id(h.id()))));
            }
            BulkResponse b = client.bulk(x -> x.operations(ops));
            if (b.errors()) {
                var failed = b.items().stream().filter(i -> i.error() != null && i.status() != 404).findFirst();
                if (failed.isPresent()) {
                    throw new IOException("deleting from " + index + " failed: " + failed.get().error().reason());
                }
            }
            deleted += hits.size();
            client.indices().refresh(x -> x.index(index));
        }
    }

    /** A range query: {@code field} strictly before {@code ms}. */
    public static Query before(String field, long ms) {
        return Query.of(q -> q.range(r -> r.untyped(u -> u.field(field).lt(JsonData.of(ms)))));
    }
}
