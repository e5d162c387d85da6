package io.videoworld.query.streams;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.esread.StreamIndex;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.core.Names;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.streams.StreamResponses.Budgeted;
import io.videoworld.query.streams.StreamResponses.Deleted;
import io.videoworld.query.streams.StreamResponses.Expired;
import io.videoworld.query.streams.StreamResponses.Forgotten;
import io.videoworld.query.streams.StreamResponses.StreamInfo;
import io.videoworld.query.streams.StreamResponses.StreamList;
import io.videoworld.query.streams.StreamResponses.TimeRange;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Streams as things to manage: list them with their counts, delete one (its documents in every
 * index and its stored frames), and expire what is older than the retention.
 */
public final class StreamsService {
    /** Indices whose documents carry the event time of what they describe, and that field. */
    private static final Map<String, String> TIMED = Map.of(Names.FRAMES_INDEX, "event_time_ms", Names.PERCEPTION_INDEX, "event_time_ms",
            Names.DETECTIONS_INDEX, "event_time_ms", Names.SHOTS_INDEX, "end_event_time_ms", Names.EPISODES_INDEX, "end_event_time_ms");

    private final StreamIndex index;
    private final FrameStore frames;
    private final java.util.function.Consumer<String> deleted;

    /**
     * Streams in {@code index} whose keyframes are in {@code frames}; {@code deleted} hears of each
     * stream deleted whole, for the repositories that remember their own writes (the read caches'
     * 500 ms would need no telling, but a write remembered as done must not outlive its document).
     */
    public StreamsService(StreamIndex index, FrameStore frames, java.util.function.Consumer<String> deleted) {
        this.index = index;
        this.frames = frames;
        this.deleted = deleted;
    }

    /** The streams {@code caller} may read, with their counts. */
    public StreamList list(Caller caller) throws IOException {
        Map<String, Long> shots = index.countByStream(Names.SHOTS_INDEX, kind(Segment.SHOT));
        Map<String, Long> scenes = index.countByStream(Names.SHOTS_INDEX, kind(Segment.SCENE));
        Map<String, Long> episodes = index.countByStream(Names.EPISODES_INDEX, null);
        Map<String, Long> tracks = index.countByStream(Names.TRACKS_INDEX, null);
        Map<String, Long> stored = index.sumByStream(Names.FRAMES_INDEX, "jpeg_bytes", Query.of(q -> q.exists(e -> e.field("store_ref"))));
        List<StreamInfo> out = new ArrayList<>();
        for (VideoDoc v : index.streams()) {
            if (v == null || !caller.canRead(v.streamId())) {
                continue;
            }
            String id = v.streamId();
            TimeRange range = new TimeRange(v.firstEventTimeMs(), v.lastEventTimeMs(), iso(v.firstEventTimeMs()), iso(v.lastEventTimeMs()),
                    Math.max(0, v.lastEventTimeMs() - v.firstEventTimeMs()) / 1000.0);
            out.add(new StreamInfo(id, v.sourceKind() == null ? null : v.sourceKind().name().toLowerCase(java.util.Locale.ROOT), v.status(),
                    v.sourceUri(), v.framesIndexed(), range, iso(v.lastEventTimeMs()), v.lastEventTimeMs(), shots.getOrDefault(id, 0L),
                    scenes.getOrDefault(id, 0L), episodes.getOrDefault(id, 0L), tracks.getOrDefault(id, 0L), stored.getOrDefault(id, 0L)));
        }
        return new StreamList(out, out.size());
    }

    /** Deletes a stream the caller may read: 403 when it may not, 404 when no such stream is indexed. */
    public Deleted delete(Caller caller, String id) throws IOException {
        ToolDispatcher.requireRead(caller, id, "id");
        if (index.countByStream(Names.VIDEOS_INDEX, term(id)).isEmpty()) {
            throw ApiException.notFound("id", "no stream '" + ApiException.quote(id) + "' is indexed");
        }
        return deleteAll(id);
    }

    private Deleted deleteAll(String id) throws IOException {
        // The stream's own document last: while anything of it is left, it is still listed and can be deleted again.
        List<String> indices = new ArrayList<>(EsIndices.ALL);
        indices.remove(Names.VIDEOS_INDEX);
        indices.add(Names.VIDEOS_INDEX);
        long n = index.deleteStream(id, indices);
        deleted.accept(id);
        frames.deleteStream(id);
        return new Deleted(id, n, true);
    }

