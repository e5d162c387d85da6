package io.videoworld.query;

import io.videoworld.connectors.es.ObjectRepository;
import io.videoworld.connectors.es.PerceptionRepository;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.connectors.llm.ChatMessage;
import io.videoworld.connectors.llm.LlmClient;
import io.videoworld.connectors.llm.LlmException;
import io.videoworld.core.Segment;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.Videos;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;

/**
 * Seed 001 APIs 7-9 and 15 ({@code register_entity}, {@code get_entity_trajectory} alias
 * {@code track_entity}, {@code query_entity_state}, {@code list_entities}) over the tracker's
 * tracks. An entity is a named handle on one or more tracks: the track under the chosen box at
 * registration, plus tracks of the same category elsewhere in the video whose colour histogram
 * is very close (0.9 cosine) and that never overlap it in time, which is how an object that left
 * and came back (or was seen again after a cut beyond the tracker's own re-identification window)
 * is joined. Registering the same box twice gives the same id (a hash of stream, push and track).
 */
final class EntityTools {
    private static final double REID_SIMILARITY = 0.9;

    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final ObjectRepository objects;
    private final PerceptionRepository perception;
    private final ObjectTools objectTools;
    private final FrameAccess frames;
    private final TextEmbedder embedder;
    private final LlmClient vlm;

    EntityTools(VideoRepository videos, SegmentRepository segments, ObjectRepository objects, PerceptionRepository perception,
            ObjectTools objectTools, FrameAccess frames, TextEmbedder embedder, LlmClient vlm) {
        this.videos = videos;
        this.segments = segments;
        this.objects = objects;
        this.perception = perception;
        this.objectTools = objectTools;
        this.frames = frames;
        this.embedder = embedder;
        this.vlm = vlm;
    }

