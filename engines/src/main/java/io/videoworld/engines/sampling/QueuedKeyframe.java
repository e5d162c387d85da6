package io.videoworld.engines.sampling;

import io.videoworld.core.Keyframe;
import io.videoworld.core.StreamRecord;

/**
 * A keyframe with the wall-clock time its wait counts from, so that change-gated perception can tell
 * how long it queued: when the shot detector let it go, or, when the job was behind, the capture
 * time of the frame batch that let it go ({@code StampKeyframes}). Not the keyframe's own capture
 * time, which would also count the frames the shot detector waits for before it decides.
 *
 * @param keyframe the keyframe
 * @param emittedMs wall-clock time its wait counts from, epoch milliseconds
 */
public record QueuedKeyframe(Keyframe keyframe, long emittedMs) implements StreamRecord {

    @Override
    public String streamId() {
        return keyframe.streamId();
    }

    @Override
    public String position() {
        return keyframe.position();
    }
}
