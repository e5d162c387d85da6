package io.videoworld.query;

import io.videoworld.connectors.es.ObjectRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Detection;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 000 API-6 {@code detect_objects}, API-7 {@code recognize_activity}, API-8
 * {@code get_scene_attributes} and API-14 {@code spatial_relation}, answered from what the ingest
 * job's detector and tracker stored, or, where nothing was stored near the asked time, by running
 * the detector on the decoded frame ({@code detection_method} says which). The detector is
 * closed-vocabulary (COCO-80): {@code query} ranks boxes by how well "colour label" descriptions
 * of them match the query's embedding; it cannot find what COCO has no label for, and says so.
 */
final class ObjectTools {
    private final VideoRepository videos;
    private final ObjectRepository objects;
    private final FrameAccess frames;
    private final ObjectDetector detector;
    private final TextEmbedder embedder;

    ObjectTools(VideoRepository videos, ObjectRepository objects, FrameAccess frames, ObjectDetector detector, TextEmbedder embedder) {
        this.videos = videos;
        this.objects = objects;
        this.frames = frames;
        this.detector = detector;
        this.embedder = embedder;
    }

    /** Objects in one frame: stored detections when a sample lies close enough, else the detector on demand. */
    record Seen(long ptsMs, String frameId, long frameNumber, int width, int height, String method, List<ObjectRepository.Found> found,
            DecodedImage image) {}

    Seen objectsAt(VideoDoc v, double timestamp, boolean needPixels) throws IOException {
        long pts = Math.round(timestamp * 1000);
        var stored = objects.nearestDetections(v.streamId(), v.epochMs(), pts, 600);
        if (stored.isPresent()) {
            var s = stored.get();
            DecodedImage img = needPixels ? image(v, s.ptsMs() / 1000.0) : null;
            return new Seen(s.ptsMs(), io.videoworld.core.Ids.frame(v.streamId(), s.frameIndex()), s.frameIndex(), s.width(), s.height(),
                    "precomputed", s.objects(), img);
        }
        if (detector == null) {
            throw new ApiException(501, "not_implemented", "timestamp", "no detections are stored near " + timestamp
                    + " s and the on-demand detector is not configured (start the query service with --models pointing at deploy/models.sh's directory)");
        }
        FrameAccess.Image picture = frames.at(v, List.of(timestamp)).get(0);
        DecodedImage img = DecodedImage.decode(picture.jpeg());
        List<ObjectRepository.Found> found = new ArrayList<>();
        synchronized (detector) {
            for (Detection d : detector.detect(List.of(img)).get(0)) {
                found.add(new ObjectRepository.Found(d.category(), d.score(), new double[] {d.x1() / img.width(), d.y1() / img.height(),
                        d.x2() / img.width(), d.y2() / img.height()}, new int[] {(int) Math.round(d.x1()), (int) Math.round(d.y1()),
                        (int) Math.round(d.x2()), (int) Math.round(d.y2())}));
            }
        }
        String frameId = picture.frameId();
        long number = Long.parseLong(frameId.substring(frameId.lastIndexOf(':') + 1));
        return new Seen(picture.ptsMs(), frameId, number, img.width(), img.height(), "realtime", found, img);
    }

    DecodedImage image(VideoDoc v, double timestamp) throws IOException {
        return DecodedImage.decode(frames.at(v, List.of(timestamp)).get(0).jpeg());
    }

