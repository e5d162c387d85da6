package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * A frame picked for detection and tracking (at {@code vw.detect.fps}), with its JPEG.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param eventTimeMs event time
 * @param last whether it ends the stream (the producer's final batch)
 * @param carry true when the motion gate saw nothing move since the stream's last detected sample:
 *     that sample's detections are carried instead of running the detector
 * @param jpeg the image
 * @param live whether the stream is live: a sample too far behind may be dropped for a newer one
 */
public record SampledFrame(String streamId, long epochMs, long frameIndex, long ptsMs, long eventTimeMs, boolean last, boolean carry, byte[] jpeg,
        boolean live) implements StreamRecord {
    @Override
    public String position() {
        return "frame " + frameIndex;
    }

    /** A sample of a file or folder (not live). */
    public SampledFrame(String streamId, long epochMs, long frameIndex, long ptsMs, long eventTimeMs, boolean last, boolean carry, byte[] jpeg) {
        this(streamId, epochMs, frameIndex, ptsMs, eventTimeMs, last, carry, jpeg, false);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SampledFrame f && streamId.equals(f.streamId) && epochMs == f.epochMs && frameIndex == f.frameIndex
                && ptsMs == f.ptsMs && eventTimeMs == f.eventTimeMs && last == f.last && carry == f.carry && live == f.live
                && Arrays.equals(jpeg, f.jpeg);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, frameIndex);
    }

    @Override
    public String toString() {
        return "SampledFrame[" + streamId + " #" + frameIndex + (last ? ", last" : "") + (carry ? ", carry" : "") + (live ? ", live" : "") + "]";
    }
}
