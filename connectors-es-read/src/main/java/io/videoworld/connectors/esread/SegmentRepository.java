package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.videoworld.core.Names;
import io.videoworld.core.Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Read side of {@code vw-shots}: a stream's shots or scenes in time order. A closed segment never
 * changes, so with a cache the list is kept per stream, push and kind and renewed by reading what
 * came after its settled part ({@link TailCache}); the open scene is read again each time.
 */
public final class SegmentRepository {
    /** The most segments one call returns. */
    public static final int MAX = 10_000;
    static final int PAGE = 200;

    private final ElasticsearchClient client;
    private final TailCache<String, Segment> cache;

    public SegmentRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a read is reused (0: never) */
    public SegmentRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.cache = new TailCache<>(cacheMs, Segment::startFrame, Segment::closed);
    }

    /**
     * Segments of one kind ("shot" or "scene") of one push of a stream, by start frame. Pages of
     * {@link #PAGE}: Lucene sizes its top-hits queue by the requested size up front, so asking for
     * thousands at once costs every call, however few segments there are.
     */
    public List<Segment> list(String streamId, long epochMs, String kind) throws IOException {
        return cache.get(streamId + "\u0000" + epochMs + "\u0000" + kind, after -> read(streamId, epochMs, kind, after));
    }

    /** The segments that start after the {@code startAfter} frame (all for null), by start frame. */
    private List<Segment> read(String streamId, long epochMs, String kind, Long startAfter) throws IOException {
        try {
            List<Segment> out = new ArrayList<>();
            Long after = startAfter;
            while (out.size() < MAX) {
                Long from = after;
                List<Hit<Segment>> hits = client.search(s -> {
                    s.index(Names.SHOTS_INDEX).size(PAGE)
                            .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                                    .filter(f -> f.term(t -> t.field("kind").value(kind)))
                                    .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))))
                            .sort(o -> o.field(f -> f.field("start_frame").order(SortOrder.Asc)));
                    if (from != null) {
                        s.searchAfter(FieldValue.of(from));
                    }
                    return s;
                }, Segment.class).hits().hits();
                hits.forEach(h -> out.add(h.source()));
                if (hits.size() < PAGE) {
                    break;
                }
                after = out.get(out.size() - 1).startFrame();
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** Each read cache's hits, misses and loads, by name, for the service's metrics. */
    public java.util.Map<String, com.github.benmanes.caffeine.cache.stats.CacheStats> cacheStats() {
        return java.util.Map.of("segments", cache.stats());
    }
}
