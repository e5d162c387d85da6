package io.videoworld.connectors.es;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.ActivityDoc;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Ids;
import io.videoworld.core.Detection;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import java.util.ArrayList;
import java.util.List;
import io.videoworld.core.FrameLimits;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.Perception;
import io.videoworld.core.VideoDoc;

/** Turns domain documents into sink writes: index, deterministic id, version and JSON. */
public final class EsDocuments {
    private EsDocuments() {}

    /**
     * A frame's plain document has version 1 and the same frame as a keyframe (with its shot,
     * scene and store reference) version 2, so whichever bulk request lands last, the keyframe
     * fields stay.
     */
    public static EsWrite frame(FrameDoc doc) {
        return new EsWrite(Names.FRAMES_INDEX, doc.id(), pushVersion(doc.epochMs(), doc.isKeyframe() ? 2 : 1), json(doc));
    }

    /** A stretch of speech and its transcript; rewritten identically on replay, so versioned by push only. */
    public static EsWrite transcript(io.videoworld.core.TranscriptDoc t) {
        ObjectNode node = Json.MAPPER.valueToTree(t);
        node.put("event_time_ms", t.epochMs() + t.startMs());
        return new EsWrite(Names.TRANSCRIPTS_INDEX, t.id(), pushVersion(t.epochMs(), 1), json(node));
    }

    /** The fact that a frame's window was excluded, and by which rule; rewritten identically on replay. */
    public static EsWrite exclusion(io.videoworld.core.WindowExcluded e) {
        return new EsWrite(Names.EXCLUSIONS_INDEX, e.id(), pushVersion(e.epochMs(), 1), json(e));
    }

    /**
     * A shot never changes once closed; a scene grows as shots join it, so it is versioned by its
     * end frame (and closing), and a stale write cannot shrink it.
     */
    public static EsWrite segment(Segment s) {
        ObjectNode node = Json.MAPPER.valueToTree(s);
        node.put("segment_id", s.id());
        node.put("scene_id", s.sceneId());
        long version = pushVersion(s.epochMs(), Segment.SHOT.equals(s.kind()) ? 1 : s.endFrame() * 2 + (s.closed() ? 1 : 0));
        return new EsWrite(Names.SHOTS_INDEX, s.id(), version, json(node));
    }

    /** What inference saw in a keyframe; rewritten identically on replay, so versioned by push only. */
    public static EsWrite perception(Perception p) {
        ObjectNode node = Json.MAPPER.valueToTree(p);
        // Cosine vectors of length zero are refused by the mapping, and one refusal would stop the job.
        if (!nonZero(p.textEmbedding())) {
            node.remove("text_embedding");
        }
        if (!nonZero(p.imageDescriptor())) {
            node.remove("image_descriptor");
        }
        // Named for what they say about the document, so a reader cannot take a failed keyframe for a blank one.
        node.remove("status");
        node.remove("failure");
        node.put("perception_status", p.status() == null ? Perception.OK : p.status());
        // What screen searches filter on: for a screen the window title and its application; for a
        // camera simply the topmost text read.
        String title = p.lines() == null ? null : io.videoworld.core.ScreenTitles.title(p.lines(), p.height());
        if (title != null && !title.isEmpty()) {
            node.put("window_title", title);
            String app = io.videoworld.core.ScreenTitles.app(title);
            if (app != null) {
                node.put("app", app);
            }
        }
        if (p.failure() != null) {
            node.put("perception_error", p.failure());
        }
        // Which kinds of secret the text had before redaction: the markers redaction left in it.
        java.util.Set<String> redacted = io.videoworld.core.Redactions.kinds(p.text());
        if (!redacted.isEmpty()) {
            ArrayNode kinds = node.putArray("redacted");
            redacted.forEach(kinds::add);
        }
        ArrayNode objects = node.putArray("objects");
        ArrayNode labels = node.putArray("labels");
        for (Detection d : p.objects()) {
            ObjectNode o = objects.addObject();
            o.put("category", d.category());
            o.put("score", round(d.score()));
            box(o, d.x1(), d.y1(), d.x2(), d.y2(), p.width(), p.height());
        }
        p.objects().stream().map(Detection::category).distinct().forEach(labels::add);
        return new EsWrite(Names.PERCEPTION_INDEX, p.id(), pushVersion(p.epochMs(), 1), json(node));
    }

