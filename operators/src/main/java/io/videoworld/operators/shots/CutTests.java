package io.videoworld.operators.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.operators.shots.ShotState.Boundary;

/** Cuts between two frames: the content and adaptive detectors on video, {@link ScreenChange} on screens. */
final class CutTests {
    private CutTests() {}

    /** Video: a cut at {@code t} (the first frame of the new shot), or null. */
    static Boundary video(FrameWindow w, ShotParams p, long t) {
        double c = w.contentAt(t);
        String detector = null;
        if (p.uses(ShotParams.CONTENT) && c >= p.contentThreshold()) {
            detector = ShotParams.CONTENT;
        }
        if (p.uses(ShotParams.ADAPTIVE) && c >= p.adaptiveMinContent()) {
            double sum = 0;
            int n = 0;
            for (long k = t - p.adaptiveWindow(); k <= t + p.adaptiveWindow(); k++) {
                // A neighbour needs a predecessor to have a score at all.
                if (k != t && w.has(k) && w.has(k - 1)) {
                    sum += w.contentAt(k);
                    n++;
                }
            }
            double avg = n == 0 ? 0 : sum / n;
            if (avg <= 1e-6 || c / avg >= p.adaptiveRatio()) {
                detector = detector == null ? ShotParams.ADAPTIVE : detector;
            }
        }
        return detector != null && !isFlash(w, p, t) ? new Boundary(t, "cut", detector, c) : null;
    }

    /**
     * Screens: a new shot when the application or task on screen changes ({@link ScreenChange}),
     * not when a page scrolls or a few words are typed; a screen that flips to something and back
     * within the flash window (a menu, a notification; {@code flashFrames} frame intervals) does
     * not cut either.
     */
    static Boundary screen(FrameWindow w, ShotParams p, long frameMs, long t) {
        if (!p.uses(ShotParams.CONTENT) && !p.uses(ShotParams.ADAPTIVE)) {
            return null;
        }
        int width = w.at(t).featureWidth();
        ScreenChange.Verdict v = ScreenChange.judge(w.bgr(t - 1), w.bgr(t), width);
        if (!v.changed()) {
            return null;
        }
        // Near-duplicates are dropped, so the next frames kept may be long after: only those within
        // the flash window in time count (an app left idle and then left again is no flash).
        long until = w.at(t).ptsMs() + p.flashFrames() * frameMs;
        for (long k = t + 1; k <= t + p.flashFrames() && w.has(k) && w.at(k).ptsMs() <= until; k++) {
            if (!ScreenChange.judge(w.bgr(t - 1), w.bgr(k), width).changed()) {
                return null;
            }
        }
        return new Boundary(t, "cut", v.reason(), v.score());
    }

    /**
     * A flash or a one-off glitch: within a few frames the picture is back to what it was
     * before, seen from either end (t starts the flash, or t is the first frame after it).
     */
    static boolean isFlash(FrameWindow w, ShotParams p, long t) {
        FrameFeatures before = w.at(t - 1);
        for (long k = t + 1; k <= t + p.flashFrames() && w.has(k); k++) {
            if (FrameDistance.content(before, w.at(k)) < p.contentThreshold() / 2) {
                return true;
            }
        }
        FrameFeatures now = w.at(t);
        for (long k = t - 2; k >= t - 1 - p.flashFrames() && w.has(k); k--) {
            if (FrameDistance.content(w.at(k), now) < p.contentThreshold() / 2) {
                return true;
            }
        }
        return false;
    }
}
