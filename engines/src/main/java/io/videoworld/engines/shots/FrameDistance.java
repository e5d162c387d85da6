package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;

/** Distances between two frames' features, each in a fixed range so thresholds are portable. */
public final class FrameDistance {
    private FrameDistance() {}

    /**
     * Mean absolute difference of H, S and V over all pixels, 0-255, as PySceneDetect's
     * ContentDetector scores frames, with one change: hue counts only as far as both pixels are
     * saturated and lit, and saturation only as far as both are lit, because hue and saturation of
     * near-black or grey pixels are noise (a fade to black otherwise scores like a cut). Hue is
     * taken the short way round the circle.
     */
    public static double content(FrameFeatures a, FrameFeatures b) {
        byte[] x = a.hsv();
        byte[] y = b.hsv();
        if (x.length != y.length) {
            return 255;
        }
        long weighted = 0;
        long value = 0;
        for (int i = 0; i < x.length; i += 3) {
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
        return (weighted / 255.0 + value) / x.length;
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
