package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Each person's history in {@code vw-people}, append-only: an event is created under a
 * deterministic id and never rewritten (a second append of the same event is refused by
 * Elasticsearch and ignored), so what a person was is replayed from the events, not overwritten.
 */
public final class PersonHistory {
    /** Named: a name was given to the person from a box of a track. */
    public static final String NAMED = "named";
    /** Track: a track (where and from when to when) belongs to the person. */
    public static final String TRACK = "track";
    /** Activity: the person was seen doing something (as recorded then; a run that grew is recorded again). */
    public static final String ACTIVITY = "activity";
    /** Most events one read returns. */
    static final int MAX = 10_000;

    /**
     * One event of a person's history; fields that do not apply to its kind are null.
     *
     * @param eventId the document id: the person, the kind and what it records
     * @param personId the person
     * @param kind {@link #NAMED}, {@link #TRACK} or {@link #ACTIVITY}
     * @param streamId the stream it happened in
     * @param epochMs the stream's push
     * @param trackId the track it rests on
     * @param name the name given (named)
     * @param label the activity (activity)
     * @param confidence the activity's confidence (activity)
     * @param fromMs first presentation time (track, activity)
     * @param toMs last presentation time (track, activity)
     * @param samples samples it rests on (track, activity)
     * @param frames frame numbers it rests on (activity)
     * @param recordedMs when it was appended (wall clock)
     */
    public record PersonEvent(String eventId, String personId, String kind, String streamId, Long epochMs, String trackId, String name,
            String label, Double confidence, Long fromMs, Long toMs, Integer samples, List<Long> frames, long recordedMs) {}

    private final ElasticsearchClient client;
    private volatile boolean ready;

    public PersonHistory(ElasticsearchClient client) {
        this.client = client;
    }

    /** Appends the events whose ids are not recorded yet; returns how many were new. Readable when this returns. */
    public int append(List<PersonEvent> events) throws IOException {
        if (events.isEmpty()) {
            return 0;
        }
        if (!ready) {
            EsIndices.ensure(client, List.of(Names.PEOPLE_INDEX));
            ready = true;
        }
        List<BulkOperation> ops = new ArrayList<>();
        for (PersonEvent e : events) {
            ObjectNode doc = Json.MAPPER.valueToTree(e);
            ops.add(BulkOperation.of(o -> o.create(c -> c.index(Names.PEOPLE_INDEX).id(e.eventId()).document(doc))));
        }
        BulkResponse r = client.bulk(b -> b.operations(ops).refresh(Refresh.WaitFor));
        int created = 0;
        for (var item : r.items()) {
            if (item.error() == null) {
                created++;
            } else if (item.status() != 409) {
                throw new IOException("recording a person's history failed: " + item.error().reason());
            }
        }
        return created;
    }

    /** The person's events in the order they were recorded (ties by id). */
    public List<PersonEvent> history(String personId) throws IOException {
        try {
            List<PersonEvent> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(Names.PEOPLE_INDEX).size(MAX)
                    .query(q -> q.term(t -> t.field("person_id").value(personId)))
                    .sort(o -> o.field(f -> f.field("recorded_ms").order(SortOrder.Asc)))
                    .sort(o -> o.field(f -> f.field("event_id").order(SortOrder.Asc))), JsonNode.class).hits().hits()) {
                out.add(Json.MAPPER.treeToValue(h.source(), PersonEvent.class));
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
