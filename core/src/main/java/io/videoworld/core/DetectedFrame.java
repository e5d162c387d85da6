package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A sampled frame after the detector: what the tracker consumes and what {@code vw-detections}
 * stores.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param eventTimeMs event time (capture time, or push start + pts)
 * @param width frame width in pixels
 * @param height frame height in pixels
 * @param last whether this is the stream's final sample (the producer's last batch)
 * @param detections objects found, best first
 * @param frameHistogram colour histogram of the whole frame, which lets the tracker see shot cuts
 * @param device where the detector ran: "cpu" or "gpu"
 */
public record DetectedFrame(String streamId, long epochMs, long frameIndex, long ptsMs, long eventTimeMs, int width, int height,
        boolean last, List<Detection> detections, float[] frameHistogram, String device) implements StreamRecord {
    @Override
    public String position() {
        return "frame " + frameIndex;
    }

    /**
     * A live sample the detector skipped because it fell too far behind while a newer sample of its
     * stream was waiting: no detections (null) and no size, so it has no document, and the tracker
     * only advances its tracks over the gap.
     */
    public static DetectedFrame dropped(SampledFrame f, String device) {
        return new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), 0, 0, f.last(), null, null, device);
    }

    /** Whether this is a {@link #dropped} sample (a failure has width 0 too, but an empty list of detections). */
    public boolean wasDropped() {
        return width == 0 && detections == null;
    }

    public String id() {
        return Ids.frame(streamId, frameIndex);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DetectedFrame f && streamId.equals(f.streamId) && epochMs == f.epochMs && frameIndex == f.frameIndex
                && ptsMs == f.ptsMs && eventTimeMs == f.eventTimeMs && width == f.width && height == f.height && last == f.last
                && Objects.equals(detections, f.detections) && Arrays.equals(frameHistogram, f.frameHistogram)
                && Objects.equals(device, f.device);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, frameIndex);
    }

    @Override
    public String toString() {
        return "DetectedFrame[" + id() + " " + (detections == null ? (width == 0 ? "dropped" : "carried") : detections.size() + " objects")
                + (last ? ", last" : "") + "]";
    }
}
