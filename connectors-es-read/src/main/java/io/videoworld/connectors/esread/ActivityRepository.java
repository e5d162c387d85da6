package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads the people's activities the ingest job's person operator wrote to {@code vw-activities}. */
public final class ActivityRepository {
    /** Most activities one read returns. */
    static final int MAX = 2000;

    /**
     * One activity of one tracked person.
     *
     * @param id the document id
     * @param trackId the person's track
     * @param label standing, sitting, lying, bending, walking, running or raising_hand
     * @param confidence 0-1
     * @param fromMs first sample's presentation time
     * @param toMs latest sample's presentation time
     * @param samples samples it rests on
     * @param frames their frame numbers (the first ones, when many)
     */
    public record PoseActivity(String id, String trackId, String label, double confidence, long fromMs, long toMs, int samples,
            List<Long> frames) {}

    private final ElasticsearchClient client;

    public ActivityRepository(ElasticsearchClient client) {
        this.client = client;
    }

    /** The push's activities overlapping a presentation-time range, earliest first (ties by id). */
    public List<PoseActivity> overlapping(String streamId, long epochMs, long fromMs, long toMs) throws IOException {
        return read(Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                .filter(f -> f.range(r -> r.number(n -> n.field("from_ms").lte((double) toMs))))
                .filter(f -> f.range(r -> r.number(n -> n.field("to_ms").gte((double) fromMs)))))));
    }

    /** The activities of these tracks (of any stream), earliest first (ties by id). */
    public List<PoseActivity> ofTracks(List<String> trackIds) throws IOException {
        if (trackIds.isEmpty()) {
            return List.of();
        }
        return read(Query.of(q -> q.terms(t -> t.field("track_id").terms(v -> v.value(trackIds.stream().map(FieldValue::of).toList())))));
    }

    private List<PoseActivity> read(Query query) throws IOException {
        try {
            List<PoseActivity> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.ACTIVITIES_INDEX).size(MAX).query(query)
                    .sort(o -> o.field(f -> f.field("from_ms").order(SortOrder.Asc)))
                    .sort(o -> o.field(f -> f.field("activity_id").order(SortOrder.Asc))), JsonNode.class).hits().hits()) {
                JsonNode d = h.source();
                List<Long> frames = new ArrayList<>();
                d.path("frames").forEach(n -> frames.add(n.asLong()));
                out.add(new PoseActivity(d.path("activity_id").asText(), d.path("track_id").asText(), d.path("label").asText(),
                        d.path("confidence").asDouble(), d.path("from_ms").asLong(), d.path("to_ms").asLong(), d.path("samples").asInt(),
                        List.copyOf(frames)));
            }
            return List.copyOf(out);
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of(); // no person operator has written yet
            }
            throw e;
        }
    }
}
