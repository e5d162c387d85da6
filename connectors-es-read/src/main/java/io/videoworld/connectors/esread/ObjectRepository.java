package io.videoworld.connectors.esread;

import io.videoworld.connectors.es.EsIndices;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads of what the detector and tracker wrote ({@code vw-detections}, {@code vw-tracks}) and
 * the entity registry the query service keeps ({@code vw-entities}). Boxes are returned as
 * stored: {@code [x1, y1, x2, y2]}, normalised and in pixels.
 */
public final class ObjectRepository {
    /** One detected object. */
    public record Found(String category, double score, double[] bbox, int[] bboxPixels) {}

    /** The objects of one sampled frame. */
    public record FrameObjects(long frameIndex, long ptsMs, int width, int height, List<Found> objects) {}

    /** One observed point of a track. */
    public record Point(long frameIndex, long ptsMs, double score, double[] bbox, int[] bboxPixels) {}

    /** A track as stored. */
    public record Track(String id, long number, String category, int width, int height, long firstMs, long lastMs, int samples,
            double meanScore, boolean alive, int reidentified, List<Point> timeline, float[] appearance) {}

    /** A registered entity. */
    public record Entity(String entityId, String streamId, String name, String hint, String category, List<String> trackIds,
            long registeredAtMs, float[] appearance) {}

    private final ElasticsearchClient client;
    private final TtlCache<String, List<Track>> trackReads;
    private final TtlCache<String, List<FrameObjects>> detectionReads;
    /** A stream's registered entities, and single entities by document id: the job never writes them, agents read them often. */
    private final TtlCache<String, List<Entity>> entityLists;
    private final TtlCache<String, Optional<Entity>> entityReads;
    /** Entities this repository wrote (body less the write time): laid over the reads above, and not rewritten when the same. */
    private final OwnWrites<Entity> ownEntities;
    private volatile boolean entitiesIndexReady;

