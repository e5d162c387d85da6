package io.videoworld.query.entity;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository.Entity;
import io.videoworld.connectors.esread.ObjectRepository.Found;
import io.videoworld.connectors.esread.ObjectRepository.Point;
import io.videoworld.connectors.esread.ObjectRepository.Track;
import io.videoworld.connectors.esread.ActivityRepository;
import io.videoworld.connectors.esread.ActivityRepository.PoseActivity;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.Segment;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.DecodedImage;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.entity.EntityResponses.BoxAt;
import io.videoworld.query.entity.EntityResponses.Picture;
import io.videoworld.query.entity.EntityResponses.Piece;
import io.videoworld.query.entity.EntityResponses.State;
import io.videoworld.query.entity.EntityResponses.Trajectory;
import io.videoworld.query.perception.ObjectFinder;
import io.videoworld.query.perception.ObjectGeometry;
import io.videoworld.query.perception.PixelStats;
import io.videoworld.query.perception.TrackMotion;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.Videos;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Seed 001 API 8 {@code get_entity_trajectory} (seed 000 {@code track_entity}) and API 9
 * {@code query_entity_state} over a registered entity's tracks. The state is what was measured
 * (colour, motion, overlapping objects, text on it) and, for a person with indexed activities,
 * what the person was doing, which then answers the question; with a vision model configured and
 * a question asked, the model answers from a crop around the entity instead.
 */
public final class TrajectoryTools {
    /** How far from a time an activity's span may end or begin and still say what the person was doing then. */
    static final long ACTIVITY_NEAR_MS = 500;
    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final PerceptionRepository perception;
    private final EntityTools entities;
    private final ObjectFinder finder;
    private final FrameAccess frames;
    private final LlmClient vlm;
    private final EntityLooks looks;
    private final ActivityRepository activities;

    /**
     * @param vlm a vision-language model for questions about an entity; null answers from measurements
     * @param looks the crops and colours of boxes already looked at (shared with what forgets deleted streams)
     * @param activities the people's activities the person operator indexed
     */
    public TrajectoryTools(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception, EntityTools entities,
            ObjectFinder finder, FrameAccess frames, LlmClient vlm, EntityLooks looks, ActivityRepository activities) {
        this.looks = looks;
        this.activities = activities;
        this.videos = videos;
        this.segments = segments;
        this.perception = perception;
        this.entities = entities;
        this.finder = finder;
        this.frames = frames;
        this.vlm = vlm;
    }

