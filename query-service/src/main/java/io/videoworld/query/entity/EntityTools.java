package io.videoworld.query.entity;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository.Entity;
import io.videoworld.connectors.esread.ObjectRepository.Found;
import io.videoworld.connectors.esread.ObjectRepository.Point;
import io.videoworld.connectors.esread.ObjectRepository.Track;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Boxes;
import io.videoworld.core.Vectors;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.ContentIds;
import io.videoworld.query.entity.EntityResponses.Entities;
import io.videoworld.query.entity.EntityResponses.Listed;
import io.videoworld.query.entity.EntityResponses.Registered;
import io.videoworld.query.perception.ObjectFinder;
import io.videoworld.query.perception.ObjectGeometry;
import io.videoworld.query.perception.PixelStats;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Seed 001 API 7 {@code register_entity} and API 15 {@code list_entities}, and the lookups the
 * other entity tools share. An entity is a named handle on one or more tracks: the track under the
 * chosen box at registration, plus tracks of the same category elsewhere in the video whose colour
 * histogram is very close (0.9 cosine) and that never overlap it in time, which is how an object
 * that left and came back (or was seen again after a cut beyond the tracker's own
 * re-identification window) is joined. Registering the same box twice gives the same id (a hash
 * of stream, push and track).
 */
public final class EntityTools {
    private static final double REID_SIMILARITY = 0.9;
    private static final String PERSON = "person";
    /** How far from a time a track's nearest point may be and still say where the entity was then. */
    static final long NEAR_MS = 1500;

    private final VideoRepository videos;
    private final ObjectRepository objects;
    private final ObjectFinder finder;
    private final TextEmbedder embedder;
    private final People people;

    /**
     * @param embedder matches a text hint against what was detected; null matches by label only
     * @param people the person registry a named person is recorded in
     */
    public EntityTools(VideoRepository videos, ObjectRepository objects, ObjectFinder finder, TextEmbedder embedder, People people) {
        this.people = people;
        this.videos = videos;
        this.objects = objects;
        this.finder = finder;
        this.embedder = embedder;
    }