    /**
     * Forgets part of a stream the caller may read, as {@code body} says: {@code {"from": .., "to": ..}} (epoch
     * milliseconds or ISO-8601, inclusive) deletes the frames and their stored keyframes, perception,
     * detections and exclusions whose event time is in the range and the shots and episodes that overlap it;
     * {@code {"phrase": ".."}} deletes the perception documents whose text holds the phrase, the frames they
     * were read from (with their stored keyframes), and the episodes and written memories that hold it.
     */
    public Forgotten forget(Caller caller, String id, JsonNode body) throws IOException {
        ToolDispatcher.requireRead(caller, id, "id");
        if (index.countByStream(Names.VIDEOS_INDEX, term(id)).isEmpty()) {
            throw ApiException.notFound("id", "no stream '" + ApiException.quote(id) + "' is indexed");
        }
        String phrase = body == null || !body.hasNonNull("phrase") ? null : body.get("phrase").asText().strip();
        String app = body == null || !body.hasNonNull("app") ? null : body.get("app").asText().strip();
        Long from = time(body, "from");
        Long to = time(body, "to");
        if ((phrase != null ? 1 : 0) + (app != null ? 1 : 0) + (from != null || to != null ? 1 : 0) != 1) {
            throw ApiException.badField("phrase", "give one of a phrase, an app, or a time range as from and to");
        }
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        AtomicLong stored = new AtomicLong();
        Query stream = term(id);
        if (app != null) {
            forgetApp(id, app, counts, stored);
        } else if (phrase != null) {
            if (phrase.isEmpty()) {
                throw ApiException.badField("phrase", "is empty");
            }
            java.util.Set<Long> frameIndices = new java.util.TreeSet<>();
            Query said = phraseIn(phrase, "text", "lines.text", "window_title");
            counts.put(Names.PERCEPTION_INDEX, index.deleteWhere(Names.PERCEPTION_INDEX, both(stream, said),
                    doc -> frameIndices.add(doc.path("frame_index").asLong()), "frame_index"));
            long frameDocs = 0;
            if (!frameIndices.isEmpty()) {
                Query read = Query.of(q -> q.terms(t -> t.field("frame_index").terms(v -> v.value(frameIndices.stream().map(FieldValue::of).toList()))));
                frameDocs = index.deleteWhere(Names.FRAMES_INDEX, both(stream, read), doc -> deleteStored(doc, stored), "store_ref");
            }
            counts.put(Names.FRAMES_INDEX, frameDocs);
            counts.put(Names.EPISODES_INDEX, index.deleteWhere(Names.EPISODES_INDEX, both(stream, phraseIn(phrase, "summary", "details")), null));
            counts.put(Names.MEMORIES_INDEX, index.deleteWhere(Names.MEMORIES_INDEX, both(stream, phraseIn(phrase, "content")), null));
            counts.put(Names.GRAPH_INDEX, index.deleteWhere(Names.GRAPH_INDEX, both(stream, phraseIn(phrase, "text", "source_label", "target_label")), null));
        } else {
            long lo = from == null ? 0 : from;
            long hi = to == null ? Long.MAX_VALUE : to;
            if (hi < lo) {
                throw ApiException.badField("to", "is before from");
            }
            for (String point : List.of(Names.FRAMES_INDEX, Names.PERCEPTION_INDEX, Names.DETECTIONS_INDEX, Names.EXCLUSIONS_INDEX)) {
                counts.put(point, index.deleteWhere(point, both(stream, between("event_time_ms", lo, hi)),
                        Names.FRAMES_INDEX.equals(point) ? doc -> deleteStored(doc, stored) : null, "store_ref"));
            }
            counts.put(Names.SHOTS_INDEX, index.deleteWhere(Names.SHOTS_INDEX, both(stream, overlapping("start_event_time_ms", lo, hi)), null));
            counts.put(Names.EPISODES_INDEX, index.deleteWhere(Names.EPISODES_INDEX, both(stream, overlapping("occurred_at", lo, hi)), null));
            // Graph edges and nodes derived from a record in the range; named nodes (apps, documents) carry no time and stay.
            counts.put(Names.GRAPH_INDEX, index.deleteWhere(Names.GRAPH_INDEX, both(stream, both(overlapping("event_time_ms", lo, hi),
                    Query.of(q -> q.exists(e -> e.field("clip_id"))))), null));
        }
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        deleted.accept(id);
        return new Forgotten(id, from, to, phrase, app, counts, total, stored.get());
    }

