package io.videoworld.operators.inference;

import io.videoworld.core.Keyframe;

/**
 * A keyframe with the wall-clock time the shot detector let it go, so that change-gated perception
 * can tell how long it queued behind other keyframes (capture time would also count the frames the
 * shot detector waits for before it decides, minutes for a screen that seldom changes).
 *
 * @param keyframe the keyframe
 * @param emittedMs wall-clock time it was emitted, epoch milliseconds
 */
public record QueuedKeyframe(Keyframe keyframe, long emittedMs) {

    /** Stamps a keyframe as emitted now; run chained to the shot detector, on its thread. */
    public static QueuedKeyframe now(Keyframe k) {
        return new QueuedKeyframe(k, System.currentTimeMillis());
    }

    public String streamId() {
        return keyframe.streamId();
    }
}
