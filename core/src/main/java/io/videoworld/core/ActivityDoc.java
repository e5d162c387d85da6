package io.videoworld.core;

import java.util.List;

/**
 * What one tracked person did over consecutive samples, from body pose and hip motion; one
 * document in {@code vw-activities}, rewritten as the activity grows.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param trackNumber the person's track in the stream
 * @param label standing, sitting, lying, bending, walking, running or raising_hand
 * @param confidence mean of its samples' confidences, 0-1
 * @param fromMs first sample's presentation time
 * @param toMs latest sample's presentation time
 * @param samples how many samples it rests on
 * @param frames the frame numbers of those samples (the first ones, when many)
 */
public record ActivityDoc(String streamId, long epochMs, long trackNumber, String label, double confidence, long fromMs, long toMs,
        int samples, List<Long> frames) implements StreamRecord {
    @Override
    public String position() {
        return "track " + trackNumber;
    }

    /** Track, label and first frame: the same activity always has the same id. */
    public String id() {
        return Ids.track(streamId, trackNumber) + ":a:" + label + ":" + (frames.isEmpty() ? 0 : frames.get(0));
    }
}
