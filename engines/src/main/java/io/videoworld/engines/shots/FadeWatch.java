package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.ShotState.Boundary;

/**
 * Fades through black: a run of black frames after some light ends a shot (at the middle of the
 * ramp down), and the picture that returns starts another.
 */
final class FadeWatch {
    private final ShotParams p;
    private final double fps;
    private final int minShotFrames;
    private boolean inDark;
    private boolean seenLight;
    private long darkStart;

    FadeWatch(ShotParams p, double fps, int minShotFrames, boolean inDark, boolean seenLight, long darkStart) {
        this.p = p;
        this.fps = fps;
        this.minShotFrames = minShotFrames;
        this.inDark = inDark;
        this.seenLight = seenLight;
        this.darkStart = darkStart;
    }

    boolean inDark() {
        return inDark;
    }

    boolean seenLight() {
        return seenLight;
    }

    long darkStart() {
        return darkStart;
    }

    boolean dark(FrameFeatures f) {
        return f.luma() < p.fadeFloor();
    }

    /** Frames either side of a dark frame whose edges must all be black for those edges to count as bars. */
    static final int BAR_FRAMES = 24;
    /** The fewest frames those must be: fewer say nothing about bars over time. */
    static final int BAR_MIN_FRAMES = 8;

    /**
     * Whether frame {@code t} of the window is black: its mean brightness is under the fade floor,
     * and so is the mean inside the stream's letterbox or pillarbox bars. Bars are edge rows and
     * columns black in every frame of the window around {@code t} (up to {@link #BAR_FRAMES} either
     * side), so they are known over time, not from the one frame: a fade darkens a picture's edges
     * first, which no earlier frame of the window shares, while a dim scene inside bars is not
     * black because the bars around it are.
     */
    boolean dark(FrameWindow w, long t) {
        FrameFeatures f = w.at(t);
        if (!dark(f)) {
            return false;
        }
        long from = Math.max(w.firstPosition(), t - BAR_FRAMES);
        long to = Math.min(w.lastPosition(), t + BAR_FRAMES);
        if (to - from + 1 < BAR_MIN_FRAMES || f.sourceKind() == SourceKind.SCREEN) {
            return true;
        }
        int width = f.featureWidth();
        byte[] x = f.hsv();
        if (width <= 0 || x == null || x.length % (3 * width) != 0) {
            return true;
        }
        int h = x.length / 3 / width;
        boolean[] rows = new boolean[h];
        boolean[] cols = new boolean[width];
        java.util.Arrays.fill(rows, true);
        java.util.Arrays.fill(cols, true);
        for (long k = from; k <= to; k++) {
            byte[] y = w.at(k).hsv();
            if (y == null || y.length != x.length) {
                return true;
            }
            for (int r = 0; r < h; r++) {
                for (int c = 0; c < width; c++) {
                    if ((y[(r * width + c) * 3 + 2] & 0xFF) > FrameDistance.BAR_LEVEL) {
                        rows[r] = false;
                        cols[c] = false;
                    }
                }
            }
        }
        int top = 0;
        while (top < h && rows[top]) {
            top++;
        }
        int bottom = h;
        while (bottom > top && rows[bottom - 1]) {
            bottom--;
        }
        int left = 0;
        while (left < width && cols[left]) {
            left++;
        }
        int right = width;
        while (right > left && cols[right - 1]) {
            right--;
        }
        if (top == 0 && bottom == h && left == 0 && right == width || bottom <= top || right <= left
                || top + h - bottom > FrameDistance.BAR_MAX_SHARE * h || left + width - right > FrameDistance.BAR_MAX_SHARE * width) {
            return true;
        }
        long sum = 0;
        for (int r = top; r < bottom; r++) {
            for (int c = left; c < right; c++) {
                sum += x[(r * width + c) * 3 + 2] & 0xFF;
            }
        }
        // V (the brightest channel) inside the bars, scaled to the frame's own luma the way the whole frame's V relates to it.
        double inside = sum / (double) ((bottom - top) * (right - left));
        double whole = 0;
        for (int i = 2; i < x.length; i += 3) {
            whole += x[i] & 0xFF;
        }
        whole /= x.length / 3.0;
        double insideLuma = whole <= 0 ? 0 : f.luma() * inside / whole;
        return insideLuma < p.fadeFloor();
    }

    /** Whether a frame in [from, to] is black: fades through black are this detector's, not the blend model's. */
    boolean darkWithin(FrameWindow w, long from, long to) {
        for (long k = Math.max(from, w.firstPosition()); k <= Math.min(to, w.lastPosition()); k++) {
            if (dark(w, k)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Frame {@code t} is decided: the boundary it makes, or null. Frames before
     * {@code nextAssemble} are already in shots, so a fade out is placed no earlier.
     */
    Boundary decide(FrameWindow w, long t, long nextAssemble) {
        FrameFeatures f = w.at(t);
        boolean dark = dark(w, t);
        Boundary found = null;
        if (p.uses(ShotParams.FADE)) {
            if (dark && !inDark) {
                inDark = true;
                darkStart = t;
            } else if (dark && seenLight && t - darkStart + 1 == longDark()) {
                // Black for a while: the fade out ends a shot now, and the picture that returns starts another.
                found = fadeOut(w, darkStart, nextAssemble);
            } else if (!dark && inDark) {
                if (seenLight) {
                    // A fade through black is one transition: its boundary is the middle of the black (the
                    // next shot's first keyframe waits for this lit frame). After a long black the fade out
                    // already ended the shot before, and the picture that returns starts the next one here.
                    long at = t - darkStart >= longDark() ? t : Math.max(Math.max(nextAssemble, w.firstPosition() + 1), (darkStart + t) / 2);
                    found = new Boundary(at, ShotParams.FADE, ShotParams.FADE, f.luma());
                }
                inDark = false;
                darkStart = -1;
            }
        }
        if (!dark) {
            seenLight = true;
        }
        return found;
    }

    /** The stream ended on black after a fade out (or a while of black): that boundary, or null. */
    Boundary finish(FrameWindow w, long nextAssemble) {
        long darkRun = w.lastPosition() + 1 - darkStart;
        if (inDark && seenLight && darkStart >= 0 && darkRun < longDark()
                && (darkRun >= minShotFrames || darkStart - rampStart(w, darkStart, nextAssemble) >= Math.round(0.3 * fps))) {
            return fadeOut(w, darkStart, nextAssemble);
        }
        return null;
    }

    /** Frames of black after which a fade out is a boundary even before the picture returns (two seconds). */
    private long longDark() {
        return Math.max(minShotFrames, Math.round(2 * fps));
    }

    /** The boundary of a fade out whose first black frame is {@code firstDark}: the middle of the ramp down. */
    private Boundary fadeOut(FrameWindow w, long firstDark, long nextAssemble) {
        long from = rampStart(w, firstDark, nextAssemble);
        long at = Math.max(Math.max(nextAssemble, w.firstPosition() + 1), (from + firstDark + 1) / 2);
        return new Boundary(at, ShotParams.FADE, ShotParams.FADE, w.at(at).luma());
    }

    /** The first frame of the ramp down into {@code firstDark}: as far back as brightness kept falling, up to two seconds. */
    private long rampStart(FrameWindow w, long firstDark, long nextAssemble) {
        long from = firstDark;
        long limit = Math.max(Math.max(w.firstPosition(), nextAssemble), firstDark - Math.round(2 * fps));
        while (from - 1 >= limit && w.at(from - 1).luma() > w.at(from).luma()) {
            from--;
        }
        return from;
    }
}
