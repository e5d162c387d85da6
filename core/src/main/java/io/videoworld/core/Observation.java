package io.videoworld.core;

/**
 * One thing the episodic memory learns about a stream: a closed shot (with the keyframes it
 * expects perception for), a keyframe's perception, or a track. Exactly one of the three is set;
 * a union of the job's streams needs one type.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param shot a closed shot, or null
 * @param perception a keyframe's perception, or null
 * @param track a track document, or null
 */
public record Observation(String streamId, long epochMs, Segment shot, Perception perception, TrackDoc track) {
    public static Observation of(Segment s) {
        return new Observation(s.streamId(), s.epochMs(), s, null, null);
    }

    public static Observation of(Perception p) {
        return new Observation(p.streamId(), p.epochMs(), null, p, null);
    }

    public static Observation of(TrackDoc t) {
        return new Observation(t.streamId(), t.epochMs(), null, null, t);
    }
}