    /**
     * The objects found in a sampled frame: boxes normalised to 0-1 and in pixels. Rewritten
     * identically on replay, so versioned by push only.
     */
    public static EsWrite detections(DetectedFrame f) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("stream_id", f.streamId());
        node.put("epoch_ms", f.epochMs());
        node.put("frame_index", f.frameIndex());
        node.put("pts_ms", f.ptsMs());
        node.put("event_time_ms", f.eventTimeMs());
        node.put("width", f.width());
        node.put("height", f.height());
        node.put("device", f.device());
        ArrayNode labels = node.putArray("labels");
        f.detections().stream().map(Detection::category).distinct().forEach(labels::add);
        ArrayNode objects = node.putArray("objects");
        for (Detection d : f.detections()) {
            ObjectNode o = objects.addObject();
            o.put("category", d.category());
            o.put("score", round(d.score()));
            box(o, d.x1(), d.y1(), d.x2(), d.y2(), f.width(), f.height());
        }
        return new EsWrite(Names.DETECTIONS_INDEX, f.id(), pushVersion(f.epochMs(), 1), json(node));
    }

    /**
     * A track, rewritten as it grows and when it dies: versioned by samples matched and then the
     * death flag, so a late write of a shorter timeline cannot replace a longer one.
     */
    /** A person's activity; rewritten as it grows, so versioned by how many samples it rests on. */
    public static EsWrite activity(ActivityDoc a) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("activity_id", a.id());
        node.put("track_id", Ids.track(a.streamId(), a.trackNumber()));
        node.put("stream_id", a.streamId());
        node.put("epoch_ms", a.epochMs());
        node.put("track_number", a.trackNumber());
        node.put("label", a.label());
        node.put("confidence", round(a.confidence()));
        node.put("from_ms", a.fromMs());
        node.put("to_ms", a.toMs());
        node.put("samples", a.samples());
        ArrayNode frames = node.putArray("frames");
        a.frames().forEach(frames::add);
        node.put("source", "pose");
        return new EsWrite(Names.ACTIVITIES_INDEX, a.id(), pushVersion(a.epochMs(), a.samples()), json(node));
    }

    public static EsWrite track(TrackDoc t) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("track_id", t.id());
        node.put("stream_id", t.streamId());
        node.put("epoch_ms", t.epochMs());
        node.put("track_number", t.trackNumber());
        node.put("category", t.category());
        node.put("width", t.width());
        node.put("height", t.height());
        node.put("first_seen_ms", t.first().ptsMs());
        node.put("last_seen_ms", t.last().ptsMs());
        node.put("first_frame", t.first().frameIndex());
        node.put("last_frame", t.last().frameIndex());
        node.put("samples", t.samples());
        node.put("mean_score", round(t.meanScore()));
        node.put("alive", t.alive());
        node.put("reidentified", t.reidentified());
        ArrayNode timeline = node.putArray("timeline");
        for (TrackPoint p : t.timeline()) {
            ObjectNode o = timeline.addObject();
            o.put("frame_index", p.frameIndex());
            o.put("pts_ms", p.ptsMs());
            o.put("score", round(p.score()));
            box(o, p.x1(), p.y1(), p.x2(), p.y2(), t.width(), t.height());
        }
        if (nonZero(t.appearance())) {
            ArrayNode a = node.putArray("appearance");
            for (float v : t.appearance()) {
                a.add(v);
            }
        }
        long version = pushVersion(t.epochMs(), Math.min(49_999_999L, t.samples()) * 2 + (t.alive() ? 0 : 1));
        return new EsWrite(Names.TRACKS_INDEX, t.id(), version, json(node));
    }

    /**
     * A tracked person's face linked to a person: a {@code face} event in {@code vw-people} under the
     * person's id, with the track's mean face descriptor; one per track (the same track, the same id).
     */
    public static EsWrite face(io.videoworld.core.TrackFace f) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        String id = f.personId() + ":face:" + f.trackId();
        node.put("event_id", id);
        node.put("person_id", f.personId());
        node.put("kind", "face");
        node.put("stream_id", f.streamId());
        node.put("epoch_ms", f.epochMs());
        node.put("track_id", f.trackId());
        node.put("from_ms", f.fromMs());
        node.put("to_ms", f.toMs());
        node.put("samples", f.faces());
        ArrayNode frames = node.putArray("frames");
        f.frames().forEach(frames::add);
        ArrayNode d = node.putArray("face_descriptor");
        for (float v : f.descriptor()) {
            d.add(v);
        }
        return new EsWrite(Names.PEOPLE_INDEX, id, pushVersion(f.epochMs(), f.faces()), json(node));
    }

    /**
     * An episodic event, or its deletion. Versions follow the event's revision, which replays
     * reproduce, so a stale merge never overwrites a newer one.
     */
    public static EsWrite episode(io.videoworld.core.EpisodeDoc e) {
        long version = pushVersion(e.epochMs(), Math.min(99_999_999L, e.revision()));
        if (e.deleted()) {
            return EsWrite.delete(Names.EPISODES_INDEX, e.id(), version);
        }
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("event_id", e.id());
        node.put("stream_id", e.streamId());
        node.put("epoch_ms", e.epochMs());
        node.put("seq", e.seq());
        node.put("revision", e.revision());
        node.put("event_type", e.eventType());
        node.put("actor", e.actor());
        node.put("occurred_at", e.occurredAtMs());
        node.put("end_event_time_ms", e.endEventTimeMs());
        node.put("start_pts_ms", e.startPtsMs());
        node.put("end_pts_ms", e.endPtsMs());
        if (e.app() != null) {
            node.put("app", e.app());
        }
        node.put("summary", e.summary());
        node.put("details", e.details());
        ArrayNode labels = node.putArray("labels");
        e.labels().forEach(labels::add);
        ArrayNode links = node.putArray("linked_event_ids");
        e.linkedEventIds().forEach(links::add);
        node.put("batches", e.batches());
        if (nonZero(e.embedding())) {
            ArrayNode v = node.putArray("embedding");
            for (float f : e.embedding()) {
                v.add(f);
            }
        }
        node.put("decided_by", e.decidedBy());
        node.put("closed", e.closed());
        node.put("level", "event");
        return new EsWrite(Names.EPISODES_INDEX, e.id(), version, json(node));
    }

    /** A node or edge of the memory graph, or its deletion; versioned like the record it was derived from. */
    public static EsWrite graph(io.videoworld.core.GraphDoc g) {
        long version = pushVersion(g.epochMs(), Math.min(99_999_999L, g.progress()));
        if (g.deleted()) {
            return EsWrite.delete(Names.GRAPH_INDEX, g.id(), version);
        }
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("graph_id", g.id());
        node.put("stream_id", g.streamId());
        node.put("epoch_ms", g.epochMs());
        node.put("type", g.type());
        node.put("kind", g.kind());
        node.put("level", g.level());
        node.put("source_id", g.sourceId());
        node.put("source_label", g.sourceLabel());
        if (g.targetId() != null) {
            node.put("target_id", g.targetId());
            node.put("target_label", g.targetLabel());
        }
        node.put("text", g.text());
        node.put("start_ms", g.startMs());
        node.put("end_ms", g.endMs());
        node.put("event_time_ms", g.epochMs() + g.startMs());
        node.put("end_event_time_ms", g.epochMs() + g.endMs());
        ArrayNode frames = node.putArray("frame_ids");
        g.frameIds().forEach(frames::add);
        if (g.clipId() != null) {
            node.put("clip_id", g.clipId());
        }
        node.put("progress", g.progress());
        return new EsWrite(Names.GRAPH_INDEX, g.id(), version, json(node));
    }

    private static void box(ObjectNode o, double x1, double y1, double x2, double y2, int w, int h) {
        ArrayNode n = o.putArray("bbox");
        n.add(round(x1 / Math.max(1, w))).add(round(y1 / Math.max(1, h))).add(round(x2 / Math.max(1, w))).add(round(y2 / Math.max(1, h)));
        ArrayNode px = o.putArray("bbox_pixels");
        px.add(Math.round(x1)).add(Math.round(y1)).add(Math.round(x2)).add(Math.round(y2));
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static boolean nonZero(float[] v) {
        if (v == null) {
            return false;
        }
        for (float x : v) {
            if (x != 0) {
                return true;
            }
        }
        return false;
    }

    /** The keyframe documents of a closed shot, for {@code vw-frames}. */
    public static List<EsWrite> keyframes(Segment shot) {
        List<EsWrite> out = new ArrayList<>();
        for (KeyframeRef k : shot.keyframes()) {
            out.add(frame(new FrameDoc(shot.streamId(), shot.epochMs(), k.frameIndex(), k.ptsMs(), k.eventTimeMs(), k.batchSeq(), k.width(),
                    k.height(), k.jpegBytes(), shot.sourceKind(), shot.id(), shot.sceneId(), k.role(),
                    Keyframe.storeKey(shot.streamId(), shot.epochMs(), k.frameIndex()))));
        }
        return out;
    }

    /**
     * A stream's document is rewritten after every batch; it is versioned by frames indexed plus
     * the idle flag, which only grow, so a late bulk request cannot roll it back.
     */
    public static EsWrite video(VideoDoc doc) {
        long version = pushVersion(doc.epochMs(), doc.framesIndexed() * 2 + (VideoDoc.LIVE.equals(doc.status()) ? 0 : 1));
        return new EsWrite(Names.VIDEOS_INDEX, doc.id(), version, json(doc));
    }

    /**
     * A version that orders first by push (a re-push of a stream replaces what the old push
     * wrote, even where the old one had got further) and then by progress within the push. The
     * edge's bounds keep both exact ({@link FrameLimits}); progress past them (a push that repeats
     * frame indices for months) saturates, so the document stops advancing but never fails.
     */
    public static long pushVersion(long epochMs, long progress) {
        long second = Math.min(Math.max(0, epochMs / 1000), FrameLimits.MAX_TIME_MS / 1000);
        return second * FrameLimits.MAX_PROGRESS + Math.min(Math.max(0, progress), FrameLimits.MAX_PROGRESS - 1);
    }

    private static byte[] json(Object doc) {
        try {
            return Json.MAPPER.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + doc, e);
        }
    }
}
