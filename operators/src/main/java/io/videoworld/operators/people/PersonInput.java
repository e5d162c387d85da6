package io.videoworld.operators.people;

import io.videoworld.core.SampledFrame;
import io.videoworld.core.StreamRecord;
import io.videoworld.core.TrackDoc;

/**
 * What the person operator reads, one of two: a sampled frame (its JPEG, kept for a while) or a
 * track document (where its person was at those frames).
 *
 * @param frame a sample, or null
 * @param track a track, or null
 */
public record PersonInput(SampledFrame frame, TrackDoc track) implements StreamRecord {
    public static PersonInput of(SampledFrame f) {
        return new PersonInput(f, null);
    }

    public static PersonInput of(TrackDoc t) {
        return new PersonInput(null, t);
    }

    @Override
    public String streamId() {
        return frame != null ? frame.streamId() : track.streamId();
    }

    @Override
    public String position() {
        return frame != null ? frame.position() : track.position();
    }
}