    Map<String, Object> detectObjects(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String category = args.optionalString("category").orElse(null);
        String query = args.optionalString("query").or(() -> args.optionalString("text_query")).orElse(null);
        double threshold = args.optionalNumber("confidence_threshold", 0, 1).orElse(0.3);
        Seen seen = objectsAt(v, t, true);
        float[] q = query == null || embedder == null ? null : embedder.embed(query);
        List<Map<String, Object>> out = new ArrayList<>();
        int n = 0;
        for (ObjectRepository.Found f : seen.found()) {
            if (f.score() < threshold || !ObjectGeometry.inCategory(f.category(), category)) {
                continue;
            }
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("object_id", String.format("obj_tmp_%03d", ++n));
            o.put("category", f.category());
            o.put("bbox", ObjectGeometry.xywh(f.bbox()));
            o.put("bbox_pixels", ObjectGeometry.xywh(f.bboxPixels()));
            o.put("confidence", ObjectGeometry.r4(f.score()));
            String colour = seen.image() == null ? null : PixelStats.dominantColour(seen.image(), ObjectGeometry.toD(f.bboxPixels()));
            String hint = (colour == null ? "" : colour + " ") + f.category();
            o.put("entity_hint", hint);
            if (colour != null) {
                o.put("attributes", Map.of("dominant_color", colour));
            }
            if (q != null) {
                o.put("query_similarity", ObjectGeometry.r4(cosine(q, embedder.embed(hint))));
            }
            out.add(o);
        }
        if (q != null) {
            out.sort((a, b) -> Double.compare((double) b.get("query_similarity"), (double) a.get("query_similarity")));
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("timestamp", t);
        r.put("frame_timestamp", seen.ptsMs() / 1000.0);
        r.put("frame_info", Map.of("frame_id", seen.frameId(), "frame_number", seen.frameNumber()));
        r.put("detection_method", seen.method());
        r.put("detector", detector == null ? "centernet" : detector.spec());
        r.put("objects", out);
        if (query != null) {
            r.put("query_matching", embedder == null ? "not available (no embedder loaded); objects are unranked"
                    : "closed-vocabulary detector (COCO-80): objects ranked by embedding similarity of 'colour label' to the query");
        }
        return r;
    }

    static final List<String> RELATIONS = List.of("left_of", "right_of", "above", "below", "inside", "overlapping", "near", "holding", "on");

    Map<String, Object> spatialRelation(Args args, EntityTools entities) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String subject = args.requiredString("subject");
        String object = args.optionalString("object").orElse(null);
        String asked = args.optionalString("relation").map(r -> r.trim().toLowerCase().replace(' ', '_')).orElse(null);
        if (asked != null && !RELATIONS.contains(asked)) {
            throw ApiException.badField("relation", "'relation' must be one of " + RELATIONS);
        }
        Seen seen = objectsAt(v, t, false);
        double[] s = resolve(v, subject, t, seen, entities, "subject", null);
        List<Map<String, Object>> pairs = new ArrayList<>();
        if (object != null) {
            double[] o = resolve(v, object, t, seen, entities, "object", s);
            pairs.add(pair(object, o, s, v));
        } else {
            for (ObjectRepository.Found f : seen.found()) {
                if (f.score() >= 0.3 && ObjectGeometry.iou(f.bbox(), s) < 0.9) {
                    pairs.add(pair(f.category(), f.bbox(), s, v));
                }
            }
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("timestamp", t);
        r.put("frame_timestamp", seen.ptsMs() / 1000.0);
        r.put("subject", Map.of("id", subject, "bbox", ObjectGeometry.xywh(s)));
        if (object != null) {
            r.putAll(pairs.get(0));
            if (asked != null) {
                r.put("relation", asked);
                r.put("holds", ((List<?>) pairs.get(0).get("relations")).contains(asked));
            }
        } else {
            r.put("pairs", pairs);
        }
        r.put("method", "box geometry in the image plane (no depth): 'holding' = a smaller object overlapping the subject's box, "
                + "'on' = resting on the top edge of the object");
        return r;
    }

    private static Map<String, Object> pair(String name, double[] o, double[] s, VideoDoc v) {
        List<String> rel = new ArrayList<>(ObjectGeometry.relations(s, o));
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
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("object", Map.of("id", name, "bbox", ObjectGeometry.xywh(o)));
        m.put("relations", rel);
        m.put("distance", Map.of("centre_normalized", ObjectGeometry.r4(Math.hypot(cdx, cdy)), "edge_normalized",
                ObjectGeometry.r4(ObjectGeometry.gap(s, o)), "centre_pixels", Math.round(Math.hypot(cdx * v.width(), cdy * v.height()))));
        return m;
    }

    /** An entity id's box, or the best detection whose label (or coarse group) the description names. */
    private double[] resolve(VideoDoc v, String what, double t, Seen seen, EntityTools entities, String field, double[] not) throws IOException {
        if (what.startsWith("ent_")) {
            return entities.boxAt(v, what, Math.round(t * 1000), field);
        }
        String lower = what.toLowerCase();
        for (ObjectRepository.Found f : seen.found()) {
            boolean named = lower.contains(f.category()) || ObjectGeometry.GROUPS.entrySet().stream()
                    .anyMatch(g -> lower.contains(g.getKey()) && g.getValue().contains(f.category()));
            if (named && (not == null || ObjectGeometry.iou(f.bbox(), not) < 0.9)) {
                return f.bbox();
            }
        }
        throw ApiException.notFound(field, "nothing detected near " + t + " s matches '" + what + "' (labels there: "
                + seen.found().stream().map(ObjectRepository.Found::category).distinct().toList() + ")");
    }

    Map<String, Object> getSceneAttributes(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        List<String> wanted = args.has("attributes") ? args.stringList("attributes") : List.of();
        DecodedImage now = image(v, t);
        PixelStats.Scene s = PixelStats.scene(now);
        Map<String, Object> all = new LinkedHashMap<>();
        boolean outdoor = s.skyFraction() > 0.3;
        all.put("location", outdoor ? "outdoor" : "indoor");
        all.put("lighting", s.brightness() < 60 ? "dark" : s.brightness() < 110 ? "dim" : "bright");
        all.put("color_temperature", s.warmth() > 18 ? "warm" : s.warmth() < -12 ? "cool" : "neutral");
        all.put("time_of_day", outdoor ? (s.brightness() > 100 ? "daytime" : "night") : null);
        all.put("weather", null);
        Seen seen = null;
        try {
            seen = objectsAt(v, t, false);
        } catch (ApiException e) {
            // No detector and nothing stored: shot scale stays unknown.
        }
        double tallest = 0;
        if (seen != null) {
            for (ObjectRepository.Found f : seen.found()) {
                if ("person".equals(f.category()) && f.score() >= 0.3) {
                    tallest = Math.max(tallest, f.bbox()[3] - f.bbox()[1]);
                }
            }
        }
        all.put("camera_angle", seen == null ? null : tallest == 0 ? "no_person_visible" : tallest > 0.8 ? "close_up"
                : tallest > 0.45 ? "medium_shot" : "long_shot");
        double dt = 0.5;
        double duration = v.lastPtsMs() / 1000.0;
        double other = t + dt <= duration ? t + dt : Math.max(0, t - dt);
        String motion = null;
        if (other != t) {
            double[] shift = PixelStats.globalShift(now, image(v, other));
            double sign = other > t ? 1 : -1;
            double dx = shift[0] * sign;
            double dy = shift[1] * sign;
            if (shift[2] > 0.9 && shift[3] > 25) {
                motion = "cut_or_fast_motion";
            } else if (Math.hypot(dx, dy) < 0.01) {
                motion = "static";
            } else if (Math.abs(dx) >= Math.abs(dy)) {
                motion = dx > 0 ? "pan_left" : "pan_right";
            } else {
                motion = dy > 0 ? "tilt_up" : "tilt_down";
            }
        }
        all.put("camera_motion", motion);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("timestamp", t);
        all.forEach((k, val) -> {
            if (wanted.isEmpty() || wanted.contains(k) || ("location".equals(k) && wanted.contains("indoor_outdoor"))) {
                r.put(k, val);
            }
        });
        r.put("evidence", Map.of("mean_brightness", Math.round(s.brightness()), "contrast", Math.round(s.contrast()),
                "sky_fraction_of_top_quarter", ObjectGeometry.r4(s.skyFraction()), "tallest_person_fraction", ObjectGeometry.r4(tallest)));
        r.put("method", "image statistics (brightness, colour, sky pixels), global motion between frames " + dt
                + " s apart, shot scale from the tallest person box; weather is not measured");
        return r;
    }

    Map<String, Object> recognizeActivity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double start = args.requiredNumber("start_time", 0, 1e9);
        double end = args.requiredNumber("end_time", 0, 1e9);
        if (end <= start) {
            throw ApiException.badField("end_time", "'end_time' must be after 'start_time'");
        }
        int topK = args.optionalInt("top_k", 1, 50).orElse(5);
        long from = Math.round(start * 1000);
        long to = Math.round(end * 1000);
        Map<String, double[]> byLabel = new LinkedHashMap<>();
        Map<String, List<String>> subjects = new LinkedHashMap<>();
        double covered = 0;
        List<Map<String, Object>> analysed = new ArrayList<>();
        for (ObjectRepository.Track tr : objects.tracks(v.streamId(), v.epochMs(), from, to)) {
            List<ObjectRepository.Point> pts = tr.timeline().stream().filter(p -> p.ptsMs() >= from && p.ptsMs() <= to).toList();
            if (pts.size() < 2) {
                continue;
            }
            String label = activity(tr.category(), ObjectGeometry.heightsPerSecond(pts));
            double span = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
            double[] agg = byLabel.computeIfAbsent(label, k -> new double[] {0, Double.MAX_VALUE, 0});
            agg[0] += span;
            agg[1] = Math.min(agg[1], pts.get(0).ptsMs() / 1000.0);
            agg[2] = Math.max(agg[2], pts.get(pts.size() - 1).ptsMs() / 1000.0);
            subjects.computeIfAbsent(label, k -> new ArrayList<>()).add(tr.id());
            covered += span;
        }
        List<Map<String, Object>> acts = new ArrayList<>();
        final double total = covered;
        byLabel.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0])).limit(topK).forEach(e -> {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("label", e.getKey());
            a.put("confidence", ObjectGeometry.r4(e.getValue()[0] / total));
            a.put("start_time", e.getValue()[1]);
            a.put("end_time", e.getValue()[2]);
            a.put("subjects", subjects.get(e.getKey()));
            acts.add(a);
        });
        for (double s = start; s <= end + 1e-9 && analysed.size() < 8; s += Math.max(0.25, (end - start) / 7)) {
            analysed.add(Map.of("timestamp", ObjectGeometry.r4(s)));
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("activities", acts);
        r.put("primary_activity", acts.isEmpty() ? null : acts.get(0).get("label"));
        r.put("frames_analyzed", analysed);
        r.put("method", "track motion and labels (speed in body heights per second); confidence = share of tracked time");
        if (acts.isEmpty()) {
            r.put("reason", "no object was tracked for two samples or more between " + start + " and " + end + " s");
        }
        return r;
    }

    /** An activity label from a category and its speed in box heights per second. */
    static String activity(String category, double heightsPerSecond) {
        if ("person".equals(category)) {
            return heightsPerSecond < 0.15 ? "person standing" : heightsPerSecond < 1.5 ? "person walking" : "person running";
        }
        if (ObjectGeometry.GROUPS.get("vehicle").contains(category)) {
            return heightsPerSecond < 0.1 ? category + " parked" : category + " moving";
        }
        return heightsPerSecond < 0.15 ? category + " present" : category + " moving";
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