    /**
     * Every place an app was on screen: the perception documents that name it (their text, lines and
     * embeddings), the whole shots those keyframes were in (each frame document and stored keyframe of
     * them, their other perception and their detections, the shot documents), the episodes of the app,
     * the memory graph's documents that name the app or come from those episodes, and the dead letters
     * of any document deleted.
     */
    private void forgetApp(String id, String app, Map<String, Long> counts, AtomicLong stored) throws IOException {
        String name = io.videoworld.core.ScreenTitles.app(app);
        if (name == null) {
            throw ApiException.badField("app", "names no application (letters or digits)");
        }
        Query stream = term(id);
        java.util.Set<Long> frameIndices = new java.util.TreeSet<>();
        long perception = index.deleteWhere(Names.PERCEPTION_INDEX, both(stream, keyword("app", name)),
                doc -> frameIndices.add(doc.path("frame_index").asLong()), "frame_index");
        java.util.Set<String> shots = new java.util.TreeSet<>();
        long frameDocs = frameIndices.isEmpty() ? 0 : index.deleteWhere(Names.FRAMES_INDEX, both(stream, longs("frame_index", frameIndices)), doc -> {
            deleteStored(doc, stored);
            if (doc.hasNonNull("shot_id")) {
                shots.add(doc.get("shot_id").asText());
            }
        }, "store_ref", "shot_id");
        List<long[]> ranges = new ArrayList<>();
        long shotDocs = shots.isEmpty() ? 0 : index.deleteWhere(Names.SHOTS_INDEX, both(stream, Query.of(q -> q.terms(t -> t.field("segment_id")
                .terms(v -> v.value(shots.stream().map(FieldValue::of).toList()))))),
                doc -> ranges.add(new long[] {doc.path("start_frame").asLong(), doc.path("end_frame").asLong()}), "start_frame", "end_frame");
        for (long[] r : ranges) {
            Query inShot = Query.of(q -> q.range(x -> x.untyped(u -> u.field("frame_index").gte(co.elastic.clients.json.JsonData.of(r[0]))
                    .lt(co.elastic.clients.json.JsonData.of(r[1]))))); // half-open: end_frame is the next shot's first
            frameDocs += index.deleteWhere(Names.FRAMES_INDEX, both(stream, inShot), doc -> {
                deleteStored(doc, stored);
                frameIndices.add(doc.path("frame_index").asLong());
            }, "store_ref", "frame_index");
            perception += index.deleteWhere(Names.PERCEPTION_INDEX, both(stream, inShot), doc -> frameIndices.add(doc.path("frame_index").asLong()),
                    "frame_index");
        }
        counts.put(Names.PERCEPTION_INDEX, perception);
        counts.put(Names.FRAMES_INDEX, frameDocs);
        counts.put(Names.SHOTS_INDEX, shotDocs);
        counts.put(Names.DETECTIONS_INDEX, frameIndices.isEmpty() ? 0 : index.deleteWhere(Names.DETECTIONS_INDEX,
                both(stream, longs("frame_index", frameIndices)), null));
        List<String> ids = new ArrayList<>(shots);
        counts.put(Names.EPISODES_INDEX, index.deleteWhere(Names.EPISODES_INDEX, both(stream, keyword("app", name)),
                doc -> ids.add(doc.path("event_id").asText()), "event_id"));
        // The memory graph: the app's node and every edge that names it, and the nodes and edges derived from its episodes.
        List<String> episodeIds = List.copyOf(ids.subList(shots.size(), ids.size()));
        Query namesApp = Query.of(q -> q.bool(b -> b.should(phraseIn(app, "text", "source_label", "target_label"))
                .should(phraseIn(name, "text", "source_label", "target_label"))
                .should(s -> s.terms(t -> t.field("source_id").terms(v -> v.value(episodeIds.stream().map(FieldValue::of).toList()))))
                .should(s -> s.terms(t -> t.field("clip_id").terms(v -> v.value(episodeIds.stream().map(FieldValue::of).toList()))))
                .minimumShouldMatch("1")));
        counts.put(Names.GRAPH_INDEX, index.deleteWhere(Names.GRAPH_INDEX, both(stream, namesApp), null));
        frameIndices.forEach(i -> ids.add(io.videoworld.core.Ids.frame(id, i)));
        counts.put(Names.DEAD_LETTERS_INDEX, ids.isEmpty() ? 0 : index.deleteWhere(Names.DEAD_LETTERS_INDEX, both(stream, Query.of(q -> q.terms(t -> t
                .field("doc_id").terms(v -> v.value(ids.stream().map(FieldValue::of).toList()))))), null));
    }

