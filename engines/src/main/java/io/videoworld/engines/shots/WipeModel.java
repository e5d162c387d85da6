package io.videoworld.engines.shots;

/**
 * The model a wipe must fit before it is called one. A wipe (a sliding edge, an iris, a dither
 * that spreads) replaces the picture place by place: at each moment a growing region of the frame
 * shows the next shot B while the rest still shows the previous one A. Per 4x4 block of the
 * 80-pixel picture, frame k is then {@code (1 - a(k, x)) A + a(k, x) B} with {@code a} rising from
 * 0 to 1 in each block, but at different times in different blocks (a dissolve is the case where
 * all blocks move together, {@link BlendModel}). A candidate passes only when all of these hold:
 *
 * <ol>
 *   <li>the end frames differ over most of the frame: RMS difference at least {@code minChange}
 *       and at least {@link #MIN_COVER} of the blocks differ clearly (an object crossing a still
 *       background changes only part of the picture);</li>
 *   <li>every frame in between is made of the two: at least {@link #MIN_FIT} of those blocks are
 *       close to a mix of A's and B's block (residual at most {@link #MAX_RESIDUAL} of their
 *       difference), which a camera move or a moving subject does not give;</li>
 *   <li>the region that shows B grows: the share of B rises monotonically, no frame makes more
 *       than {@code maxStep} of it (a cut makes all of it), and a block that has turned to B
 *       stays B;</li>
 *   <li>it progresses in space: in the middle of it at least {@link #MIN_SIDE} of the blocks
 *       still show A and as many already show B;</li>
 *   <li>the parts that show A or B show them as they are (RMS at most {@link #MAX_SIDE_ERROR} of
 *       A-to-B's difference there), not a texture that keeps changing (bubbles, spray);</li>
 *   <li>it is the whole transition: the frames just outside the window show A before and B after;</li>
 *   <li>motion does not explain it: B predicted from A by shifting 8x8 blocks leaves at least
 *       {@link #MIN_UNEXPLAINED} of their difference (stricter than a dissolve's, as a model with
 *       a mix per block fits more than one mix does).</li>
 * </ol>
 */
final class WipeModel {
    static final int BLOCK = 4;
    static final double MIN_BLOCK_CHANGE = 25;
    static final double MIN_COVER = 0.5;
    static final double MIN_FIT = 0.8;
    static final double MAX_RESIDUAL = 0.4;
    static final double MIN_SIDE = 0.2;
    static final double MONOTONE_SLACK = 0.1;
    static final double MAX_SPILL = 0.2;
    static final double MAX_SIDE_ERROR = 0.45;
    static final double MIN_UNEXPLAINED = 0.8;

    private WipeModel() {}

    /** Per informative block of A and B: where each frame lies between them. */
    private record Blocks(int[] offsets, int width, byte[] a, byte[] b, long[] dd) {}

