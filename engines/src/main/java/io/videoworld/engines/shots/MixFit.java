package io.videoworld.engines.shots;

/** Exact integer sums for fitting a picture as a mix of two others (the arithmetic of {@link BlendModel}). */
final class MixFit {
    /** Values summed in one int: 32768 * 255 * 255 < 2^31. */
    private static final int CHUNK = 32768;

    private MixFit() {}

    /**
     * Where F lies on the line from A to B ({@code dd} is |B - A|^2): its place {@code a} (0 at A,
     * 1 at B; least squares) and the RMS distance of F from the mix {@code (1 - a) A + a B}, from
     * one integer pass.
     */
    static double[] place(byte[] a, byte[] b, byte[] f, long dd) {
        return place(widen(a), widen(b), widen(f), dd);
    }

    /**
     * {@link #place(byte[], byte[], byte[], long)} on pictures widened to ints. The sums are exact
     * integers in any order: int partial sums over {@link #CHUNK} values (at most 255 * 255 each)
     * cannot overflow, which lets the JIT keep several lanes of them at once.
     */
    static double[] place(int[] a, int[] b, int[] f, long dd) {
        long dot = 0;
        long sq = 0;
        for (int s = 0; s < a.length; s += CHUNK) {
            int end = Math.min(a.length, s + CHUNK);
            int d = 0;
            int q = 0;
            for (int i = s; i < end; i++) {
                int e = f[i] - a[i];
                d += e * (b[i] - a[i]);
                q += e * e;
            }
            dot += d;
            sq += q;
        }
        double w = (double) dot / dd;
        return new double[] {w, Math.sqrt(Math.max(0, sq - (double) dot * dot / dd) / a.length)};
    }

    /** |B - A|^2 over all values, exact. */
    static long squaredDistance(int[] a, int[] b) {
        long dd = 0;
        for (int s = 0; s < a.length; s += CHUNK) {
            int end = Math.min(a.length, s + CHUNK);
            int d = 0;
            for (int i = s; i < end; i++) {
                int x = b[i] - a[i];
                d += x * x;
            }
            dd += d;
        }
        return dd;
    }

    /** Unsigned bytes as ints. */
    static int[] widen(byte[] bytes) {
        int[] out = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[i] & 0xFF;
        }
        return out;
    }
}
