package io.videoworld.core;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A frame's document in {@code vw-frames}: where it sits in its stream, not its pixels.
 *
 * @param streamId the stream
 * @param epochMs the push the frame belongs to
 * @param frameIndex the producer's frame number in the stream
 * @param ptsMs presentation time from stream start
 * @param eventTimeMs event time (epoch ms)
 * @param batchSeq the batch it arrived in
 * @param width encoded width
 * @param height encoded height
 * @param jpegBytes size of the encoded frame
 * @param sourceKind video or screen
 * @param shotId the shot this keyframe represents (keyframes only)
 * @param sceneId the scene of that shot (keyframes only)
 * @param keyframeRole first, middle, last or periodic (keyframes only)
 * @param storeRef the frame store key of its JPEG (keyframes only)
 */
public record FrameDoc(
        String streamId,
        long epochMs,
        long frameIndex,
        long ptsMs,
        long eventTimeMs,
        long batchSeq,
        int width,
        int height,
        int jpegBytes,
        SourceKind sourceKind,
        String shotId,
        String sceneId,
        String keyframeRole,
        String storeRef) implements StreamRecord {

    /** A frame that is not (yet) known as a keyframe. */
    public FrameDoc(String streamId, long epochMs, long frameIndex, long ptsMs, long eventTimeMs, long batchSeq, int width,
            int height, int jpegBytes, SourceKind sourceKind) {
        this(streamId, epochMs, frameIndex, ptsMs, eventTimeMs, batchSeq, width, height, jpegBytes, sourceKind, null, null, null, null);
    }

    @JsonIgnore
    public boolean isKeyframe() {
        return storeRef != null;
    }

    public String id() {
        return Ids.frame(streamId, frameIndex);
    }
}
