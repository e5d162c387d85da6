package io.videoworld.query.timeline;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.videoworld.core.Names;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.auth.Caller;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal {@code GET /v1/streams} for the timeline page's stream list: the streams the caller may
 * read, most recently active first, with their kind, status, frames, time range and how many shots,
 * episodes and tracks each has. (Stream deletion and retention are elsewhere; this only reads.)
 */
public final class StreamSummaries {
    /** The answer. */
    public record Streams(List<Stream> streams) {}

    /** One stream; times are ISO-8601 instants of event time. */
    public record Stream(String id, String kind, String status, long frames, String firstEventTime, String lastEventTime,
            String lastActivity, double duration, Counts counts) {}

    /** Documents of the stream in each index. */
    public record Counts(long shots, long episodes, long tracks) {}

    private static final int MAX = 1000;
    private final ElasticsearchClient es;

    public StreamSummaries(ElasticsearchClient es) {
        this.es = es;
    }

    public Streams list(Caller caller) throws IOException {
        Map<String, Long> shots = counts(Names.SHOTS_INDEX, Query.of(q -> q.term(t -> t.field("kind").value("shot"))));
        Map<String, Long> episodes = counts(Names.EPISODES_INDEX, Query.of(q -> q.matchAll(m -> m)));
        Map<String, Long> tracks = counts(Names.TRACKS_INDEX, Query.of(q -> q.matchAll(m -> m)));
        List<Stream> out = new ArrayList<>();
        try {
            for (Hit<VideoDoc> h : es.search(s -> s.index(Names.VIDEOS_INDEX).size(MAX)
                    .sort(o -> o.field(f -> f.field("last_event_time_ms").order(SortOrder.Desc))), VideoDoc.class).hits().hits()) {
                VideoDoc v = h.source();
                if (v == null || !caller.canRead(v.streamId())) {
                    continue;
                }
                String id = v.streamId();
                out.add(new Stream(id, v.sourceKind() == null ? null : v.sourceKind().name().toLowerCase(java.util.Locale.ROOT), v.status(),
                        v.framesIndexed(), iso(v.firstEventTimeMs()), iso(v.lastEventTimeMs()), iso(v.lastEventTimeMs()),
                        Math.round(v.lastPtsMs() / 100.0) / 10.0,
                        new Counts(shots.getOrDefault(id, 0L), episodes.getOrDefault(id, 0L), tracks.getOrDefault(id, 0L))));
            }
        } catch (ElasticsearchException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
        return new Streams(out);
    }

    private Map<String, Long> counts(String index, Query filter) throws IOException {
        Map<String, Long> out = new HashMap<>();
        try {
            var r = es.search(s -> s.index(index).size(0).query(filter)
                    .aggregations("by", a -> a.terms(t -> t.field("stream_id").size(MAX))), Void.class);
            for (StringTermsBucket b : r.aggregations().get("by").sterms().buckets().array()) {
                out.put(b.key().stringValue(), b.docCount());
            }
        } catch (ElasticsearchException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
        return out;
    }

    private static String iso(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }
}
