package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One tracked object of a stream; one document in {@code vw-tracks}, rewritten while the track
 * lives and a last time when it dies.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param trackNumber per-stream track number, from 1 in birth order
 * @param category the category most of its detections had
 * @param width frame width the boxes refer to
 * @param height frame height the boxes refer to
 * @param first first sample it was seen in
 * @param last latest sample it was seen in
 * @param samples how many samples matched it
 * @param meanScore mean detector confidence
 * @param alive false once the tracker has let it go
 * @param reidentified times it was picked up again after a cut or occlusion by appearance
 * @param timeline observed boxes, oldest first; thinned to every other sample when long
 * @param appearance running colour histogram, for re-identification and entity matching
 */
public record TrackDoc(String streamId, long epochMs, long trackNumber, String category, int width, int height, TrackPoint first,
        TrackPoint last, int samples, double meanScore, boolean alive, int reidentified, List<TrackPoint> timeline,
        float[] appearance) implements StreamRecord {
    @Override
    public String position() {
        return "track " + trackNumber;
    }

    public String id() {
        return Ids.track(streamId, trackNumber);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrackDoc t && streamId.equals(t.streamId) && epochMs == t.epochMs && trackNumber == t.trackNumber
                && category.equals(t.category) && Objects.equals(first, t.first) && Objects.equals(last, t.last)
                && samples == t.samples && alive == t.alive && reidentified == t.reidentified
                && Objects.equals(timeline, t.timeline) && Arrays.equals(appearance, t.appearance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, trackNumber, samples, alive);
    }

    @Override
    public String toString() {
        return "TrackDoc[" + id() + " " + category + " " + samples + " samples" + (alive ? "" : ", dead") + "]";
    }
}
