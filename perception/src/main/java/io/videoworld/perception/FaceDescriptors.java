package io.videoworld.perception;

/** Arithmetic on face descriptors: unit length, cosine similarity, the mean direction of several. */
public final class FaceDescriptors {
    private FaceDescriptors() {}

    /** The vector scaled to length 1 (a zero vector stays zero). */
    public static float[] unit(float[] v) {
        double n = 0;
        for (float x : v) {
            n += (double) x * x;
        }
        n = Math.sqrt(n);
        float[] out = new float[v.length];
        if (n > 0) {
            for (int i = 0; i < v.length; i++) {
                out[i] = (float) (v[i] / n);
            }
        }
        return out;
    }

    /** Cosine similarity of two vectors of the same length (0 when either is zero). */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("descriptors of " + a.length + " and " + b.length + " numbers");
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /** The unit-length mean of the unit vectors of several descriptors (what a track's faces aggregate to). */
    public static float[] meanOfUnits(Iterable<float[]> vs) {
        double[] sum = null;
        for (float[] v : vs) {
            float[] u = unit(v);
            if (sum == null) {
                sum = new double[u.length];
            } else if (u.length != sum.length) {
                throw new IllegalArgumentException("descriptors of " + sum.length + " and " + u.length + " numbers");
            }
            for (int i = 0; i < u.length; i++) {
                sum[i] += u[i];
            }
        }
        if (sum == null) {
            throw new IllegalArgumentException("no descriptor");
        }
        float[] out = new float[sum.length];
        for (int i = 0; i < sum.length; i++) {
            out[i] = (float) sum[i];
        }
        return unit(out);
    }
}
