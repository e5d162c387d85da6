package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * A frame chosen to represent a shot, with its JPEG, on its way to the frame store.
 *
 * @param streamId the stream
 * @param epochMs the push it belongs to (part of its store key)
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param role first, middle, last or periodic
 * @param jpeg the image
 * @param eventTimeMs event time of the frame
 */
public record Keyframe(String streamId, long epochMs, long frameIndex, long ptsMs, String role, byte[] jpeg, long eventTimeMs) implements StreamRecord {
    @Override
    public String position() {
        return "frame " + frameIndex;
    }

    /** The frame store key: deterministic, so a replay rewrites the same file. */
    public String storeKey() {
        return storeKey(streamId, epochMs, frameIndex);
    }

    public static String storeKey(String streamId, long epochMs, long frameIndex) {
        return streamId + "/" + epochMs + "/" + String.format("%010d", frameIndex) + ".jpg";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Keyframe k && streamId.equals(k.streamId) && epochMs == k.epochMs
                && frameIndex == k.frameIndex && ptsMs == k.ptsMs && role.equals(k.role) && Arrays.equals(jpeg, k.jpeg);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, frameIndex, role);
    }

    @Override
    public String toString() {
        return "Keyframe[" + streamId + " #" + frameIndex + " " + role + "]";
    }
}
