package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The face of one tracked person: the unit mean of the descriptors of the faces seen in its samples,
 * and, once linked, the person it belongs to; one {@code face} event in {@code vw-people}.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param trackNumber the person's track in the stream
 * @param descriptor unit mean of the faces' unit descriptors
 * @param faces how many faces it rests on
 * @param fromMs first face's presentation time
 * @param toMs latest face's presentation time
 * @param frames the frame numbers of those faces
 * @param personId the person it was linked to, or null before linking
 */
public record TrackFace(String streamId, long epochMs, long trackNumber, float[] descriptor, int faces, long fromMs, long toMs,
        List<Long> frames, String personId) implements StreamRecord {
    @Override
    public String position() {
        return "track " + trackNumber;
    }

    /** The track's id. */
    public String trackId() {
        return Ids.track(streamId, trackNumber);
    }

    /** The same face linked to a person. */
    public TrackFace withPerson(String id) {
        return new TrackFace(streamId, epochMs, trackNumber, descriptor, faces, fromMs, toMs, frames, id);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrackFace t && streamId.equals(t.streamId) && epochMs == t.epochMs && trackNumber == t.trackNumber
                && Arrays.equals(descriptor, t.descriptor) && faces == t.faces && fromMs == t.fromMs && toMs == t.toMs
                && Objects.equals(frames, t.frames) && Objects.equals(personId, t.personId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, trackNumber, faces, personId);
    }

    @Override
    public String toString() {
        return "TrackFace[" + trackId() + ", " + faces + " faces, person " + personId + "]";
    }
}