    /**
     * The fit of a wipe centred on {@code c} with half-width {@code h}, or null when the frames are
     * not one.
     */
    static ShotState.Gradual fit(BlendModel.Frames fr, long c, int h, int spill, double minChange, double maxStep) {
        if (!fr.has(c - h) || !fr.has(c + h) || !fr.has(c)) {
            return null;
        }
        if (!changed(fr.small(c - h), fr.small(c + h), 0.8 * minChange)) {
            return null;
        }
        byte[] a = fr.bgr(c - h);
        byte[] b = fr.bgr(c + h);
        int width = fr.width();
        if (a.length != b.length || a.length == 0) {
            return null;
        }
        long total = 0;
        for (int i = 0; i < a.length; i++) {
            int d = (b[i] & 0xFF) - (a[i] & 0xFF);
            total += d * d;
        }
        double change = Math.sqrt((double) total / a.length);
        if (change < minChange) {
            return null;
        }
        Blocks blocks = informative(a, b, width);
        if (blocks == null) {
            return null;
        }
        int n = blocks.offsets().length;
        // The middle frame first: most windows that are no wipe fail there.
        byte[] m = fr.bgr(c);
        double[] mid = places(blocks, m);
        if (mid == null || !progressing(mid) || !sidesMatch(blocks, m, mid)) {
            return null;
        }
        double[][] alpha = new double[2 * h + 1][];
        alpha[h] = mid;
        // Then the quarter points, which turn down most windows where something else is going on.
        for (int k : new int[] {h / 2, h + (h + 1) / 2}) {
            if (k > 0 && k < 2 * h && alpha[k] == null) {
                alpha[k] = places(blocks, fr.bgr(c - h + k));
                if (alpha[k] == null || (k < h ? mean(alpha[k]) > mean(mid) + MONOTONE_SLACK : mean(alpha[k]) < mean(mid) - MONOTONE_SLACK)) {
                    return null;
                }
            }
        }
        double[] mean = new double[2 * h + 1];
        for (int k = 0; k <= 2 * h; k++) {
            if (alpha[k] == null) {
                alpha[k] = k == 0 ? zeros(n, 0) : k == 2 * h ? zeros(n, 1) : places(blocks, fr.bgr(c - h + k));
                if (alpha[k] == null) {
                    return null;
                }
            }
            mean[k] = mean(alpha[k]);
            if (k > 0 && (mean[k] - mean[k - 1] < -MONOTONE_SLACK || mean[k] - mean[k - 1] > maxStep)) {
                return null;
            }
        }
        // A block that shows B stays B (the region grows; it does not move about).
        int turned = 0;
        int stayed = 0;
        for (int k = 1; k < 2 * h; k++) {
            for (int i = 0; i < n; i++) {
                if (alpha[k][i] > 0.75) {
                    turned++;
                    if (alpha[k + 1][i] > 0.5) {
                        stayed++;
                    }
                }
            }
        }
        if (turned == 0 || stayed < 0.85 * turned) {
            return null;
        }
        for (int j = 1; j <= spill; j++) {
            if (fr.has(c - h - j) && outside(blocks, fr.bgr(c - h - j), 0)
                    || fr.has(c + h + j) && outside(blocks, fr.bgr(c + h + j), 1)) {
                return null;
            }
        }
        // Last, as it is the dearest: a block model has more freedom than one mix, so motion must explain even less.
        if (BlendModel.blockMatchResidual(a, b, width) < MIN_UNEXPLAINED * change) {
            return null;
        }
        int half = 0;
        for (int k = 1; k <= 2 * h; k++) {
            if (Math.abs(mean[k] - 0.5) < Math.abs(mean[half] - 0.5)) {
                half = k;
            }
        }
        return new ShotState.Gradual(c, h, c - h + half, change, 0.5);
    }

    /** The blocks where A and B differ clearly, or null when they cover too little of the frame. */
    private static Blocks informative(byte[] a, byte[] b, int width) {
        int height = a.length / 3 / width;
        int all = 0;
        int[] offsets = new int[(width / BLOCK) * (height / BLOCK)];
        long[] dd = new long[offsets.length];
        int n = 0;
        for (int by = 0; by + BLOCK <= height; by += BLOCK) {
            for (int bx = 0; bx + BLOCK <= width; bx += BLOCK) {
                all++;
                long s = 0;
                for (int y = by; y < by + BLOCK; y++) {
                    for (int x = bx; x < bx + BLOCK; x++) {
                        int p = 3 * (y * width + x);
                        for (int ch = 0; ch < 3; ch++) {
                            int d = (b[p + ch] & 0xFF) - (a[p + ch] & 0xFF);
                            s += d * d;
                        }
                    }
                }
                if (Math.sqrt((double) s / (BLOCK * BLOCK * 3)) >= MIN_BLOCK_CHANGE) {
                    offsets[n] = 3 * (by * width + bx);
                    dd[n++] = s;
                }
            }
        }
        if (all == 0 || n < MIN_COVER * all) {
            return null;
        }
        return new Blocks(java.util.Arrays.copyOf(offsets, n), width, a, b, java.util.Arrays.copyOf(dd, n));
    }

