package io.videoworld.query.entity;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository.Found;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Boxes;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.entity.EntityResponses.Distance;
import io.videoworld.query.entity.EntityResponses.Named;
import io.videoworld.query.entity.EntityResponses.Pair;
import io.videoworld.query.entity.EntityResponses.Spatial;
import io.videoworld.query.perception.ObjectFinder;
import io.videoworld.query.perception.ObjectGeometry;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 API-14 {@code spatial_relation}: how a subject (an entity id or a described object)
 * lies relative to an object, or to everything else detected, from box geometry in the image
 * plane (there is no depth): left of, above, inside, overlapping, near, holding, on.
 */
public final class SpatialRelations {
    static final List<String> RELATIONS = List.of("left_of", "right_of", "above", "below", "inside", "overlapping", "near", "holding", "on");

    private final VideoRepository videos;
    private final ObjectFinder finder;
    private final EntityTools entities;

    public SpatialRelations(VideoRepository videos, ObjectFinder finder, EntityTools entities) {
        this.videos = videos;
        this.finder = finder;
        this.entities = entities;
    }

    /** Seed 000 API-14. */
    public Spatial spatialRelation(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String subject = args.requiredString("subject");
        String object = args.optionalString("object").orElse(null);
        String asked = args.optionalString("relation").map(r -> r.trim().toLowerCase().replace(' ', '_')).orElse(null);
        if (asked != null && !RELATIONS.contains(asked)) {
            throw ApiException.badField("relation", "'relation' must be one of " + RELATIONS);
        }
        ObjectFinder.Seen seen = finder.objectsAt(v, t, false);
        double[] s = resolve(v, subject, t, seen, "subject", null);
        Named named = new Named(subject, ObjectGeometry.xywh(s));
        String method = "box geometry in the image plane (no depth): 'holding' = a smaller object overlapping the subject's box, "
                + "'on' = resting on the top edge of the object";
        if (object != null) {
            Pair pair = pair(object, resolve(v, object, t, seen, "object", s), s, v);
            return new Spatial(t, seen.ptsMs() / 1000.0, named, pair, asked, asked == null ? null : pair.relations().contains(asked), null, method);
        }
        List<Pair> pairs = new ArrayList<>();
        for (Found f : seen.found()) {
            if (f.score() >= 0.3 && Boxes.iou(f.bbox(), s) < 0.9) {
                pairs.add(pair(f.category(), f.bbox(), s, v));
            }
        }
        return new Spatial(t, seen.ptsMs() / 1000.0, named, null, null, null, pairs, method);
    }

    private static Pair pair(String name, double[] o, double[] s, VideoDoc v) {
        List<String> rel = new ArrayList<>(relations(s, o));
        double sArea = (s[2] - s[0]) * (s[3] - s[1]);
        double oArea = (o[2] - o[0]) * (o[3] - o[1]);
        if (rel.contains("overlapping") && oArea < 0.5 * sArea) {
            rel.add("holding");
        }
        boolean horizontallyOver = Math.min(s[2], o[2]) > Math.max(s[0], o[0]);
        if (horizontallyOver && Math.abs(s[3] - o[1]) < 0.25 * (o[3] - o[1]) && (s[1] + s[3]) / 2 < o[1] + 0.25 * (o[3] - o[1])) {
            rel.add("on");
        }
        double cdx = (s[0] + s[2] - o[0] - o[2]) / 2;
        double cdy = (s[1] + s[3] - o[1] - o[3]) / 2;
        return new Pair(new Named(name, ObjectGeometry.xywh(o)), rel, new Distance(round(Math.hypot(cdx, cdy), 4), round(gap(s, o), 4),
                Math.round(Math.hypot(cdx * v.width(), cdy * v.height()))));
    }

    /** An entity id's box, or the best detection whose label (or coarse group) the description names, other than {@code not}. */
    private double[] resolve(VideoDoc v, String what, double t, ObjectFinder.Seen seen, String field, double[] not) throws IOException {
        if (what.startsWith("ent_")) {
            return entities.boxAt(v, what, Math.round(t * 1000), field);
        }
        for (Found f : seen.found()) {
            if (ObjectGeometry.names(what, f.category()) && (not == null || Boxes.iou(f.bbox(), not) < 0.9)) {
                return f.bbox();
            }
        }
        throw ApiException.notFound(field, "nothing detected near " + t + " s matches '" + what + "' (labels there: "
                + seen.found().stream().map(Found::category).distinct().toList() + ")");
    }

    /** Spatial relations of a subject box to an object box (normalised corners). */
    static List<String> relations(double[] s, double[] o) {
        List<String> out = new ArrayList<>();
        double scx = (s[0] + s[2]) / 2;
        double scy = (s[1] + s[3]) / 2;
        double ocx = (o[0] + o[2]) / 2;
        double ocy = (o[1] + o[3]) / 2;
        if (s[2] <= o[0] + 0.25 * (o[2] - o[0]) && scx < ocx) {
            out.add("left_of");
        }
        if (s[0] >= o[2] - 0.25 * (o[2] - o[0]) && scx > ocx) {
            out.add("right_of");
        }
        if (s[3] <= o[1] + 0.25 * (o[3] - o[1]) && scy < ocy) {
            out.add("above");
        }
        if (s[1] >= o[3] - 0.25 * (o[3] - o[1]) && scy > ocy) {
            out.add("below");
        }
        double iw = Math.max(0, Math.min(s[2], o[2]) - Math.max(s[0], o[0]));
        double ih = Math.max(0, Math.min(s[3], o[3]) - Math.max(s[1], o[1]));
        double sArea = (s[2] - s[0]) * (s[3] - s[1]);
        if (sArea > 0 && iw * ih / sArea >= 0.9) {
            out.add("inside");
        }
        if (iw * ih > 0) {
            out.add("overlapping");
        }
        if (gap(s, o) < 0.5 * Math.max(s[3] - s[1], o[3] - o[1])) {
            out.add("near");
        }
        return out;
    }

    /** Shortest distance between the edges of two boxes, 0 when they touch or overlap. */
    static double gap(double[] s, double[] o) {
        double dx = Math.max(0, Math.max(o[0] - s[2], s[0] - o[2]));
        double dy = Math.max(0, Math.max(o[1] - s[3], s[1] - o[3]));
        return Math.hypot(dx, dy);
    }
}