    Map<String, Object> registerEntity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String hint = args.optionalString("entity_hint").or(() -> args.optionalString("description")).orElse(null);
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
        ObjectTools.Seen seen = objectTools.objectsAt(v, t, hint != null);
        ObjectRepository.Found chosen = choose(seen, hint, given);
        double[] box = chosen != null ? chosen.bbox() : given;
        if (box == null) {
            throw ApiException.notFound("entity_hint", "nothing matching '" + hint + "' was detected near " + t + " s");
        }
        String category = chosen != null ? chosen.category() : null;
        long pts = seen.ptsMs();
        ObjectRepository.Track track = null;
        double bestIou = 0.3;
        for (ObjectRepository.Track tr : objects.tracks(v.streamId(), v.epochMs(), pts - 1500, pts + 1500)) {
            ObjectRepository.Point p = ObjectGeometry.at(tr, pts);
            double iou = p == null || Math.abs(p.ptsMs() - pts) > 1500 ? 0 : ObjectGeometry.iou(p.bbox(), box);
            if (iou > bestIou && (category == null || category.equals(tr.category()))) {
                bestIou = iou;
                track = tr;
            }
        }
        List<String> trackIds = new ArrayList<>();
        if (track != null) {
            trackIds.add(track.id());
            category = track.category();
            for (ObjectRepository.Track other : objects.tracks(v.streamId(), v.epochMs(), 0, Long.MAX_VALUE / 4)) {
                boolean disjoint = other.lastMs() < track.firstMs() || other.firstMs() > track.lastMs();
                if (!other.id().equals(track.id()) && disjoint && other.category().equals(track.category()) && track.appearance() != null
                        && other.appearance() != null && ObjectTools.cosine(track.appearance(), other.appearance()) >= REID_SIMILARITY) {
                    trackIds.add(other.id());
                }
            }
        }
        String key = v.streamId() + "|" + v.epochMs() + "|" + (track != null ? track.id() : java.util.Arrays.toString(round(box)));
        String entityId = "ent_" + MemoryTools.sha1(key).substring(0, 8);
        float[] appearance = track == null ? null : track.appearance();
        objects.save(new ObjectRepository.Entity(entityId, v.streamId(), hint != null ? hint : category, hint, category, trackIds, pts, appearance));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("entity_id", entityId);
        r.put("matched_bbox", ObjectGeometry.xywh(box));
        r.put("confidence", ObjectGeometry.r4(chosen != null ? chosen.score() : 0));
        r.put("visual_signature", appearance == null ? null : "vs_" + MemoryTools.sha1(java.util.Arrays.toString(appearance)).substring(0, 10));
        r.put("associated_tracks", trackIds);
        r.put("category", category);
        r.put("frame_timestamp", pts / 1000.0);
        if (track == null) {
            r.put("note", "no track passes under this box near " + t + " s; the entity holds the box only");
        }
        return r;
    }

    private ObjectRepository.Found choose(ObjectTools.Seen seen, String hint, double[] given) {
        ObjectRepository.Found best = null;
        double bestScore = -1;
        float[] q = hint == null || embedder == null ? null : embedder.embed(hint);
        for (ObjectRepository.Found f : seen.found()) {
            double score;
            if (given != null) {
                score = ObjectGeometry.iou(f.bbox(), given);
                if (score < 0.1) {
                    continue;
                }
            } else {
                String colour = seen.image() == null ? null : PixelStats.dominantColour(seen.image(), ObjectGeometry.toD(f.bboxPixels()));
                String desc = (colour == null ? "" : colour + " ") + f.category();
                boolean named = hint.toLowerCase().contains(f.category()) || ObjectGeometry.GROUPS.entrySet().stream()
                        .anyMatch(g -> hint.toLowerCase().contains(g.getKey()) && g.getValue().contains(f.category()));
                score = (q == null ? 0 : ObjectTools.cosine(q, embedder.embed(desc))) + (named ? 0.3 : 0) + 0.2 * f.score();
            }
            if (score > bestScore) {
                bestScore = score;
                best = f;
            }
        }
        return best;
    }

    ObjectRepository.Entity require(VideoDoc v, String entityId, String field) throws IOException {
        return objects.entity(v.streamId(), entityId).orElseThrow(() -> ApiException.notFound(field,
                "no entity '" + entityId + "' is registered for '" + v.streamId() + "'; call register_entity first"));
    }

    private List<ObjectRepository.Track> tracksOf(ObjectRepository.Entity e) throws IOException {
        List<ObjectRepository.Track> out = new ArrayList<>();
        for (String id : e.trackIds()) {
            objects.track(id).ifPresent(out::add);
        }
        out.sort((a, b) -> Long.compare(a.firstMs(), b.firstMs()));
        return out;
    }

    /** The entity's box (normalised corners) at a time, from the nearest observed point within 1.5 s. */
    double[] boxAt(VideoDoc v, String entityId, long ptsMs, String field) throws IOException {
        ObjectRepository.Point p = pointAt(tracksOf(require(v, entityId, field)), ptsMs)
                .orElseThrow(() -> ApiException.notFound(field, entityId + " is not seen within 1.5 s of " + ptsMs / 1000.0 + " s"));
        return p.bbox();
    }

    private static Optional<ObjectRepository.Point> pointAt(List<ObjectRepository.Track> tracks, long ptsMs) {
        ObjectRepository.Point best = null;
        for (ObjectRepository.Track t : tracks) {
            ObjectRepository.Point p = ObjectGeometry.at(t, ptsMs);
            if (p != null && (best == null || Math.abs(p.ptsMs() - ptsMs) < Math.abs(best.ptsMs() - ptsMs))) {
                best = p;
            }
        }
        return best != null && Math.abs(best.ptsMs() - ptsMs) <= 1500 ? Optional.of(best) : Optional.empty();
    }

    Map<String, Object> trackEntity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        ObjectRepository.Entity e = require(v, args.requiredString("entity_id"), "entity_id");
        double minConfidence = args.optionalNumber("min_confidence", 0, 1).orElse(0.3);
        List<Segment> scenes = segments.list(v.streamId(), v.epochMs(), Segment.SCENE);
        List<Map<String, Object>> trajectory = new ArrayList<>();
        LinkedHashSet<String> sceneIds = new LinkedHashSet<>();
        double total = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (ObjectRepository.Track t : tracksOf(e)) {
            Map<String, List<ObjectRepository.Point>> byScene = new LinkedHashMap<>();
            for (ObjectRepository.Point p : t.timeline()) {
                if (p.score() >= minConfidence) {
                    byScene.computeIfAbsent(sceneOf(scenes, p.ptsMs()), k -> new ArrayList<>()).add(p);
                }
            }
            for (var piece : byScene.entrySet()) {
                List<ObjectRepository.Point> pts = piece.getValue();
                double s = pts.get(0).ptsMs() / 1000.0;
                double en = pts.get(pts.size() - 1).ptsMs() / 1000.0;
                Map<String, Object> seg = new LinkedHashMap<>();
                seg.put("start_time", s);
                seg.put("end_time", en);
                seg.put("scene_id", piece.getKey());
                seg.put("track_id", t.id());
                List<Map<String, Object>> boxes = new ArrayList<>();
                for (ObjectRepository.Point p : pts) {
                    boxes.add(Map.of("time", p.ptsMs() / 1000.0, "bbox", ObjectGeometry.xywh(p.bbox()), "confidence", p.score()));
                }
                seg.put("bboxes", boxes);
                seg.put("path_summary", ObjectGeometry.pathSummary(pts));
                seg.put("avg_speed", Math.round(ObjectGeometry.pixelsPerSecond(pts) * 10) / 10.0);
                seg.put("occlusion_ratio", ObjectGeometry.r4(occlusion(pts)));
                trajectory.add(seg);
                if (piece.getKey() != null) {
                    sceneIds.add(piece.getKey());
                }
                total += en - s;
                first = Double.isNaN(first) ? s : Math.min(first, s);
                last = Double.isNaN(last) ? en : Math.max(last, en);
            }
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("entity_id", e.entityId());
        r.put("trajectory", trajectory);
        r.put("total_appearance_duration", Math.round(total * 1000) / 1000.0);
        r.put("first_appearance", Double.isNaN(first) ? null : first);
        r.put("last_appearance", Double.isNaN(last) ? null : last);
        r.put("scene_transitions", sceneIds.size());
        return r;
    }

    /** Share of sampling slots in which the object was not matched, from gaps longer than 1.5 sampling intervals. */
    static double occlusion(List<ObjectRepository.Point> pts) {
        if (pts.size() < 3) {
            return 0;
        }
        long[] gaps = new long[pts.size() - 1];
        for (int i = 1; i < pts.size(); i++) {
            gaps[i - 1] = pts.get(i).ptsMs() - pts.get(i - 1).ptsMs();
        }
        long[] sorted = gaps.clone();
        java.util.Arrays.sort(sorted);
        double step = Math.max(1, sorted[sorted.length / 2]);
        long missing = 0;
        for (long g : gaps) {
            if (g > 1.5 * step) {
                missing += Math.round(g / step) - 1;
            }
        }
        return (double) missing / (missing + pts.size());
    }

    private static String sceneOf(List<Segment> scenes, long ptsMs) {
        for (Segment s : scenes) {
            if (ptsMs >= s.startPtsMs() && ptsMs < s.endPtsMs()) {
                return s.sceneId();
            }
        }
        return scenes.isEmpty() ? null : scenes.get(scenes.size() - 1).sceneId();
    }

    Map<String, Object> queryEntityState(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        ObjectRepository.Entity e = require(v, args.requiredString("entity_id"), "entity_id");
        double time = args.requiredNumber("time", 0, 1e9);
        String query = args.optionalString("query").orElse(null);
        long pts = Math.round(time * 1000);
        List<ObjectRepository.Track> tracks = tracksOf(e);
        ObjectRepository.Point p = pointAt(tracks, pts).orElseThrow(() -> ApiException.notFound("time",
                e.entityId() + " is not seen within 1.5 s of " + time + " s"));
        ObjectRepository.Track track = tracks.stream().filter(t -> t.timeline().contains(p)).findFirst().orElseThrow();
        FrameAccess.Image picture = frames.at(v, List.of(p.ptsMs() / 1000.0)).get(0);
        byte[] crop = crop(picture.jpeg(), p.bbox());
        io.videoworld.perception.DecodedImage img = io.videoworld.perception.DecodedImage.decode(picture.jpeg());
        String colour = PixelStats.dominantColour(img, new double[] {p.bbox()[0] * img.width(), p.bbox()[1] * img.height(),
                p.bbox()[2] * img.width(), p.bbox()[3] * img.height()});
        List<String> with = new ArrayList<>();
        try {
            for (ObjectRepository.Found f : objectTools.objectsAt(v, p.ptsMs() / 1000.0, false).found()) {
                if (f.score() >= 0.3 && !f.category().equals(track.category()) && ObjectGeometry.relations(f.bbox(), p.bbox()).contains("overlapping")) {
                    with.add(f.category());
                }
            }
        } catch (ApiException ignored) {
            // No detections near this time and no detector: the state goes without co-located objects.
        }
        List<String> text = new ArrayList<>();
        for (TextLine l : perception.linesNear(v.streamId(), v.epochMs(), p.ptsMs(), 1000)) {
            double cx = (l.x() + l.width() / 2.0) / img.width();
            double cy = (l.y() + l.height() / 2.0) / img.height();
            if (cx >= p.bbox()[0] && cx <= p.bbox()[2] && cy >= p.bbox()[1] && cy <= p.bbox()[3]) {
                text.add(l.text());
            }
        }
        int i = track.timeline().indexOf(p);
        List<ObjectRepository.Point> around = track.timeline().subList(Math.max(0, i - 2), Math.min(track.timeline().size(), i + 3));
        String motion = ObjectTools.activity(track.category(), ObjectGeometry.heightsPerSecond(around));
        String evidence = (colour == null ? "" : colour + " ") + track.category() + " (" + track.id() + "), " + motion
                + (with.isEmpty() ? "" : ", overlapping " + String.join(", ", with)) + (text.isEmpty() ? "" : ", text on it: " + String.join(" / ", text));
        Map<String, Object> r = new LinkedHashMap<>();
        String answer = evidence;
        String source = "structured";
        if (vlm != null && query != null) {
            try {
                ChatMessage reply = vlm.chat(List.of(ChatMessage.system("You see a crop of one video frame around a tracked "
                        + track.category() + ". Answer the question about it in one or two sentences, only from what is visible."),
                        ChatMessage.userWithImages(query, List.of(crop))), List.of(), false);
                answer = reply.content();
                source = "vlm";
            } catch (LlmException ex) {
                r.put("vlm_error", ex.getMessage());
            }
        }
        r.put("answer", answer);
        r.put("answer_source", source);
        r.put("confidence", ObjectGeometry.r4(p.score()));
        r.put("supporting_evidence", evidence);
        r.put("bbox", ObjectGeometry.xywh(p.bbox()));
        r.put("frame_timestamp", p.ptsMs() / 1000.0);
        r.put("labels", with);
        r.put("ocr_text", text);
        r.put("crop", Map.of("format", "jpeg", "data", Base64.getEncoder().encodeToString(crop)));
        if (query != null && vlm == null) {
            r.put("note", "no vision-language model is configured, so the question is answered with what the detector and tracker measured");
        }
        return r;
    }

    private static byte[] crop(byte[] jpeg, double[] box) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(jpeg));
        int x1 = (int) Math.max(0, Math.floor(box[0] * img.getWidth()));
        int y1 = (int) Math.max(0, Math.floor(box[1] * img.getHeight()));
        int x2 = (int) Math.min(img.getWidth(), Math.ceil(box[2] * img.getWidth()));
        int y2 = (int) Math.min(img.getHeight(), Math.ceil(box[3] * img.getHeight()));
        BufferedImage sub = img.getSubimage(x1, y1, Math.max(1, x2 - x1), Math.max(1, y2 - y1));
        BufferedImage rgb = new BufferedImage(sub.getWidth(), sub.getHeight(), BufferedImage.TYPE_INT_RGB);
        rgb.getGraphics().drawImage(sub, 0, 0, null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(rgb, "jpg", out);
        return out.toByteArray();
    }

    Map<String, Object> listEntities(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        List<Map<String, Object>> out = new ArrayList<>();
        for (ObjectRepository.Entity e : objects.entities(v.streamId())) {
            List<ObjectRepository.Track> tracks = tracksOf(e);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("entity_id", e.entityId());
            m.put("hint", e.hint());
            m.put("first_seen", tracks.isEmpty() ? e.registeredAtMs() / 1000.0 : tracks.stream().mapToLong(ObjectRepository.Track::firstMs).min().getAsLong() / 1000.0);
            m.put("last_seen", tracks.isEmpty() ? e.registeredAtMs() / 1000.0 : tracks.stream().mapToLong(ObjectRepository.Track::lastMs).max().getAsLong() / 1000.0);
            m.put("total_duration", tracks.stream().mapToLong(t -> t.lastMs() - t.firstMs()).sum() / 1000.0);
            m.put("category", e.category());
            m.put("tracks", e.trackIds());
            out.add(m);
        }
        return Map.of("entities", out, "total_count", out.size());
    }

    private static double[] round(double[] b) {
        double[] out = new double[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = Math.round(b[i] * 1000) / 1000.0;
        }
        return out;
    }

}
