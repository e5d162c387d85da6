package io.videoworld.core;

/**
 * One thing the episodic memory learns about a stream: a closed shot (with the keyframes it
 * expects perception for), a keyframe's perception, a track, the stream's own document (its
 * kind and progress), or a stretch of speech and what was recognised in it. Exactly one is set;
 * a union of the job's streams needs one type.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param shot a closed shot, or null
 * @param perception a keyframe's perception, or null
 * @param track a track document, or null
 * @param video the stream's document, or null
 * @param transcript a stretch of speech, or null
 */
public record Observation(String streamId, long epochMs, Segment shot, Perception perception, TrackDoc track, VideoDoc video,
        TranscriptDoc transcript) implements StreamRecord {
    /** Without speech. */
    public Observation(String streamId, long epochMs, Segment shot, Perception perception, TrackDoc track, VideoDoc video) {
        this(streamId, epochMs, shot, perception, track, video, null);
    }

    public static Observation of(Segment s) {
        return new Observation(s.streamId(), s.epochMs(), s, null, null, null, null);
    }

    public static Observation of(Perception p) {
        return new Observation(p.streamId(), p.epochMs(), null, p, null, null, null);
    }

    public static Observation of(TrackDoc t) {
        return new Observation(t.streamId(), t.epochMs(), null, null, t, null, null);
    }

    public static Observation of(VideoDoc v) {
        return new Observation(v.streamId(), v.epochMs(), null, null, null, v, null);
    }

    public static Observation of(TranscriptDoc t) {
        return new Observation(t.streamId(), t.epochMs(), null, null, null, null, t);
    }
}