    /**
     * One storage-budget pass over the stored keyframes (their JPEG bytes in the frame store): a
     * stream over {@code perStreamBytes} loses its oldest keyframes until it is within it, then, while
     * all streams together are over {@code totalBytes}, the oldest keyframes of any stream go. A
     * keyframe that goes takes its stored file and its frame document; what was read from it
     * (perception, episodes) stays. 0 leaves a bound unset. {@code streams}: the streams it applies to, as
     * patterns ({@code *} any run of characters), the total counting only them; empty: all. Only an administrator may run it.
     */
    public Budgeted budget(Caller caller, long perStreamBytes, long totalBytes, List<String> streams) throws IOException {
        if (!caller.admin()) {
            throw new ApiException(403, "forbidden", "per_stream_bytes", "only an administrator applies a storage budget");
        }
        if (perStreamBytes < 0 || totalBytes < 0) {
            throw ApiException.badField("per_stream_bytes", "budgets are 0 (none) or more bytes");
        }
        Query stored = Query.of(q -> q.exists(e -> e.field("store_ref")));
        Caller scope = new Caller("budget", streams.isEmpty(), streams);
        Map<String, Long> before = new java.util.TreeMap<>(index.sumByStream(Names.FRAMES_INDEX, "jpeg_bytes", stored));
        before.keySet().removeIf(id -> !scope.canRead(id));
        if (before.isEmpty()) {
            return new StreamResponses.Budgeted(perStreamBytes, totalBytes, 0, 0, Map.of(), 0);
        }
        Query covered = both(stored, Query.of(q -> q.terms(t -> t.field("stream_id").terms(v -> v.value(before.keySet().stream()
                .map(FieldValue::of).toList())))));
        Map<String, Long> freed = new java.util.TreeMap<>();
        AtomicLong files = new AtomicLong();
        if (perStreamBytes > 0) {
            for (Map.Entry<String, Long> e : new java.util.TreeMap<>(before).entrySet()) {
                if (e.getValue() > perStreamBytes) {
                    freeOldest(both(term(e.getKey()), stored), e.getValue() - perStreamBytes, freed, files);
                }
            }
        }
        long used = before.values().stream().mapToLong(Long::longValue).sum() - freed.values().stream().mapToLong(Long::longValue).sum();
        if (totalBytes > 0 && used > totalBytes) {
            freeOldest(covered, used - totalBytes, freed, files);
        }
        long after = index.sumByStream(Names.FRAMES_INDEX, "jpeg_bytes", covered).values().stream().mapToLong(Long::longValue).sum();
        return new StreamResponses.Budgeted(perStreamBytes, totalBytes, before.values().stream().mapToLong(Long::longValue).sum(), after,
                freed, files.get());
    }

    /** Deletes the oldest stored keyframes {@code filter} matches until {@code excess} bytes are freed (or none is left). */
    private void freeOldest(Query filter, long excess, Map<String, Long> freed, AtomicLong files) throws IOException {
        long done = 0;
        while (done < excess) {
            List<JsonNode> oldest = index.oldest(Names.FRAMES_INDEX, filter, "event_time_ms", 500, "stream_id", "jpeg_bytes", "store_ref");
            if (oldest.isEmpty()) {
                return;
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode d : oldest) {
                if (done >= excess) {
                    break;
                }
                long bytes = d.path("jpeg_bytes").asLong();
                ids.add(d.get("_id").asText());
                done += bytes;
                freed.merge(d.path("stream_id").asText(), bytes, Long::sum);
            }
            index.deleteWhere(Names.FRAMES_INDEX, Query.of(q -> q.ids(i -> i.values(ids))), doc -> deleteStored(doc, files), "store_ref");
        }
    }

