package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.engines.shots.ShotState.Boundary;

/** Cuts between two frames: the content and adaptive detectors on video, {@link ScreenChange} on screens. */
final class CutChecks {
    private CutChecks() {}

    /** Video: a cut at {@code t} (the first frame of the new shot), or null. */
    static Boundary video(FrameWindow w, ShotParams p, long t) {
        double c = w.contentAt(t);
        String detector = null;
        if (p.uses(ShotParams.CONTENT) && c >= p.contentThreshold()) {
            detector = ShotParams.CONTENT;
        }
        if (p.uses(ShotParams.ADAPTIVE) && c >= floor(w, p, t)) {
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
            if (avg <= 1e-6 || c / avg >= p.adaptiveRatio() || sidesDiffer(w, t, p.adaptiveWindow() + 1)) {
                detector = detector == null ? ShotParams.ADAPTIVE : detector;
            }
        }
        return detector != null && !isFlash(w, p, t) ? new Boundary(t, "cut", detector, c) : null;
    }

    /** Mean brightness (0-255) of the brighter picture of a pair under which the adaptive floor shrinks with it. */
    static final double DIM = 64;

    /**
     * The least content score the adaptive detector accepts at {@code t}: {@code adaptiveMinContent}
     * for pictures of ordinary brightness, less in proportion for dim ones (down to a third), since
     * every term of the score scales with brightness (a cut between two night shots scores a third
     * of the same cut in daylight) while the frame-to-frame noise the floor is there for does too.
     */
    static double floor(FrameWindow w, ShotParams p, long t) {
        double lit = Math.max(w.at(t - 1).luma(), w.at(t).luma());
        return p.adaptiveMinContent() * Math.max(1 / 3.0, Math.min(1, lit / DIM));
    }

    /** How many times the frames within a side may differ for the sides to count as two shots. */
    static final double SIDES_RATIO = 3.0;
    /** The least colour-histogram distance between the sides (0-1) that {@link #sidesDiffer} calls a cut. */
    static final double SIDES_MIN = 0.25;

    /**
     * The two-sided test: the {@code n} frames before {@code t} and the {@code n} from {@code t}
     * on are two shots when their colour histograms differ across the sides far more than within
     * either side. Where one side is noise, static or flicker, every frame differs from the next in
     * pixels, so the frame-difference ratio stays low; a side's colour distribution stays put.
     * Drift (a pan, a zoom) grows with the distance in time, so across the sides it is at most
     * about {@code n / ((n + 1) / 3)} times (2.25 for three frames) what it is within a side:
     * {@link #SIDES_RATIO} lies above that. A flicker puts both pictures on each side, so it does
     * not pass either.
     */
    static boolean sidesDiffer(FrameWindow w, long t, int n) {
        if (!w.has(t - n) || !w.has(t + n - 1)) {
            return false;
        }
        double across = 0;
        for (long i = t - n; i < t; i++) {
            for (long j = t; j < t + n; j++) {
                across += FrameDistance.histogram(w.at(i).hist(), w.at(j).hist());
            }
        }
        across /= n * n;
        double within = Math.max(spread(w, t - n, t), spread(w, t, t + n));
        return across >= SIDES_MIN && across >= SIDES_RATIO * within;
    }

    /** Mean colour-histogram distance between the frames of [from, to). */
    private static double spread(FrameWindow w, long from, long to) {
        double sum = 0;
        int pairs = 0;
        for (long i = from; i < to; i++) {
            for (long j = i + 1; j < to; j++) {
                sum += FrameDistance.histogram(w.at(i).hist(), w.at(j).hist());
                pairs++;
            }
        }
        return pairs == 0 ? 0 : sum / pairs;
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

    /** Screens: whether {@code t} is no cut whatever frames follow it (the first frame, or no change from the one before). */
    static boolean screenCannotCut(FrameWindow w, ShotParams p, long t) {
        return !w.has(t - 1) || !p.uses(ShotParams.CONTENT) && !p.uses(ShotParams.ADAPTIVE)
                || !ScreenChange.judge(w.bgr(t - 1), w.bgr(t), w.at(t).featureWidth()).changed();
    }

    /**
     * A flash or a one-off glitch: within a few frames the picture is back to what it was
     * before, seen from either end (t starts the flash, or t is the first frame after it). Back
     * means closer to it than half the change at {@code t} (and than half the content threshold):
     * in a dark or low-contrast film two different shots can lie closer than that threshold, and
     * a fixed bar would call every cut between them a flash.
     */
    static boolean isFlash(FrameWindow w, ShotParams p, long t) {
        double back = Math.min(p.contentThreshold(), w.contentAt(t)) / 2;
        FrameFeatures before = w.at(t - 1);
        for (long k = t + 1; k <= t + p.flashFrames() && w.has(k); k++) {
            if (FrameDistance.content(before, w.at(k)) < back) {
                return true;
            }
        }
        FrameFeatures now = w.at(t);
        for (long k = t - 2; k >= t - 1 - p.flashFrames() && w.has(k); k--) {
            if (FrameDistance.content(w.at(k), now) < back) {
                return true;
            }
        }
        return false;
    }
}