    public ObjectRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a read of a stream's tracks or detections near a time is reused (0: never) */
    public ObjectRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.trackReads = new TtlCache<>(cacheMs);
        this.detectionReads = new TtlCache<>(cacheMs);
        this.entityLists = new TtlCache<>(cacheMs);
        this.entityReads = new TtlCache<>(cacheMs);
        this.ownEntities = new OwnWrites<>(OWN_WRITES_MS, cacheMs <= 0 ? 0 : cacheMs + TtlCache.STALE_GRACE_MS);
    }

    /** How long this repository's own entity writes are laid over reads: well past the index's 1 s refresh and the read caches. */
    static final long OWN_WRITES_MS = 5000;

    /** Forgets what is cached or remembered as written of a stream, as when it is deleted: the next reads go to Elasticsearch. */
    public void forgetStream(String streamId) {
        ownEntities.forgetStream(streamId);
        entityLists.clear();
        entityReads.clear();
        trackReads.clear();
        detectionReads.clear();
    }

    private static Query scope(String streamId, long epochMs) {
        return Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))));
    }

    /** The sampled frame nearest a presentation time, if one lies within {@code maxOffsetMs}. */
    public Optional<FrameObjects> nearestDetections(String streamId, long epochMs, long ptsMs, long maxOffsetMs) throws IOException {
        List<FrameObjects> near = detectionReads.get(streamId + "\u0000" + epochMs + "\u0000" + ptsMs + "\u0000" + maxOffsetMs,
                k -> detectionsNear(streamId, epochMs, ptsMs, maxOffsetMs));
        return near.stream().min((a, b) -> Long.compare(Math.abs(a.ptsMs() - ptsMs), Math.abs(b.ptsMs() - ptsMs)));
    }

    private List<FrameObjects> detectionsNear(String streamId, long epochMs, long ptsMs, long maxOffsetMs) throws IOException {
        return search(Names.DETECTIONS_INDEX, q -> q.bool(b -> b.filter(scope(streamId, epochMs))
                .filter(f -> f.range(r -> r.number(n -> n.field("pts_ms").gte((double) ptsMs - maxOffsetMs).lte((double) ptsMs + maxOffsetMs))))),
                "pts_ms", 50, ObjectRepository::frameObjects);
    }

    /** Tracks seen at some time between two presentation times, longest first. */
    public List<Track> tracks(String streamId, long epochMs, long fromMs, long toMs) throws IOException {
        return trackReads.get(streamId + "\u0000" + epochMs + "\u0000" + fromMs + "\u0000" + toMs, k -> readTracks(streamId, epochMs, fromMs, toMs));
    }

    private List<Track> readTracks(String streamId, long epochMs, long fromMs, long toMs) throws IOException {
        List<Track> out = search(Names.TRACKS_INDEX, q -> q.bool(b -> b.filter(scope(streamId, epochMs))
                .filter(f -> f.range(r -> r.number(n -> n.field("first_seen_ms").lte((double) toMs))))
                .filter(f -> f.range(r -> r.number(n -> n.field("last_seen_ms").gte((double) fromMs))))),
                "first_seen_ms", 500, ObjectRepository::track);
        // Most samples first; ties by id, since Elasticsearch's order among equal start times varies with its shards.
        out.sort(java.util.Comparator.comparingInt(Track::samples).reversed().thenComparing(Track::id));
        return List.copyOf(out);
    }

    /** The tracks with these ids that exist, in one round trip. */
    public List<Track> tracks(List<String> ids) throws IOException {
        if (ids.isEmpty()) {
            return List.of();
        }
        return trackReads.get("ids\u0000" + String.join("\u0000", ids), k -> readTracks(ids));
    }

    private List<Track> readTracks(List<String> ids) throws IOException {
        try {
            List<Track> out = new ArrayList<>();
            // Not realtime: the job rewrites live tracks every second, and a realtime get of an unrefreshed one refreshes the shard.
            for (var d : client.mget(m -> m.index(Names.TRACKS_INDEX).ids(ids).realtime(false), JsonNode.class).docs()) {
                if (d.isResult() && d.result().found() && d.result().source() != null) {
                    out.add(track(d.result().source()));
                }
            }
            return List.copyOf(out);
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** The track with this id, if it exists (through the same cached read as {@link #tracks(List)}). */
    public Optional<Track> track(String id) throws IOException {
        return tracks(List.of(id)).stream().findFirst();
    }

    /**
     * Writes an entity; this repository's next reads see it at once ({@link OwnWrites}), others
     * after the index's next refresh, which the write does not force. The index is made (or
     * brought up to date) once per repository, and registering the same entity again, which an
     * agent does, writes nothing: the document it would write is already there (checked in
     * Elasticsearch at most once per read-cache period, in case the stream was deleted elsewhere).
     */
    public void save(Entity e) throws IOException {
        ObjectNode doc = Json.MAPPER.valueToTree(e);
        if (e.appearance() == null) {
            doc.remove("appearance");
        }
        String id = e.streamId() + ":" + e.entityId();
        String body = doc.toString();
        if (ownEntities.unchanged(id, body)) {
            return;
        }
        if (ownEntities.writtenBefore(id, body) && client.exists(x -> x.index(Names.ENTITIES_INDEX).id(id)).value()) {
            ownEntities.verified(id);
            return;
        }
        doc.put("created_ms", System.currentTimeMillis());
        if (!entitiesIndexReady) {
            EsIndices.ensure(client, List.of(Names.ENTITIES_INDEX));
            entitiesIndexReady = true;
        }
        client.index(i -> i.index(Names.ENTITIES_INDEX).id(id).document(doc));
        ownEntities.put(id, e.streamId(), body, e);
    }

    /** A registered entity of a stream: this repository's own recent write, else a read reused for the cache period. */
    public Optional<Entity> entity(String streamId, String entityId) throws IOException {
        String id = streamId + ":" + entityId;
        Optional<Entity> mine = ownEntities.recent(id);
        if (mine.isPresent()) {
            return mine;
        }
        return entityReads.get(id, k -> {
            try {
                var r = client.get(g -> g.index(Names.ENTITIES_INDEX).id(id), JsonNode.class);
                return r.found() ? Optional.of(Json.MAPPER.treeToValue(r.source(), Entity.class)) : Optional.<Entity>empty();
            } catch (ElasticsearchException e) {
                if (e.status() == 404) {
                    return Optional.<Entity>empty();
                }
                throw e;
            }
        });
    }

    /** A stream's registered entities, first registered (in video time) first, with this repository's recent writes laid over. */
    public List<Entity> entities(String streamId) throws IOException {
        List<Entity> read = entityLists.get(streamId, k -> List.copyOf(search(Names.ENTITIES_INDEX,
                q -> q.term(t -> t.field("stream_id").value(streamId)), "registered_at_ms", 500, n -> Json.MAPPER.treeToValue(n, Entity.class))));
        return ownEntities.overlay(streamId, read, Entity::entityId, java.util.Comparator.comparingLong(Entity::registeredAtMs));
    }

    /** The entity registered under this id in every stream (a named person is registered under one id in each stream it is named in). */
    public List<Entity> entitiesById(String entityId) throws IOException {
        List<Entity> read = search(Names.ENTITIES_INDEX, q -> q.term(t -> t.field("entity_id").value(entityId)), "registered_at_ms", 500,
                n -> Json.MAPPER.treeToValue(n, Entity.class));
        java.util.Map<String, Entity> byStream = new java.util.LinkedHashMap<>();
        read.forEach(e -> byStream.put(e.streamId(), e));
        for (Entity e : ownEntities.recentValues()) {
            if (e.entityId().equals(entityId)) {
                byStream.put(e.streamId(), e);
            }
        }
        return List.copyOf(byStream.values());
    }

    /** Forgets what is cached or remembered as written of an entity that was deleted in every stream. */
    public void forgetEntity(String entityId, List<String> streamIds) {
        streamIds.forEach(s -> ownEntities.forget(s + ":" + entityId));
        entityLists.clear();
        entityReads.clear();
        trackReads.clear();
        detectionReads.clear();
    }

    private interface Reader<T> {
        T read(JsonNode source) throws IOException;
    }

    private <T> List<T> search(String index, java.util.function.Function<Query.Builder, co.elastic.clients.util.ObjectBuilder<Query>> query,
            String sortField, int size, Reader<T> reader) throws IOException {
        try {
            List<T> out = new ArrayList<>();
            for (Hit<JsonNode> h : client.search(s -> s.index(index).size(size).query(query)
                    .sort(o -> o.field(f -> f.field(sortField).order(SortOrder.Asc))), JsonNode.class).hits().hits()) {
                out.add(reader.read(h.source()));
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    private static FrameObjects frameObjects(JsonNode d) {
        List<Found> objects = new ArrayList<>();
        for (JsonNode o : d.path("objects")) {
            objects.add(new Found(o.path("category").asText(), o.path("score").asDouble(), doubles(o.get("bbox")), ints(o.get("bbox_pixels"))));
        }
        return new FrameObjects(d.path("frame_index").asLong(), d.path("pts_ms").asLong(), d.path("width").asInt(), d.path("height").asInt(), objects);
    }

    private static Track track(JsonNode d) {
        List<Point> timeline = new ArrayList<>();
        for (JsonNode p : d.path("timeline")) {
            timeline.add(new Point(p.path("frame_index").asLong(), p.path("pts_ms").asLong(), p.path("score").asDouble(),
                    doubles(p.get("bbox")), ints(p.get("bbox_pixels"))));
        }
        float[] appearance = null;
        if (d.has("appearance")) {
            appearance = new float[d.get("appearance").size()];
            for (int i = 0; i < appearance.length; i++) {
                appearance[i] = (float) d.get("appearance").get(i).asDouble();
            }
        }
        return new Track(d.path("track_id").asText(), d.path("track_number").asLong(), d.path("category").asText(), d.path("width").asInt(),
                d.path("height").asInt(), d.path("first_seen_ms").asLong(), d.path("last_seen_ms").asLong(), d.path("samples").asInt(),
                d.path("mean_score").asDouble(), d.path("alive").asBoolean(), d.path("reidentified").asInt(), timeline, appearance);
    }

    private static double[] doubles(JsonNode a) {
        double[] out = new double[a == null ? 0 : a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asDouble();
        }
        return out;
    }

    private static int[] ints(JsonNode a) {
        int[] out = new int[a == null ? 0 : a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asInt();
        }
        return out;
    }

    /** Each read cache's hits, misses and loads, by name, for the service's metrics. */
    public java.util.Map<String, com.github.benmanes.caffeine.cache.stats.CacheStats> cacheStats() {
        return java.util.Map.of("tracks", trackReads.stats(), "detections", detectionReads.stats(), "entity_lists", entityLists.stats(),
                "entities", entityReads.stats());
    }
}
