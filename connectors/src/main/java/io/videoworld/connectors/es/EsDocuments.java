package io.videoworld.connectors.es;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import java.util.ArrayList;
import java.util.List;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
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
    public static EsWrite perception(io.videoworld.core.Perception p) {
        ObjectNode node = Json.MAPPER.valueToTree(p);
        // Cosine vectors of length zero are refused by the mapping, and one refusal would stop the job.
        if (!nonZero(p.textEmbedding())) {
            node.remove("text_embedding");
        }
        if (!nonZero(p.imageDescriptor())) {
            node.remove("image_descriptor");
        }
        return new EsWrite(Names.PERCEPTION_INDEX, p.id(), pushVersion(p.epochMs(), 1), json(node));
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
     * wrote, even where the old one had got further) and then by progress within the push.
     */
    static long pushVersion(long epochMs, long progress) {
        if (progress < 0 || progress >= 100_000_000L) {
            throw new IllegalArgumentException("progress out of range: " + progress);
        }
        return Math.max(0, epochMs / 1000) * 100_000_000L + progress;
    }

    private static byte[] json(Object doc) {
        try {
            return Json.MAPPER.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + doc, e);
        }
    }
}
