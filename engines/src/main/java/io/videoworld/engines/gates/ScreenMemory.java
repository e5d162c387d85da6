package io.videoworld.engines.gates;

import io.videoworld.core.Detection;
import io.videoworld.core.TextLine;
import java.util.List;

/**
 * What {@code GatedPerception} keeps of one stream between keyframes; Flink keyed state, so a
 * restarted job plans the next keyframe against the same one a failure-free run would.
 *
 * @param epochMs the push the keyframe belongs to (a new push is read whole)
 * @param frameIndex the keyframe's frame number
 * @param eventTimeMs its event time (a keyframe later than the idle time after it is read whole)
 * @param jpeg the keyframe as it came: its luma is decoded from it when needed, a fifth of the
 *     bytes of the luma itself (about 150 KB for a 1280x800 screen)
 * @param lines the lines it was read as
 * @param sinceFull keyframes perceived since the last whole read
 * @param objects what was detected (or carried) on it, without appearance; null when no detector runs
 * @param unreadFrom rows from here down not read yet (a sliced whole read, {@link ScreenGate#ALL_READ}: none)
 */
public record ScreenMemory(long epochMs, long frameIndex, long eventTimeMs, byte[] jpeg, List<TextLine> lines, int sinceFull,
        List<Detection> objects, int unreadFrom) {

    /** Bytes this holds, about: what it costs in a checkpoint and on the heap. */
    public long bytes() {
        return jpeg.length + 96L * lines.size() + 64L * (objects == null ? 0 : objects.size()) + 64;
    }
}
