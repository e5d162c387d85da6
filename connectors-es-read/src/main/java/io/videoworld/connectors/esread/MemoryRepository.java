package io.videoworld.connectors.esread;

import io.videoworld.connectors.es.EsIndices;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes of memory: the job's episodic events ({@code vw-episodes}) and the memories
 * tools write ({@code vw-memories}), searched by {@link HybridSearch} over their text and their
 * {@code embedding}; with neither text nor vector, everything in scope matches. Deleted
 * (consolidated) events are gone from the index.
 */
public final class MemoryRepository {
    private static final List<String> EXCLUDES = List.of("embedding");

    private final ElasticsearchClient client;
    /**
     * Memories this repository wrote (body less {@code created_ms}; value without the embedding, as
     * {@link #memory} reads it): read back at once by id, and not rewritten when the same.
     */
    private final OwnWrites<JsonNode> ownMemories;
    private volatile boolean memoriesIndexReady;
    /** Searches by their arguments; a write of this repository forgets them, so a memory is found right after it is written. */
    private final TtlCache<String, List<HybridSearch.Scored>> searches;
    /** Events and memories by document id (an id may be either, so misses are reused too). */
    private final TtlCache<String, Optional<JsonNode>> gets;

    public MemoryRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a search's answer is reused for the same arguments (0: never) */
    public MemoryRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.searches = new TtlCache<>(cacheMs);
        this.gets = new TtlCache<>(cacheMs);
        this.ownMemories = new OwnWrites<>(ObjectRepository.OWN_WRITES_MS, cacheMs <= 0 ? 0 : cacheMs + TtlCache.STALE_GRACE_MS);
    }

    /** Forgets what is cached or remembered as written of a stream, as when it is deleted: the next reads go to Elasticsearch. */
    public void forgetStream(String streamId) {
        ownMemories.forgetStream(streamId);
        searches.clear();
        gets.clear();
    }

    /** Events of a push whose time overlaps [fromMs, toMs] of presentation time. */
    public List<HybridSearch.Scored> searchEpisodes(String streamId, long epochMs, String text, float[] vector, long fromMs, long toMs, int k) throws IOException {
        return searchEpisodes(streamId, epochMs, text, vector, fromMs, toMs, k, null);
    }

    /** Episodes as above, of the application {@code app} only (its normal form, as episodes record it) when not null. */
    public List<HybridSearch.Scored> searchEpisodes(String streamId, long epochMs, String text, float[] vector, long fromMs, long toMs, int k,
            String app) throws IOException {
        return searches.get(String.join("\u0000", "episodes", streamId, String.valueOf(epochMs), String.valueOf(text),
                PerceptionRepository.vectorKey(vector), String.valueOf(fromMs), String.valueOf(toMs), String.valueOf(k), String.valueOf(app)),
                key -> List.copyOf(readEpisodes(streamId, epochMs, text, vector, fromMs, toMs, k, app)));
    }

    private List<HybridSearch.Scored> readEpisodes(String streamId, long epochMs, String text, float[] vector, long fromMs, long toMs, int k,
            String app) throws IOException {
        Query scope = Query.of(q -> q.bool(b -> {
            b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                    .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                    .filter(f -> f.range(r -> r.number(n -> n.field("start_pts_ms").lte((double) toMs))))
                    .filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte((double) fromMs))));
            if (app != null) {
                b.filter(f -> f.term(t -> t.field("app").value(app)));
            }
            return b;
        }));
        return HybridSearch.search(client, new HybridSearch.Request(Names.EPISODES_INDEX, scope, List.of("summary^2", "details"), "embedding",
                EXCLUDES, true), text, vector, k);
    }

    /** Memories of a stream at the given levels (empty: all) overlapping [from, to] seconds. */
    public List<HybridSearch.Scored> searchMemories(String streamId, List<String> levels, String text, float[] vector, double from, double to, int k)
            throws IOException {
        return searches.get(String.join("\u0000", "memories", streamId, String.valueOf(levels), String.valueOf(text),
                PerceptionRepository.vectorKey(vector), String.valueOf(from), String.valueOf(to), String.valueOf(k)),
                key -> List.copyOf(readMemories(streamId, levels, text, vector, from, to, k)));
    }

    private List<HybridSearch.Scored> readMemories(String streamId, List<String> levels, String text, float[] vector, double from, double to,
            int k) throws IOException {
        Query scope = Query.of(q -> q.bool(b -> {
            b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                    .filter(f -> f.range(r -> r.number(n -> n.field("start_time").lte(to))))
                    .filter(f -> f.range(r -> r.number(n -> n.field("end_time").gte(from))));
            if (!levels.isEmpty()) {
                b.filter(f -> f.terms(t -> t.field("level").terms(v -> v.value(levels.stream().map(co.elastic.clients.elasticsearch._types.FieldValue::of).toList()))));
            }
            return b;
        }));
        return HybridSearch.search(client, new HybridSearch.Request(Names.MEMORIES_INDEX, scope, List.of("content"), "embedding", EXCLUDES,
                true), text, vector, k);
    }

    /**
     * The events of a push that cover any of the presentation times {@code ptsMs} (start <= t <= end),
     * without their embedding and details; at most 200.
     */
    public List<JsonNode> episodesAt(String streamId, long epochMs, List<Long> ptsMs) throws IOException {
        if (ptsMs.isEmpty()) {
            return List.of();
        }
        return searches.get(String.join("\u0000", "at", streamId, String.valueOf(epochMs), ptsMs.toString()), key -> {
            List<Query> covering = ptsMs.stream().distinct().map(t -> Query.of(q -> q.bool(b -> b
                    .filter(f -> f.range(r -> r.number(n -> n.field("start_pts_ms").lte((double) t))))
                    .filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte((double) t))))))).toList();
            try {
                return client.search(s -> s.index(Names.EPISODES_INDEX).size(200).source(src -> src.filter(f -> f.excludes("embedding", "details")))
                        .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                                .should(covering).minimumShouldMatch("1"))), JsonNode.class)
                        .hits().hits().stream().map(h -> new HybridSearch.Scored(h.id(), h.source(), 1)).toList();
            } catch (ElasticsearchException e) {
                if (e.status() == 404) {
                    return List.<HybridSearch.Scored>of();
                }
                throw e;
            }
        }).stream().map(HybridSearch.Scored::source).toList();
    }

    public Optional<JsonNode> episode(String id) throws IOException {
        return get(Names.EPISODES_INDEX, id);
    }

    /** A written memory: this repository's own recent write, else a read reused for the cache period. */
    public Optional<JsonNode> memory(String streamId, String memoryId) throws IOException {
        String id = streamId + ":" + memoryId;
        Optional<JsonNode> mine = ownMemories.recent(id);
        return mine.isPresent() ? mine : get(Names.MEMORIES_INDEX, id);
    }

    /**
     * Writes a memory (its id is {@code <stream>:<memory_id>}) and makes it searchable at once: the
     * write refreshes the (small) memories index, because a search ranks what it finds and cannot
     * lay this repository's own writes over its answer the way a lookup can. The index is made (or
     * brought up to date) once per repository; the same memory written again (same id and fields
     * but its write time) is already there and is not rewritten (checked in Elasticsearch at most
     * once per read-cache period, in case the stream was deleted elsewhere).
     */
    public void save(String streamId, String memoryId, ObjectNode doc) throws IOException {
        String id = streamId + ":" + memoryId;
        ObjectNode same = doc.deepCopy();
        same.remove("created_ms");
        String body = same.toString();
        if (ownMemories.unchanged(id, body)) {
            return;
        }
        if (ownMemories.writtenBefore(id, body) && client.exists(x -> x.index(Names.MEMORIES_INDEX).id(id)).value()) {
            ownMemories.verified(id);
            return;
        }
        if (!memoriesIndexReady) {
            EsIndices.ensure(client, List.of(Names.MEMORIES_INDEX));
            memoriesIndexReady = true;
        }
        client.index(i -> i.index(Names.MEMORIES_INDEX).id(id).document(doc).refresh(Refresh.True));
        searches.clear();
        gets.clear();
        ObjectNode read = doc.deepCopy();
        read.remove("embedding");
        ownMemories.put(id, streamId, body, read);
    }

    private Optional<JsonNode> get(String index, String id) throws IOException {
        return gets.get(index + "\u0000" + id, k -> {
            try {
                var r = client.get(g -> g.index(index).id(id).sourceExcludes("embedding"), JsonNode.class);
                return r.found() ? Optional.of(r.source()) : Optional.<JsonNode>empty();
            } catch (ElasticsearchException e) {
                if (e.status() == 404) {
                    return Optional.<JsonNode>empty();
                }
                throw e;
            }
        });
    }

    /** Each read cache's hits, misses and loads, by name, for the service's metrics. */
    public java.util.Map<String, com.github.benmanes.caffeine.cache.stats.CacheStats> cacheStats() {
        return java.util.Map.of("searches", searches.stats(), "gets", gets.stats());
    }
}
