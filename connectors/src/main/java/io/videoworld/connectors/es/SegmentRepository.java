package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.videoworld.core.Names;
import io.videoworld.core.Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Read side of {@code vw-shots}: a stream's shots or scenes in time order. */
public final class SegmentRepository {
    /** More segments than this in one stream are paged by later issues' tools; one call returns them all up to here. */
    public static final int MAX = 10_000;

    private final ElasticsearchClient client;

    public SegmentRepository(ElasticsearchClient client) {
        this.client = client;
    }

    /** Segments of one kind ("shot" or "scene") of one push of a stream, by start frame. */
    public List<Segment> list(String streamId, long epochMs, String kind) throws IOException {
        try {
            List<Segment> out = new ArrayList<>();
            for (Hit<Segment> h : client.search(s -> s.index(Names.SHOTS_INDEX).size(MAX)
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("kind").value(kind)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))))
                    .sort(o -> o.field(f -> f.field("start_frame").order(SortOrder.Asc))), Segment.class).hits().hits()) {
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
}