    /**
     * Each block's place between A (0) and B (1), clamped to [0, 1]; null when fewer than
     * {@link #MIN_FIT} of the blocks are close to a mix of the two.
     */
    private static double[] places(Blocks bl, byte[] f) {
        byte[] a = bl.a();
        byte[] b = bl.b();
        if (f.length != a.length) {
            return null;
        }
        int n = bl.offsets().length;
        double[] out = new double[n];
        int fit = 0;
        int row = 3 * bl.width();
        for (int i = 0; i < n; i++) {
            long dot = 0;
            long sq = 0;
            for (int y = 0; y < BLOCK; y++) {
                int p0 = bl.offsets()[i] + y * row;
                for (int p = p0; p < p0 + 3 * BLOCK; p++) {
                    int ai = a[p] & 0xFF;
                    int e = (f[p] & 0xFF) - ai;
                    dot += e * ((b[p] & 0xFF) - ai);
                    sq += (long) e * e;
                }
            }
            long dd = bl.dd()[i];
            double residual = Math.max(0, sq - (double) dot * dot / dd);
            if (residual <= MAX_RESIDUAL * MAX_RESIDUAL * dd) {
                fit++;
            }
            out[i] = Math.min(1, Math.max(0, (double) dot / dd));
        }
        return fit >= MIN_FIT * n ? out : null;
    }

    /** Whether part of the frame still shows A and part already shows B. */
    private static boolean progressing(double[] alpha) {
        int atA = 0;
        int atB = 0;
        for (double x : alpha) {
            if (x < 0.25) {
                atA++;
            } else if (x > 0.75) {
                atB++;
            }
        }
        return atA >= MIN_SIDE * alpha.length && atB >= MIN_SIDE * alpha.length;
    }

    /**
     * Whether the parts of the middle frame that show A or B show them as they are: the blocks
     * placed at either end differ from that end by at most {@link #MAX_SIDE_ERROR} of A-to-B's
     * difference there. Bubbles clearing or spray spreading also turn blocks towards the later
     * picture, but their texture keeps changing, so the blocks do not match it.
     */
    private static boolean sidesMatch(Blocks bl, byte[] f, double[] alpha) {
        return Math.max(side(bl, f, alpha, false), side(bl, f, alpha, true)) <= MAX_SIDE_ERROR;
    }

    /** RMS difference of the blocks placed at one end from that end, over A-to-B's there (0 when none is). */
    private static double side(Blocks bl, byte[] f, double[] alpha, boolean atB) {
        byte[] end = atB ? bl.b() : bl.a();
        int row = 3 * bl.width();
        long err = 0;
        long diff = 0;
        for (int i = 0; i < alpha.length; i++) {
            if (atB ? alpha[i] <= 0.75 : alpha[i] >= 0.25) {
                continue;
            }
            for (int y = 0; y < BLOCK; y++) {
                int p0 = bl.offsets()[i] + y * row;
                for (int p = p0; p < p0 + 3 * BLOCK; p++) {
                    int e = (f[p] & 0xFF) - (end[p] & 0xFF);
                    err += e * e;
                }
            }
            diff += bl.dd()[i];
        }
        double r = diff == 0 ? 0 : Math.sqrt((double) err / diff);
        return r;
    }

    /** Whether two pictures differ by at least {@code min} RMS. */
    private static boolean changed(byte[] a, byte[] b, double min) {
        if (a.length != b.length || a.length == 0) {
            return false;
        }
        long dd = 0;
        for (int i = 0; i < a.length; i++) {
            int d = (b[i] & 0xFF) - (a[i] & 0xFF);
            dd += d * d;
        }
        return dd >= min * min * a.length;
    }

    /** Whether a frame outside the window strays from {@code target} (0: A, before; 1: B, after). */
    private static boolean outside(Blocks bl, byte[] f, double target) {
        // A frame that is no mix of the two at all (the shot moving on) says nothing either way.
        double[] alpha = places(bl, f);
        return alpha != null && Math.abs(mean(alpha) - target) > MAX_SPILL;
    }

    private static double[] zeros(int n, double value) {
        double[] out = new double[n];
        java.util.Arrays.fill(out, value);
        return out;
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return x.length == 0 ? 0 : s / x.length;
    }
}
