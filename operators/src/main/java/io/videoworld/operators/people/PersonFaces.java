package io.videoworld.operators.people;

import java.util.ArrayList;
import java.util.List;

/**
 * The faces seen of one tracked person: the sum of their unit descriptors, how many, when, and
 * whether the track's face was already sent on (it is sent once).
 *
 * @param sum sum of the faces' unit descriptors
 * @param count how many faces
 * @param fromMs first face's presentation time
 * @param toMs latest face's presentation time
 * @param frames the frames the faces were seen in
 * @param sent whether the track's face went out
 */
public record PersonFaces(float[] sum, int count, long fromMs, long toMs, List<Long> frames, boolean sent) {
    /** These faces and one more, seen at {@code ptsMs} in frame {@code frame}. */
    public PersonFaces plus(float[] unit, long frame, long ptsMs) {
        float[] s = new float[unit.length];
        if (sum != null) {
            System.arraycopy(sum, 0, s, 0, s.length);
        }
        for (int i = 0; i < s.length; i++) {
            s[i] += unit[i];
        }
        List<Long> f = new ArrayList<>(frames == null ? List.of() : frames);
        f.add(frame);
        return new PersonFaces(s, count + 1, count == 0 ? ptsMs : fromMs, ptsMs, f, false);
    }

    /** The same faces, marked as sent. */
    public PersonFaces markSent() {
        return new PersonFaces(sum, count, fromMs, toMs, frames, true);
    }

    /** No face yet. */
    public static PersonFaces none() {
        return new PersonFaces(null, 0, 0, 0, List.of(), false);
    }
}
