package io.videoworld.core;

import java.util.List;

/**
 * A shot (continuous camera take) or a scene (neighbouring shots that look alike) of a stream;
 * one document in {@code vw-shots}. Frame ranges are half-open: {@code endFrame} is the first
 * frame of the next segment, as in seed 000 where one segment's end is the next one's start.
 *
 * @param streamId the stream
 * @param kind "shot" or "scene"
 * @param epochMs the push it belongs to
 * @param sourceKind video or screen
 * @param startFrame first frame (producer numbering)
 * @param endFrame first frame after the segment
 * @param startPtsMs presentation time of the first frame
 * @param endPtsMs presentation time where the segment ends
 * @param startEventTimeMs event time of the first frame
 * @param endEventTimeMs event time where the segment ends
 * @param transitionIn how the segment began: start, cut, fade or dissolve
 * @param detector which detector found the boundary (content, adaptive, fade, dissolve; none at start)
 * @param score the detector's score at the boundary
 * @param sceneStartFrame for shots: first frame of the scene it belongs to; for scenes: their own start
 * @param shots number of shots (1 for a shot)
 * @param representativeFrame frame index of the representative keyframe
 * @param keyframes the keyframes (shots only)
 * @param closed false while a scene may still grow
 */
public record Segment(
        String streamId,
        String kind,
        long epochMs,
        SourceKind sourceKind,
        long startFrame,
        long endFrame,
        long startPtsMs,
        long endPtsMs,
        long startEventTimeMs,
        long endEventTimeMs,
        String transitionIn,
        String detector,
        double score,
        long sceneStartFrame,
        int shots,
        long representativeFrame,
        List<KeyframeRef> keyframes,
        boolean closed) implements StreamRecord {
    public static final String SHOT = "shot";
    public static final String SCENE = "scene";

    public String id() {
        return id(streamId, kind, startFrame);
    }

    /** Ids come from the start frame, so they survive state being cleared and rebuilt. */
    public static String id(String streamId, String kind, long startFrame) {
        return streamId + ":" + kind + ":" + Ids.zeroPadded(startFrame, 10);
    }

    public String sceneId() {
        return id(streamId, SCENE, sceneStartFrame);
    }
}