    private static Query keyword(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(value)));
    }

    private static Query longs(String field, java.util.Collection<Long> values) {
        return Query.of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values.stream().map(FieldValue::of).toList()))));
    }

    private static Long time(JsonNode body, String field) {
        JsonNode v = body == null ? null : body.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return v.asLong();
        }
        try {
            return Instant.parse(v.asText()).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiException.badField(field, "is neither epoch milliseconds nor an ISO-8601 instant");
        }
    }

    private static Query both(Query a, Query b) {
        return Query.of(q -> q.bool(x -> x.filter(a).filter(b)));
    }

    private static Query phraseIn(String phrase, String... fields) {
        List<Query> any = new ArrayList<>();
        for (String f : fields) {
            any.add(Query.of(q -> q.matchPhrase(m -> m.field(f).query(phrase))));
        }
        return Query.of(q -> q.bool(b -> b.should(any).minimumShouldMatch("1")));
    }

    private static Query between(String field, long lo, long hi) {
        return Query.of(q -> q.range(r -> r.untyped(u -> u.field(field).gte(co.elastic.clients.json.JsonData.of(lo))
                .lte(co.elastic.clients.json.JsonData.of(hi)))));
    }

    /** Spans (start field, end_event_time_ms) that share a moment with [lo, hi]. */
    private static Query overlapping(String startField, long lo, long hi) {
        return Query.of(q -> q.bool(b -> b.filter(f -> f.range(r -> r.untyped(u -> u.field(startField).lte(co.elastic.clients.json.JsonData.of(hi)))))
                .filter(f -> f.range(r -> r.untyped(u -> u.field("end_event_time_ms").gte(co.elastic.clients.json.JsonData.of(lo)))))));
    }

    /**
     * One retention pass at {@code cutoffMs} over the indexed streams {@code covered} accepts:
     * streams whose latest frame is older go whole; of the others, the frames (and stored
     * keyframes), perception, detections, shots, episodes and tracks that ended before it.
     * Registered entities and written memories stay until their stream goes.
     */
    public Expired expire(long cutoffMs, Predicate<String> covered) throws IOException {
        List<String> gone = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        long documents = 0;
        for (VideoDoc v : index.streams()) {
            if (v == null || !covered.test(v.streamId())) {
                continue;
            }
            if (v.lastEventTimeMs() < cutoffMs) {
                documents += deleteAll(v.streamId()).documents();
                gone.add(v.streamId());
            } else {
                kept.add(v.streamId());
            }
        }
        AtomicLong stored = new AtomicLong();
        if (!kept.isEmpty()) {
            Query streams = Query.of(q -> q.terms(t -> t.field("stream_id").terms(v -> v.value(kept.stream().map(FieldValue::of).toList()))));
            for (var e : TIMED.entrySet()) {
                Query old = Query.of(q -> q.bool(b -> b.filter(streams).filter(StreamIndex.before(e.getValue(), cutoffMs))));
                documents += index.deleteWhere(e.getKey(), old, Names.FRAMES_INDEX.equals(e.getKey()) ? doc -> deleteStored(doc, stored) : null,
                        "store_ref");
            }
            Query tracks = tracksBefore(cutoffMs);
            documents += index.deleteWhere(Names.TRACKS_INDEX, Query.of(q -> q.bool(b -> b.filter(streams).filter(tracks))), null);
        }
        return new Expired(cutoffMs, iso(cutoffMs), gone, documents, stored.get());
    }

    /** A track's times are presentation times of its push: it ended before the cutoff when epoch + last seen is before it. */
    private Query tracksBefore(long cutoffMs) throws IOException {
        List<Query> clauses = new ArrayList<>();
        for (long epoch : index.terms(Names.TRACKS_INDEX, "epoch_ms")) {
            if (epoch < cutoffMs) {
                clauses.add(Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("epoch_ms").value(epoch)))
                        .filter(StreamIndex.before("last_seen_ms", cutoffMs - epoch)))));
            }
        }
        return clauses.isEmpty() ? Query.of(q -> q.bool(b -> b.mustNot(m -> m.matchAll(a -> a))))
                : Query.of(q -> q.bool(b -> b.should(clauses).minimumShouldMatch("1")));
    }

    private void deleteStored(JsonNode doc, AtomicLong count) {
        io.videoworld.query.streams.StoredKeyframes.delete(frames, doc, count);
    }

    private static Query kind(String kind) {
        return Query.of(q -> q.term(t -> t.field("kind").value(kind)));
    }

    private static Query term(String id) {
        return Query.of(q -> q.term(t -> t.field("stream_id").value(id)));
    }

    private static String iso(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }
}
