package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
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

    public ObjectRepository(ElasticsearchClient client) {
        this.client = client;
    }

    private static Query scope(String streamId, long epochMs) {
        return Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))));
    }

    /** The sampled frame nearest a presentation time, if one lies within {@code maxOffsetMs}. */
    public Optional<FrameObjects> nearestDetections(String streamId, long epochMs, long ptsMs, long maxOffsetMs) throws IOException {
        List<FrameObjects> near = search(Names.DETECTIONS_INDEX, q -> q.bool(b -> b.filter(scope(streamId, epochMs))
                .filter(f -> f.range(r -> r.number(n -> n.field("pts_ms").gte((double) ptsMs - maxOffsetMs).lte((double) ptsMs + maxOffsetMs))))),
                "pts_ms", 50, ObjectRepository::frameObjects);
        return near.stream().min((a, b) -> Long.compare(Math.abs(a.ptsMs() - ptsMs), Math.abs(b.ptsMs() - ptsMs)));
    }

    /** Tracks seen at some time between two presentation times, longest first. */
    public List<Track> tracks(String streamId, long epochMs, long fromMs, long toMs) throws IOException {
        List<Track> out = search(Names.TRACKS_INDEX, q -> q.bool(b -> b.filter(scope(streamId, epochMs))
                .filter(f -> f.range(r -> r.number(n -> n.field("first_seen_ms").lte((double) toMs))))
                .filter(f -> f.range(r -> r.number(n -> n.field("last_seen_ms").gte((double) fromMs))))),
                "first_seen_ms", 500, ObjectRepository::track);
        out.sort((a, b) -> Integer.compare(b.samples(), a.samples()));
        return out;
    }

    public Optional<Track> track(String id) throws IOException {
        try {
            var r = client.get(g -> g.index(Names.TRACKS_INDEX).id(id), JsonNode.class);
            return r.found() ? Optional.of(track(r.source())) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Writes an entity and makes it visible to the next read at once. */
    public void save(Entity e) throws IOException {
        ObjectNode doc = Json.MAPPER.valueToTree(e);
        if (e.appearance() == null) {
            doc.remove("appearance");
        }
        doc.put("created_ms", System.currentTimeMillis());
        EsIndices.ensure(client, List.of(Names.ENTITIES_INDEX));
        client.index(i -> i.index(Names.ENTITIES_INDEX).id(e.streamId() + ":" + e.entityId()).document(doc).refresh(Refresh.True));
    }

    public Optional<Entity> entity(String streamId, String entityId) throws IOException {
        try {
            var r = client.get(g -> g.index(Names.ENTITIES_INDEX).id(streamId + ":" + entityId), JsonNode.class);
            return r.found() ? Optional.of(Json.MAPPER.treeToValue(r.source(), Entity.class)) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    public List<Entity> entities(String streamId) throws IOException {
        return search(Names.ENTITIES_INDEX, q -> q.term(t -> t.field("stream_id").value(streamId)), "registered_at_ms", 500,
                n -> Json.MAPPER.treeToValue(n, Entity.class));
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
}