    /** Seed 001 API 8: the entity's boxes, track by track and scene by scene, with speed, path and occlusion. */
    public Trajectory trackEntity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        Entity e = entities.require(v, args.requiredString("entity_id"), "entity_id");
        double minConfidence = args.optionalNumber("min_confidence", 0, 1).orElse(0.3);
        List<Segment> scenes = segments.list(v.streamId(), v.epochMs(), Segment.SCENE);
        List<Piece> trajectory = new ArrayList<>();
        LinkedHashSet<String> sceneIds = new LinkedHashSet<>();
        double total = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (Track t : entities.tracksOf(e)) {
            Map<String, List<Point>> byScene = new LinkedHashMap<>();
            // A named person's tracks in other streams: their own stream's times, and no scene of this one.
            String elsewhere = t.id().startsWith(v.streamId() + ":") ? null : t.id().substring(0, Math.max(0, t.id().lastIndexOf(":t:")));
            for (Point p : t.timeline()) {
                if (p.score() >= minConfidence) {
                    byScene.computeIfAbsent(elsewhere == null ? sceneOf(scenes, p.ptsMs()) : "", k -> new ArrayList<>()).add(p);
                }
            }
            for (var piece : byScene.entrySet()) {
                List<Point> pts = piece.getValue();
                double s = pts.get(0).ptsMs() / 1000.0;
                double en = pts.get(pts.size() - 1).ptsMs() / 1000.0;
                List<BoxAt> boxes = pts.stream().map(p -> new BoxAt(p.ptsMs() / 1000.0, ObjectGeometry.xywh(p.bbox()), p.score())).toList();
                String scene = elsewhere == null ? piece.getKey() : null;
                trajectory.add(new Piece(s, en, scene, t.id(), boxes, TrackMotion.pathSummary(pts),
                        round(TrackMotion.pixelsPerSecond(pts), 1), round(occlusion(pts), 4), elsewhere));
                if (scene != null) {
                    sceneIds.add(piece.getKey());
                }
                if (elsewhere != null) {
                    continue; // times of another push: listed, not summed with this video's
                }
                total += en - s;
                first = Double.isNaN(first) ? s : Math.min(first, s);
                last = Double.isNaN(last) ? en : Math.max(last, en);
            }
        }
        return new Trajectory(e.entityId(), trajectory, round(total, 3), Double.isNaN(first) ? null : first, Double.isNaN(last) ? null : last,
                sceneIds.size());
    }

    /** Share of sampling slots in which the object was not matched, from gaps longer than 1.5 sampling intervals. */
    static double occlusion(List<Point> pts) {
        if (pts.size() < 3) {
            return 0;
        }
        long[] gaps = new long[pts.size() - 1];
        for (int i = 1; i < pts.size(); i++) {
            gaps[i - 1] = pts.get(i).ptsMs() - pts.get(i - 1).ptsMs();
        }
        long[] sorted = gaps.clone();
        Arrays.sort(sorted);
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

    /** Seed 001 API 9: what the entity looks like and does at a time, and the crop that shows it. */
    public State queryEntityState(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        Entity e = entities.require(v, args.requiredString("entity_id"), "entity_id");
        double time = args.requiredNumber("time", 0, 1e9);
        String query = args.optionalString("query").orElse(null);
        List<Track> tracks = entities.tracksOf(e);
        Point p = EntityTools.pointAt(tracks, Math.round(time * 1000)).orElseThrow(() -> ApiException.notFound("time",
                e.entityId() + " is not seen within 1.5 s of " + time + " s"));
        Track track = tracks.stream().filter(t -> t.timeline().contains(p)).findFirst().orElseThrow();
        // The frame is decoded once per box and picture; later calls about the same point answer from memory. The picture's id
        // (found without decoding) is part of the key: on a live stream the nearest stored keyframe can change as keyframes arrive.
        String picture = frames.idsAt(v, List.of(p.ptsMs() / 1000.0)).get(0).frameId();
        EntityLooks.Look look = looks.get(EntityLooks.key(v.streamId(), v.epochMs(), p.ptsMs(), p.bbox()) + "\u0000" + picture, () -> look(v, p));
        byte[] crop = look.crop();
        String colour = look.colour();
        List<String> with = new ArrayList<>();
        try {
            for (Found f : finder.objectsAt(v, p.ptsMs() / 1000.0, false).found()) {
                if (f.score() >= 0.3 && !f.category().equals(track.category())
                        && SpatialRelations.relations(f.bbox(), p.bbox()).contains("overlapping")) {
                    with.add(f.category());
                }
            }
        } catch (ApiException ignored) {
            // No detections near this time and no detector: the state goes without co-located objects.
        }
        List<String> text = new ArrayList<>();
        for (TextLine l : perception.linesNear(v.streamId(), v.epochMs(), p.ptsMs(), 1000)) {
            double cx = (l.x() + l.width() / 2.0) / look.width();
            double cy = (l.y() + l.height() / 2.0) / look.height();
            if (cx >= p.bbox()[0] && cx <= p.bbox()[2] && cy >= p.bbox()[1] && cy <= p.bbox()[3]) {
                text.add(l.text());
            }
        }
        int i = track.timeline().indexOf(p);
        List<Point> around = track.timeline().subList(Math.max(0, i - 2), Math.min(track.timeline().size(), i + 3));
        String motion = TrackMotion.activity(track.category(), TrackMotion.heightsPerSecond(around));
        List<PoseActivity> doing = activities == null ? List.of()
                : PersonStates.at(activities.ofTracks(List.of(track.id())), p.ptsMs(), ACTIVITY_NEAR_MS);
        String evidence = (colour == null ? "" : colour + " ") + track.category() + " (" + track.id() + "), " + motion
                + (with.isEmpty() ? "" : ", overlapping " + String.join(", ", with)) + (text.isEmpty() ? "" : ", text on it: " + String.join(" / ", text))
                + (doing.isEmpty() ? "" : ", " + PersonStates.evidence(doing));
        String answer = evidence;
        String source = "structured";
        String who = e.entityId().startsWith(People.PREFIX) && e.name() != null ? e.name() : "the " + track.category();
        if (!doing.isEmpty() && (vlm == null || query == null)) {
            answer = PersonStates.answer(who, query, doing);
            source = "activities";
        }
        String vlmError = null;
        if (vlm != null && query != null) {
            try {
                ChatMessage reply = vlm.chat(List.of(ChatMessage.system("You see a crop of one video frame around a tracked "
                        + track.category() + ". Answer the question about it in one or two sentences, only from what is visible."),
                        ChatMessage.userWithImages(query, List.of(crop))), List.of(), false);
                answer = reply.content();
                source = "vlm";
            } catch (LlmException ex) {
                vlmError = ex.getMessage();
            }
        }
        return new State(vlmError, answer, source, round(p.score(), 4), evidence, ObjectGeometry.xywh(p.bbox()), p.ptsMs() / 1000.0, with, text,
                new Picture("jpeg", Base64.getEncoder().encodeToString(crop)), query == null || vlm != null ? null : doing.isEmpty()
                        ? "no vision-language model is configured, so the question is answered with what the detector and tracker measured"
                        : "no vision-language model is configured, so the question is answered from the activities indexed from the person's pose and motion");
    }

    /** The frame of a track point decoded: the box's crop, its dominant colour and the frame's size. */
    private EntityLooks.Look look(VideoDoc v, Point p) throws IOException {
        FrameAccess.Image picture = frames.at(v, List.of(p.ptsMs() / 1000.0)).get(0);
        DecodedImage img = DecodedImage.decode(picture.jpeg());
        String colour = PixelStats.dominantColour(img, new double[] {p.bbox()[0] * img.width(), p.bbox()[1] * img.height(),
                p.bbox()[2] * img.width(), p.bbox()[3] * img.height()});
        return new EntityLooks.Look(crop(picture.jpeg(), p.bbox()), colour, img.width(), img.height());
    }

    /** The box (normalised corners) cut out of a JPEG, as a JPEG. */
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
}
