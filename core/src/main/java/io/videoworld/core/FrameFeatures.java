package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * What shot detection needs of one frame, computed once from its JPEG: a small HSV image, a
 * colour histogram, the mean brightness and a perceptual hash. It carries the JPEG on so that
 * keyframes can be stored without a second trip through Kafka.
 *
 * @param streamId the stream
 * @param sourceKind video or screen
 * @param sourceUri where the frames came from
 * @param epochMs wall-clock time of pts 0 (identifies the push)
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param eventTimeMs event time
 * @param batchSeq the batch it arrived in
 * @param width encoded width of the JPEG
 * @param height encoded height of the JPEG
 * @param featureWidth width of {@code hsv}
 * @param featureHeight height of {@code hsv}
 * @param hsv interleaved H, S, V bytes (H scaled to 0-255), row-major
 * @param hist normalised HSV histogram (8 hue x 4 saturation x 4 value bins)
 * @param luma mean brightness 0-255
 * @param dhash 64-bit difference hash of the grey image
 * @param jpeg the original JPEG
 */
public record FrameFeatures(
        String streamId,
        SourceKind sourceKind,
        String sourceUri,
        long epochMs,
        long frameIndex,
        long ptsMs,
        long eventTimeMs,
        long batchSeq,
        int width,
        int height,
        int featureWidth,
        int featureHeight,
        byte[] hsv,
        float[] hist,
        double luma,
        long dhash,
        byte[] jpeg) {

    @Override
    public boolean equals(Object o) {
        return o instanceof FrameFeatures f && streamId.equals(f.streamId) && frameIndex == f.frameIndex
                && ptsMs == f.ptsMs && epochMs == f.epochMs && Arrays.equals(hsv, f.hsv) && Arrays.equals(hist, f.hist)
                && dhash == f.dhash && Arrays.equals(jpeg, f.jpeg);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, frameIndex, ptsMs, epochMs, dhash);
    }

    @Override
    public String toString() {
        return "FrameFeatures[" + streamId + " #" + frameIndex + " @" + ptsMs + "ms luma=" + Math.round(luma) + "]";
    }
}
