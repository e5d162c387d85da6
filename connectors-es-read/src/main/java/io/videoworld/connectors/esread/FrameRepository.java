package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Read side of {@code vw-frames}. */
public final class FrameRepository {
    private final ElasticsearchClient client;
    private final TtlCache<String, List<FrameDoc>> keyframeReads;

    public FrameRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a read of keyframes in a time range is reused (0: never) */
    public FrameRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.keyframeReads = new TtlCache<>(cacheMs);
    }

    public Optional<FrameDoc> find(String frameId) throws IOException {
        try {
            var r = client.get(g -> g.index(Names.FRAMES_INDEX).id(frameId), FrameDoc.class);
            return r.found() ? Optional.ofNullable(r.source()) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Keyframes (frames with a stored JPEG) of one push between two presentation times, in time order. */
    public List<FrameDoc> keyframes(String streamId, long epochMs, long fromPtsMs, long toPtsMs, int max) throws IOException {
        return keyframeReads.get(streamId + "\u0000" + epochMs + "\u0000" + fromPtsMs + "\u0000" + toPtsMs + "\u0000" + max,
                k -> search(keyframeQuery(streamId, epochMs, fromPtsMs, toPtsMs), max, SortOrder.Asc));
    }

    /** The stored keyframe nearest to a presentation time, if the push has any. */
    public Optional<FrameDoc> nearestKeyframe(String streamId, long epochMs, long ptsMs) throws IOException {
        List<FrameDoc> before = search(keyframeQuery(streamId, epochMs, Long.MIN_VALUE, ptsMs), 1, SortOrder.Desc);
        List<FrameDoc> after = search(keyframeQuery(streamId, epochMs, ptsMs, Long.MAX_VALUE), 1, SortOrder.Asc);
        if (before.isEmpty()) {
            return after.stream().findFirst();
        }
        if (after.isEmpty()) {
            return Optional.of(before.get(0));
        }
        return Optional.of(ptsMs - before.get(0).ptsMs() <= after.get(0).ptsMs() - ptsMs ? before.get(0) : after.get(0));
    }

    private static Query keyframeQuery(String streamId, long epochMs, long from, long to) {
        return Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                .filter(f -> f.exists(e -> e.field("store_ref")))
                .filter(f -> f.range(r -> r.number(n -> {
                    // Open ends stay open: a long's extremes do not survive the trip through a double.
                    n.field("pts_ms");
                    if (from > Long.MIN_VALUE) {
                        n.gte((double) from);
                    }
                    if (to < Long.MAX_VALUE) {
                        n.lte((double) to);
                    }
                    return n;
                })))));
    }

    private List<FrameDoc> search(Query query, int max, SortOrder order) throws IOException {
        try {
            List<FrameDoc> out = new ArrayList<>();
            for (Hit<FrameDoc> h : client.search(s -> s.index(Names.FRAMES_INDEX).size(max).query(query)
                    .sort(o -> o.field(f -> f.field("pts_ms").order(order))), FrameDoc.class).hits().hits()) {
                out.add(h.source());
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
        return java.util.Map.of("keyframes", keyframeReads.stats());
    }
}
