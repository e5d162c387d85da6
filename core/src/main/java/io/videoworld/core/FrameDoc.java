package io.videoworld.core;

/**
 * A frame's document in {@code vw-frames}: where it sits in its stream, not its pixels.
 *
 * @param streamId the stream
 * @param frameIndex the producer's frame number in the stream
 * @param ptsMs presentation time from stream start
 * @param eventTimeMs event time (epoch ms)
 * @param batchSeq the batch it arrived in
 * @param width encoded width
 * @param height encoded height
 * @param jpegBytes size of the encoded frame
 * @param sourceKind video or screen
 */
public record FrameDoc(
        String streamId,
        long frameIndex,
        long ptsMs,
        long eventTimeMs,
        long batchSeq,
        int width,
        int height,
        int jpegBytes,
        SourceKind sourceKind) {

    public String id() {
        return Ids.frame(streamId, frameIndex);
    }
}
