package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;

/** Distances between two frames' features, each in a fixed range so thresholds are portable. */
public final class FrameDistance {
    private FrameDistance() {}

    /** Brightness (V, 0-255) at or under which every pixel of an edge row or column must be for it to be a bar. */
    static final int BAR_LEVEL = 24;
    /** The most of the height (or width) that bars may take; more black than that is picture (a title on black), not bars. */
    static final double BAR_MAX_SHARE = 0.4;

    /**
     * Mean absolute difference of H, S and V over the picture, 0-255, as PySceneDetect's
     * ContentDetector scores frames, with two changes. Hue counts only as far as both pixels are
     * saturated and lit, and saturation only as far as both are lit, because hue and saturation of
     * near-black or grey pixels are noise (a fade to black otherwise scores like a cut). Hue is
     * taken the short way round the circle. And letterbox or pillarbox bars (edge rows and columns
     * black in both frames, {@link #bars}) are not picture: averaged in, they would shrink every
     * score of a letterboxed film by their share while thresholds stay where they are.
     */
    public static double content(FrameFeatures a, FrameFeatures b) {
        byte[] x = a.hsv();
        byte[] y = b.hsv();
        if (x.length != y.length) {
            return 255;
        }
        if (x.length < 3) {
            return 0;
        }
        int w = a.featureWidth() > 0 && x.length % (3 * a.featureWidth()) == 0 ? a.featureWidth() : x.length / 3;
        int[] r = bars(x, y, w);
        long weighted = 0;
        long value = 0;
        for (int row = r[0]; row < r[1]; row++) {
            for (int i = (row * w + r[2]) * 3, end = (row * w + r[3]) * 3; i < end; i += 3) {
                int s1 = x[i + 1] & 0xFF;
                int s2 = y[i + 1] & 0xFF;
                int v1 = x[i + 2] & 0xFF;
                int v2 = y[i + 2] & 0xFF;
                int lit = Math.min(v1, v2);
                int dh = Math.abs((x[i] & 0xFF) - (y[i] & 0xFF));
                dh = Math.min(dh, 256 - dh);
                // Hue and saturation weighted by lightness (0-255): summed, divided once.
                weighted += dh * Math.min(lit, Math.min(s1, s2)) + Math.abs(s1 - s2) * lit;
                value += Math.abs(v1 - v2);
            }
        }
        // Averaged over the three channels, as PySceneDetect averages its H, S and V deltas.
        long channels = 3L * (r[1] - r[0]) * (r[3] - r[2]);
        return (weighted / 255.0 + value) / channels;
    }

    /**
     * The picture inside bars, {@code {top, bottom, left, right}} (rows and columns, end
     * exclusive) of HSV images {@code w} pixels wide: edge rows, then edge columns, in which
     * every pixel of both images is at most {@link #BAR_LEVEL} bright. Bars taller or wider in all
     * than {@link #BAR_MAX_SHARE} of the image, or an image that is black all over, leave the
     * whole image.
     */
    static int[] bars(byte[] x, byte[] y, int w) {
        int h = x.length / 3 / w;
        int top = 0;
        while (top < h && black(x, y, top * w, 1, w)) {
            top++;
        }
        if (top == h) {
            return new int[] {0, h, 0, w};
        }
        int bottom = h;
        while (bottom > top && black(x, y, (bottom - 1) * w, 1, w)) {
            bottom--;
        }
        if (top + h - bottom > BAR_MAX_SHARE * h) {
            top = 0;
            bottom = h;
        }
        int left = 0;
        while (left < w && black(x, y, top * w + left, w, bottom - top)) {
            left++;
        }
        int right = w;
        while (right > left && black(x, y, top * w + right - 1, w, bottom - top)) {
            right--;
        }
        if (left + w - right > BAR_MAX_SHARE * w) {
            left = 0;
            right = w;
        }
        return new int[] {top, bottom, left, right};
    }

    /** Whether {@code n} pixels from pixel {@code start}, {@code step} apart, are black in both images. */
    private static boolean black(byte[] x, byte[] y, int start, int step, int n) {
        for (int k = 0, i = start * 3 + 2; k < n; k++, i += step * 3) {
            if ((x[i] & 0xFF) > BAR_LEVEL || (y[i] & 0xFF) > BAR_LEVEL) {
                return false;
            }
        }
        return true;
    }

    /** Half the L1 distance of the colour histograms: 0 for the same colours, 1 for disjoint ones. */
    public static double histogram(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum / 2;
    }

    /**
     * Whether some pixel of the 80-pixel feature images changed brightness by more than 24 of
     * 255: a few typed words or a new message move a handful of pixels a lot, while the hash and
     * the mean barely change; JPEG noise of an unchanged screen stays far below.
     */
    public static boolean anyPixelChanged(FrameFeatures a, FrameFeatures b) {
        byte[] x = a.hsv();
        byte[] y = b.hsv();
        if (x == null || y == null || x.length != y.length) {
            return true;
        }
        for (int i = 2; i < x.length; i += 3) {
            if (Math.abs((x[i] & 0xFF) - (y[i] & 0xFF)) > 24) {
                return true;
            }
        }
        return false;
    }

    /** The share (0-1) of the pixels of the feature images whose brightness changed by more than 24 of 255 (0 when they cannot be compared). */
    public static double changedShare(FrameFeatures a, FrameFeatures b) {
        byte[] x = a == null ? null : a.hsv();
        byte[] y = b.hsv();
        if (x == null || y == null || x.length != y.length || x.length == 0) {
            return 0;
        }
        int changed = 0;
        for (int i = 2; i < x.length; i += 3) {
            changed += Math.abs((x[i] & 0xFF) - (y[i] & 0xFF)) > 24 ? 1 : 0;
        }
        return changed / (x.length / 3.0);
    }

    /** Bits that differ between two 64-bit perceptual hashes, 0-64. */
    public static int hamming(long a, long b) {
        return Long.bitCount(a ^ b);
    }
}
