package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes of memory: the job's episodic events ({@code vw-episodes}) and the memories
 * tools write ({@code vw-memories}). Search is hybrid as elsewhere: BM25 over the text fields,
 * normalised by the best hit, averaged with the kNN score ((1 + cos) / 2) of the embedding; either
 * half alone when the other has nothing. Deleted (consolidated) events are gone from the index.
 */
public final class MemoryRepository {
    /** A document that matched, with its id and a score in [0, 1]. */
    public record Scored(String id, JsonNode source, double score) {}

    private final ElasticsearchClient client;

    public MemoryRepository(ElasticsearchClient client) {
        this.client = client;
    }

    /** Events of a push whose time overlaps [fromMs, toMs] of presentation time. */
    public List<Scored> searchEpisodes(String streamId, long epochMs, String text, float[] vector, long fromMs, long toMs, int k) throws IOException {
        Query scope = Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                .filter(f -> f.range(r -> r.number(n -> n.field("start_pts_ms").lte((double) toMs))))
                .filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte((double) fromMs))))));
        return hybrid(Names.EPISODES_INDEX, scope, List.of("summary^2", "details"), text, vector, k);
    }

    /** Memories of a stream at the given levels (empty: all) overlapping [from, to] seconds. */
    public List<Scored> searchMemories(String streamId, List<String> levels, String text, float[] vector, double from, double to, int k)
            throws IOException {
        Query scope = Query.of(q -> q.bool(b -> {
            b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                    .filter(f -> f.range(r -> r.number(n -> n.field("start_time").lte(to))))
                    .filter(f -> f.range(r -> r.number(n -> n.field("end_time").gte(from))));
            if (!levels.isEmpty()) {
                b.filter(f -> f.terms(t -> t.field("level").terms(v -> v.value(levels.stream().map(co.elastic.clients.elasticsearch._types.FieldValue::of).toList()))));
            }
            return b;
        }));
        return hybrid(Names.MEMORIES_INDEX, scope, List.of("content"), text, vector, k);
    }

    public Optional<JsonNode> episode(String id) throws IOException {
        return get(Names.EPISODES_INDEX, id);
    }

    public Optional<JsonNode> memory(String streamId, String memoryId) throws IOException {
        return get(Names.MEMORIES_INDEX, streamId + ":" + memoryId);
    }

    /** Writes a memory (its id is {@code <stream>:<memory_id>}) and makes it searchable at once. */
    public void save(String streamId, String memoryId, ObjectNode doc) throws IOException {
        EsIndices.ensure(client, List.of(Names.MEMORIES_INDEX));
        client.index(i -> i.index(Names.MEMORIES_INDEX).id(streamId + ":" + memoryId).document(doc).refresh(Refresh.True));
    }

    private Optional<JsonNode> get(String index, String id) throws IOException {
        try {
            var r = client.get(g -> g.index(index).id(id).sourceExcludes("embedding"), JsonNode.class);
            return r.found() ? Optional.of(r.source()) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private List<Scored> hybrid(String index, Query scope, List<String> fields, String text, float[] vector, int k) throws IOException {
        Map<String, JsonNode> docs = new LinkedHashMap<>();
        Map<String, double[]> scores = new HashMap<>();
        try {
            if (text != null && !text.isBlank()) {
                List<Hit<JsonNode>> bm25 = client.search(s -> s.index(index).size(k).source(src -> src.filter(f -> f.excludes("embedding")))
                        .query(q -> q.bool(b -> b.filter(scope).must(m -> m.multiMatch(mm -> mm.fields(fields).query(text))))), JsonNode.class)
                        .hits().hits();
                double top = bm25.stream().mapToDouble(h -> h.score() == null ? 0 : h.score()).max().orElse(1);
                for (Hit<JsonNode> h : bm25) {
                    docs.put(h.id(), h.source());
                    scores.computeIfAbsent(h.id(), x -> new double[2])[0] = (h.score() == null ? 0 : h.score()) / top;
                }
            }
            if (vector != null) {
                List<Float> qv = new ArrayList<>();
                for (float f : vector) {
                    qv.add(f);
                }
                for (Hit<JsonNode> h : client.search(s -> s.index(index).size(k).source(src -> src.filter(f -> f.excludes("embedding")))
                        .knn(kn -> kn.field("embedding").queryVector(qv).k(k).numCandidates(Math.max(50, k * 5)).filter(scope)), JsonNode.class)
                        .hits().hits()) {
                    docs.putIfAbsent(h.id(), h.source());
                    scores.computeIfAbsent(h.id(), x -> new double[2])[1] = h.score() == null ? 0 : h.score();
                }
            }
            if (text == null && vector == null) {
                for (Hit<JsonNode> h : client.search(s -> s.index(index).size(k).source(src -> src.filter(f -> f.excludes("embedding"))).query(scope),
                        JsonNode.class).hits().hits()) {
                    docs.put(h.id(), h.source());
                    scores.put(h.id(), new double[] {1, 1});
                }
            }
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
        boolean both = vector != null && text != null && !text.isBlank();
        List<Scored> out = new ArrayList<>();
        docs.forEach((id, d) -> {
            double[] s = scores.get(id);
            out.add(new Scored(id, d, both ? (s[0] + s[1]) / 2 : Math.max(s[0], s[1])));
        });
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return out;
    }
}