    /** Seed 001 API 7: the detection a hint and/or box picks, the track under it, and look-alike tracks elsewhere. */
    public Registered registerEntity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String hint = args.optionalString("entity_hint").or(() -> args.optionalString("description")).orElse(null);
        String name = args.optionalString("name").map(n -> n.strip().replaceAll("\\s+", " ")).filter(n -> !n.isEmpty()).orElse(null);
        double[] given = null;
        if (args.has("bbox")) {
            List<Double> b = args.numberList("bbox", 4, 4, 0, 1);
            if (b.get(2) <= 0 || b.get(3) <= 0 || b.get(0) + b.get(2) > 1.0001 || b.get(1) + b.get(3) > 1.0001) {
                throw ApiException.badField("bbox", "'bbox' must be [x, y, width, height] inside [0, 1] with positive size");
            }
            given = ObjectGeometry.corners(new double[] {b.get(0), b.get(1), b.get(2), b.get(3)});
        }
        if (hint == null && given == null) {
            throw ApiException.badField("entity_hint", "give 'entity_hint' (or 'description'), 'bbox', or both");
        }
        // Pixels only to name a detection's colour for a hint; a given box picks by overlap and decodes nothing.
        ObjectFinder.Seen seen = finder.objectsAt(v, t, hint != null && given == null);
        Found chosen = choose(seen, hint, given);
        double[] box = chosen != null ? chosen.bbox() : given;
        if (box == null) {
            throw ApiException.notFound("entity_hint", "nothing matching '" + hint + "' was detected near " + t + " s");
        }
        String category = chosen != null ? chosen.category() : null;
        long pts = seen.ptsMs();
        Track track = null;
        double bestIou = 0.3;
        for (Track tr : objects.tracks(v.streamId(), v.epochMs(), pts - NEAR_MS, pts + NEAR_MS)) {
            Point p = nearest(tr, pts);
            double iou = p == null || Math.abs(p.ptsMs() - pts) > NEAR_MS ? 0 : Boxes.iou(p.bbox(), box);
            if (iou > bestIou && (category == null || category.equals(tr.category()))) {
                bestIou = iou;
                track = tr;
            }
        }
        List<String> trackIds = new ArrayList<>();
        if (track != null) {
            trackIds.add(track.id());
            category = track.category();
            for (Track other : objects.tracks(v.streamId(), v.epochMs(), 0, Long.MAX_VALUE / 4)) {
                boolean disjoint = other.lastMs() < track.firstMs() || other.firstMs() > track.lastMs();
                if (!other.id().equals(track.id()) && disjoint && other.category().equals(track.category()) && track.appearance() != null
                        && other.appearance() != null && Vectors.cosine(track.appearance(), other.appearance()) >= REID_SIMILARITY) {
                    trackIds.add(other.id());
                }
            }
        }
        if (name != null && (track == null || !PERSON.equals(track.category()))) {
            throw ApiException.badField("name", "only a tracked person can be named, and no person track passes under this box near " + t + " s");
        }
        String key = v.streamId() + "|" + v.epochMs() + "|" + (track != null ? track.id() : Arrays.toString(round3(box)));
        String entityId = name != null ? People.idOf(name) : ContentIds.of("ent_", key, 8);
        float[] appearance = track == null ? null : track.appearance();
        objects.save(new Entity(entityId, v.streamId(), name != null ? name : hint != null ? hint : category, hint, category, trackIds, pts, appearance));
        if (name != null) {
            people.named(entityId, name, v, new ArrayList<>(objects.tracks(trackIds)));
        }
        return new Registered(entityId, ObjectGeometry.xywh(box), round(chosen != null ? chosen.score() : 0, 4),
                appearance == null ? null : ContentIds.of("vs_", Arrays.toString(appearance), 10), trackIds, category, pts / 1000.0,
                track == null ? "no track passes under this box near " + t + " s; the entity holds the box only" : null, name);
    }

    /** The detection a box overlaps most, or that a hint describes best (by embedding, label and confidence). */
    private Found choose(ObjectFinder.Seen seen, String hint, double[] given) {
        Found best = null;
        double bestScore = -1;
        float[] q = hint == null || embedder == null ? null : embedder.embed(hint);
        for (Found f : seen.found()) {
            double score;
            if (given != null) {
                score = Boxes.iou(f.bbox(), given);
                if (score < 0.1) {
                    continue;
                }
            } else {
                String colour = seen.image() == null ? null : PixelStats.dominantColour(seen.image(), ObjectGeometry.toD(f.bboxPixels()));
                String desc = (colour == null ? "" : colour + " ") + f.category();
                score = (q == null ? 0 : Vectors.cosine(q, embedder.embed(desc))) + (ObjectGeometry.names(hint, f.category()) ? 0.3 : 0)
                        + 0.2 * f.score();
            }
            if (score > bestScore) {
                bestScore = score;
                best = f;
            }
        }
        return best;
    }

    /**
     * Seed 001 API 15: the registered entities, then (unless {@code include_tracks} is false) the
     * tracked objects of the current push that no registered entity claims, first seen first.
     */
    public Entities listEntities(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        boolean withTracks = args.optionalBoolean("include_tracks").orElse(true);
        String category = args.optionalString("category").orElse(null);
        List<Listed> out = new ArrayList<>();
        java.util.Set<String> claimed = new java.util.HashSet<>();
        for (Entity e : objects.entities(v.streamId())) {
            claimed.addAll(e.trackIds());
            if (category != null && !category.equals(e.category())) {
                continue;
            }
            List<Track> tracks = tracksOf(e);
            double first = tracks.isEmpty() ? e.registeredAtMs() / 1000.0 : tracks.stream().mapToLong(Track::firstMs).min().getAsLong() / 1000.0;
            double last = tracks.isEmpty() ? e.registeredAtMs() / 1000.0 : tracks.stream().mapToLong(Track::lastMs).max().getAsLong() / 1000.0;
            boolean person = e.entityId().startsWith(People.PREFIX);
            out.add(new Listed(e.entityId(), person ? PERSON : "entity", e.hint(), first, last,
                    tracks.stream().mapToLong(t -> t.lastMs() - t.firstMs()).sum() / 1000.0, e.category(), e.trackIds(), person ? e.name() : null));
        }
        if (withTracks) {
            List<Track> tracks = new ArrayList<>(objects.tracks(v.streamId(), v.epochMs(), 0, Long.MAX_VALUE / 4));
            tracks.sort(java.util.Comparator.comparingLong(Track::firstMs).thenComparingLong(Track::number));
            for (Track t : tracks) {
                if (!claimed.contains(t.id()) && (category == null || category.equals(t.category()))) {
                    out.add(new Listed(t.id(), "track", null, t.firstMs() / 1000.0, t.lastMs() / 1000.0, (t.lastMs() - t.firstMs()) / 1000.0,
                            t.category(), List.of(t.id()), null));
                }
            }
        }
        return new Entities(out, out.size());
    }

    /**
     * A registered entity of the stream, or a track of it (an id {@code list_entities} lists with
     * kind "track") as an entity of that one track; else a 404 naming {@code field}.
     */
    Entity require(VideoDoc v, String entityId, String field) throws IOException {
        if (entityId.startsWith(People.PREFIX)) {
            List<Entity> named = objects.entitiesById(entityId);
            if (!named.isEmpty()) {
                return acrossStreams(v, named);
            }
        }
        Optional<Entity> registered = objects.entity(v.streamId(), entityId);
        if (registered.isPresent()) {
            return registered.get();
        }
        if (entityId.startsWith(v.streamId() + ":t:")) {
            Optional<Track> t = objects.track(entityId);
            if (t.isPresent()) {
                return new Entity(entityId, v.streamId(), entityId, null, t.get().category(), List.of(entityId), v.epochMs() + t.get().firstMs(),
                        t.get().appearance());
            }
        }
        throw ApiException.notFound(field, "no entity '" + entityId + "' is registered for '" + v.streamId()
                + "' and no track has that id; call list_entities or register_entity first");
    }

    /** A person named in several streams as one entity: every stream's tracks, this stream's first, and this stream's name for them. */
    private static Entity acrossStreams(VideoDoc v, List<Entity> named) {
        List<Entity> order = new ArrayList<>(named);
        order.sort(java.util.Comparator.comparing((Entity e) -> !e.streamId().equals(v.streamId())));
        java.util.LinkedHashSet<String> tracks = new java.util.LinkedHashSet<>();
        order.forEach(e -> tracks.addAll(e.trackIds()));
        Entity first = order.get(0);
        return new Entity(first.entityId(), v.streamId(), first.name(), first.hint(), first.category(), List.copyOf(tracks), first.registeredAtMs(),
                first.appearance());
    }

    /** The entity's tracks, first seen first. */
    List<Track> tracksOf(Entity e) throws IOException {
        List<Track> out = new ArrayList<>(objects.tracks(e.trackIds()));
        out.sort((a, b) -> Long.compare(a.firstMs(), b.firstMs()));
        return out;
    }

    /** The entity's box (normalised corners) at a time, from the nearest observed point within {@link #NEAR_MS}. */
    double[] boxAt(VideoDoc v, String entityId, long ptsMs, String field) throws IOException {
        Point p = pointAt(tracksOf(require(v, entityId, field)), ptsMs)
                .orElseThrow(() -> ApiException.notFound(field, entityId + " is not seen within 1.5 s of " + ptsMs / 1000.0 + " s"));
        return p.bbox();
    }

    /** The observed point of any of the tracks nearest a time, if within {@link #NEAR_MS}. */
    static Optional<Point> pointAt(List<Track> tracks, long ptsMs) {
        Point best = null;
        for (Track t : tracks) {
            Point p = nearest(t, ptsMs);
            if (p != null && (best == null || Math.abs(p.ptsMs() - ptsMs) < Math.abs(best.ptsMs() - ptsMs))) {
                best = p;
            }
        }
        return best != null && Math.abs(best.ptsMs() - ptsMs) <= NEAR_MS ? Optional.of(best) : Optional.empty();
    }

    /** A track's box at a time: the observed point nearest it (tracks are sampled, not interpolated across gaps). */
    private static Point nearest(Track t, long ptsMs) {
        Point best = null;
        for (Point p : t.timeline()) {
            if (best == null || Math.abs(p.ptsMs() - ptsMs) < Math.abs(best.ptsMs() - ptsMs)) {
                best = p;
            }
        }
        return best;
    }

    private static double[] round3(double[] b) {
        double[] out = new double[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = round(b[i], 3);
        }
        return out;
    }
}
