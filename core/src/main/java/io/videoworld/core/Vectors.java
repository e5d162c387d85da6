package io.videoworld.core;

/**
 * The one place vector arithmetic lives: cosine similarity and unit length, for embeddings,
 * image descriptors and appearance histograms alike.
 */
public final class Vectors {
    private Vectors() {}

    /**
     * Cosine similarity in [-1, 1]. Vectors need not be unit length; a zero vector is similar to
     * nothing (0). A missing vector, or two of different lengths, cannot be compared: -1, which
     * every caller's threshold reads as "not similar".
     */
    public static double cosine(float[] a, float[] b) {
        if (a == null || b == null || a.length != b.length) {
            return -1;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /** A copy scaled to length 1; null for a missing or zero vector. */
    public static float[] unit(float[] v) {
        if (v == null) {
            return null;
        }
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        if (n == 0) {
            return null;
        }
        float inv = (float) (1 / Math.sqrt(n));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * inv;
        }
        return out;
    }

    /** Scales {@code v} to length 1 in place (a zero vector stays zero) and returns it. */
    public static float[] normaliseInPlace(float[] v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        if (n > 0) {
            float inv = (float) (1 / Math.sqrt(n));
            for (int i = 0; i < v.length; i++) {
                v[i] *= inv;
            }
        }
        return v;
    }
}
