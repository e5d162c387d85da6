package io.videoworld.query.entity;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.ObjectRepository.Entity;
import io.videoworld.connectors.esread.PersonHistory;
import io.videoworld.connectors.esread.PersonHistory.PersonEvent;
import io.videoworld.connectors.esread.StreamIndex;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.core.Names;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.entity.People.PersonRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * {@code GET /v1/people/{id}} (a named person's history replayed) and {@code DELETE /v1/people/{id}}
 * ("forget this person"): the person's names (every entity registered on their tracks), history,
 * tracks (boxes and appearance descriptors), activities, their memory-graph nodes and edges, and the frames they were seen in with
 * those frames' stored keyframes, detections and perception, in every stream they were named in.
 */
public final class PeopleService {
    /** What forgetting a person deleted: documents per index and stored keyframes. */
    public record PersonForgotten(String personId, List<String> streams, List<String> tracks, Map<String, Long> documents, long total,
            long framesDeleted) {}

    private final People people;
    private final PersonHistory history;
    private final ObjectRepository objects;
    private final StreamIndex index;
    private final FrameStore frames;
    private final Consumer<String> changed;

    /** @param changed told each stream the person was forgotten in, to drop what is cached of it */
    public PeopleService(People people, PersonHistory history, ObjectRepository objects, StreamIndex index, FrameStore frames,
            Consumer<String> changed) {
        this.people = people;
        this.history = history;
        this.objects = objects;
        this.index = index;
        this.frames = frames;
        this.changed = changed;
    }

    private record Known(List<Entity> entities, List<PersonEvent> events, List<String> streams, List<String> tracks) {}

    private Known known(Caller caller, String id) throws IOException {
        if (!id.startsWith(People.PREFIX)) {
            throw ApiException.badField("id", "a person's id starts with " + People.PREFIX + " (register_entity with a name gives one)");
        }
        List<Entity> entities = objects.entitiesById(id);
        List<PersonEvent> events = history.history(id);
        Set<String> streams = new LinkedHashSet<>();
        Set<String> tracks = new LinkedHashSet<>();
        for (Entity e : entities) {
            streams.add(e.streamId());
            tracks.addAll(e.trackIds());
        }
        for (PersonEvent e : events) {
            if (e.streamId() != null) {
                streams.add(e.streamId());
            }
            if (e.trackId() != null) {
                tracks.add(e.trackId());
            }
        }
        if (streams.isEmpty()) {
            throw ApiException.notFound("id", "no person '" + ApiException.quote(id) + "' is registered");
        }
        for (String s : streams) {
            ToolDispatcher.requireRead(caller, s, "id");
        }
        return new Known(entities, events, List.copyOf(streams), List.copyOf(tracks));
    }

    /** The person's history replayed (after appending activities indexed since), for a caller that may read every stream they were seen in. */
    public PersonRecord record(Caller caller, String id) throws IOException {
        known(caller, id);
        return people.record(id);
    }

    /** Forgets the person everywhere, for a caller that may read every stream they were seen in. */
    public PersonForgotten forget(Caller caller, String id) throws IOException {
        Known k = known(caller, id);
        Map<String, Long> counts = new LinkedHashMap<>();
        // Where each track was seen: stream and push, and the frames of its timeline.
        Map<String, Set<Long>> framesBy = new LinkedHashMap<>();
        Query tracks = terms("track_id", k.tracks());
        counts.put(Names.TRACKS_INDEX, index.deleteWhere(Names.TRACKS_INDEX, tracks, doc -> {
            Set<Long> f = framesBy.computeIfAbsent(doc.path("stream_id").asText() + "\u0000" + doc.path("epoch_ms").asText(), x -> new TreeSet<>());
            for (JsonNode p : doc.path("timeline")) {
                f.add(p.path("frame_index").asLong());
            }
        }, "stream_id", "epoch_ms", "timeline"));
        AtomicLong stored = new AtomicLong();
        for (String point : List.of(Names.FRAMES_INDEX, Names.DETECTIONS_INDEX, Names.PERCEPTION_INDEX)) {
            long n = 0;
            for (var e : framesBy.entrySet()) {
                String[] se = e.getKey().split("\u0000", 2);
                List<Long> at = List.copyOf(e.getValue());
                Query q = Query.of(x -> x.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(se[0])))
                        .filter(f -> f.term(t -> t.field("epoch_ms").value(se[1])))
                        .filter(f -> f.terms(t -> t.field("frame_index").terms(v -> v.value(at.stream().map(FieldValue::of).toList()))))));
                n += index.deleteWhere(point, q, Names.FRAMES_INDEX.equals(point) ? doc -> deleteStored(doc, stored) : null, "store_ref");
            }
            counts.put(point, n);
        }
        counts.put(Names.ACTIVITIES_INDEX, index.deleteWhere(Names.ACTIVITIES_INDEX, tracks, null));
        // The memory graph's nodes of those tracks and the edges from them (appears_in, does).
        List<String> trackNodes = k.tracks().stream().map(t -> t + ":g").toList();
        counts.put(Names.GRAPH_INDEX, index.deleteWhere(Names.GRAPH_INDEX, Query.of(x -> x.bool(b -> b.should(terms("source_id", trackNodes))
                .should(terms("clip_id", k.tracks())).minimumShouldMatch("1"))), null));
        Query named = Query.of(x -> x.bool(b -> b.should(s -> s.term(t -> t.field("entity_id").value(id)))
                .should(s -> s.terms(t -> t.field("track_ids").terms(v -> v.value(k.tracks().stream().map(FieldValue::of).toList()))))
                .minimumShouldMatch("1")));
        counts.put(Names.ENTITIES_INDEX, index.deleteWhere(Names.ENTITIES_INDEX, named, null));
        counts.put(Names.PEOPLE_INDEX, index.deleteWhere(Names.PEOPLE_INDEX, Query.of(x -> x.term(t -> t.field("person_id").value(id))), null));
        objects.forgetEntity(id, k.streams());
        k.streams().forEach(changed);
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        return new PersonForgotten(id, k.streams(), k.tracks(), counts, total, stored.get());
    }

    private static Query terms(String field, List<String> values) {
        return Query.of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values.stream().map(FieldValue::of).toList()))));
    }

    private void deleteStored(JsonNode doc, AtomicLong count) {
        io.videoworld.query.streams.StoredKeyframes.delete(frames, doc, count);
    }
}
