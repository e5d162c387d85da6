package io.videoworld.engines.shots;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
import static org.bytedeco.opencv.global.opencv_imgproc.COLOR_HSV2BGR_FULL;
import static org.bytedeco.opencv.global.opencv_imgproc.cvtColor;

import io.videoworld.core.FrameFeatures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * The model a gradual transition must fit before it is called one. A cross-dissolve (and a fade,
 * which is a dissolve with black) is a mix of the frame before it and the frame after it:
 * {@code F(k) = (1 - a(k)) A + a(k) B} with {@code a} rising from 0 to 1. Camera motion, subject
 * motion, animation, fog or bubbles clearing and lighting changes also change a picture a lot over
 * a second, and on small images a middle frame can look like a mix, so a candidate passes only
 * when all of these hold:
 *
 * <ol>
 *   <li>the end frames differ: RMS pixel difference of A and B of at least {@code minChange};</li>
 *   <li>the middle frame sits between them ({@code 0.3 <= a <= 0.7}) and every frame in between is
 *       close to a mix of the two: residual RMS at most {@link #MAX_RESIDUAL} of A-to-B's;</li>
 *   <li>{@code a} rises monotonically and no single step carries more than {@code maxStep} of it
 *       (a cut makes all of it at once);</li>
 *   <li>it is the whole transition: the frames just before A stay at {@code a ~ 0} and those just
 *       after B at {@code a ~ 1} (within {@link #MAX_SPILL}), so a slow drift that goes on does not
 *       count;</li>
 *   <li>the middle frame has lost contrast as a mix does: a mix of two unrelated pictures has
 *       weaker edges than either, a real picture (a camera that moved, a cloud of bubbles that
 *       cleared) has edges of full strength; the middle frame's edge energy may be at most
 *       {@link #MAX_EDGE_GAIN} times that of the predicted mix (median over 8x8 blocks);</li>
 *   <li>motion does not explain it: B predicted from A by shifting each 8x8 block (up to
 *       {@link #SEARCH} pixels) still leaves at least {@link #MIN_UNEXPLAINED} of the difference.</li>
 * </ol>
 *
 * The tests work on the 80-pixel-wide BGR picture rebuilt from a frame's HSV feature image, after
 * a quicker, looser look at it halved.
 */
final class BlendModel {
    static final double MIN_MIX = 0.3;
    static final double MAX_RESIDUAL = 0.3;
    static final double MAX_SPILL = 0.25;
    static final double MAX_EDGE_GAIN = 1.4;
    /** Mean squared neighbour difference a block needs for its edge gain to count. */
    static final double MIN_BLOCK_EDGES = 20;
    static final double MIN_UNEXPLAINED = 0.6;
    static final double MONOTONE_SLACK = 0.15;
    static final int SEARCH = 6;
    static final int BLOCK = 8;
    /** Half-widths of the windows tried, in seconds. */
    static final double[] HALF_WIDTHS_SEC = {0.1, 0.17, 0.27, 0.4, 0.55};
    /** Fewest frames from the middle of a window to either end, and fewest checked for spill. */
    static final int MIN_HALF = 2;
    /** Frames checked on each side for spill, in seconds (at least the half-width). */
    static final double SPILL_SEC = 0.2;

    /** Access to the pictures around the frame being judged. */
    interface Frames {
        boolean has(long position);

        /** The 80-pixel BGR picture. */
        byte[] bgr(long position);

        /** The same at half size ({@link #half}), for a quick first look. */
        byte[] small(long position);

        /** Width of the 80-pixel pictures. */
        int width();

        /** {@link #bgr} widened to ints, which the JIT sums several at a time (bytes it does not). */
        default int[] ints(long position) {
            return MixFit.widen(bgr(position));
        }

        /** {@link #small} widened to ints. */
        default int[] smallInts(long position) {
            return MixFit.widen(small(position));
        }
    }


    private BlendModel() {}

    /**
     * The fit of a mix centred on {@code c} with half-width {@code h}, or null when the frames are
     * not one. The cheap tests come first: most windows fail on the end frames' difference, the
     * middle frame's place or its residual, or the frames just outside.
     */
    static ShotState.Gradual fit(Frames fr, long c, int h, int spill, double minChange, double maxStep) {
        if (!fr.has(c - h) || !fr.has(c + h) || !roughFit(fr, c, h, minChange)) {
            return null;
        }
        int[] a = fr.ints(c - h);
        int[] b = fr.ints(c + h);
        int[] m = fr.ints(c);
        if (a.length != b.length || a.length != m.length) {
            return null;
        }
        long dd = MixFit.squaredDistance(a, b);
        double change = Math.sqrt((double) dd / a.length);
        if (change < minChange) {
            return null;
        }
        double[] at = MixFit.place(a, b, m, dd);
        double mid = at[0];
        if (mid < MIN_MIX || mid > 1 - MIN_MIX || at[1] > MAX_RESIDUAL * change) {
            return null;
        }
        if (spilled(fr, a, b, dd, c - h - 1, 0) || spilled(fr, a, b, dd, c + h + 1, 1)) {
            return null;
        }
        double[] alpha = new double[2 * h + 1];
        double worst = at[1];
        alpha[2 * h] = 1;
        alpha[h] = mid;
        for (int k = 1; k <= 2 * h; k++) {
            if (k < 2 * h && k != h) {
                int[] f = fr.ints(c - h + k);
                if (f.length != a.length) {
                    return null;
                }
                double[] pk = MixFit.place(a, b, f, dd);
                alpha[k] = pk[0];
                worst = Math.max(worst, pk[1]);
                if (worst > MAX_RESIDUAL * change) {
                    return null;
                }
            }
        }
        for (int k = 1; k <= 2 * h; k++) {
            double step = alpha[k] - alpha[k - 1];
            if (step < -MONOTONE_SLACK || step > maxStep) {
                return null;
            }
        }
        for (int j = 2; j <= spill; j++) {
            if (spilled(fr, a, b, dd, c - h - j, 0) || spilled(fr, a, b, dd, c + h + j, 1)) {
                return null;
            }
        }
        if (edgeGain(fr.bgr(c - h), fr.bgr(c + h), fr.bgr(c), mid, fr.width()) > MAX_EDGE_GAIN) {
            return null;
        }
        int half = 0;
        for (int k = 1; k <= 2 * h; k++) {
            if (Math.abs(alpha[k] - 0.5) < Math.abs(alpha[half] - 0.5)) {
                half = k;
            }
        }
        return new ShotState.Gradual(c, h, c - h + half, change, worst / change);
    }

    /**
     * The first tests on the half-size pictures with some slack, which turns most windows down at
     * a quarter of the cost: the end frames' difference, the middle frame's place and residual.
     */
    private static boolean roughFit(Frames fr, long c, int h, double minChange) {
        int[] a = fr.smallInts(c - h);
        int[] b = fr.smallInts(c + h);
        int[] m = fr.smallInts(c);
        if (a.length != b.length || a.length != m.length || a.length == 0) {
            return false;
        }
        long dd = MixFit.squaredDistance(a, b);
        double change = Math.sqrt((double) dd / a.length);
        if (change < 0.8 * minChange) {
            return false;
        }
        double[] at = MixFit.place(a, b, m, dd);
        return at[0] >= MIN_MIX - 0.1 && at[0] <= 1.1 - MIN_MIX && at[1] <= 1.3 * MAX_RESIDUAL * change;
    }

    /** Whether the frame at {@code k} (outside the window) strays from {@code target} (0 before it, 1 after) by more than the spill allowed. */
    private static boolean spilled(Frames fr, int[] a, int[] b, long dd, long k, double target) {
        if (!fr.has(k)) {
            return false;
        }
        int[] f = fr.ints(k);
        return f.length != a.length || Math.abs(MixFit.place(a, b, f, dd)[0] - target) > MAX_SPILL;
    }

    /** Whether shifting blocks of A explains B no better than {@link #MIN_UNEXPLAINED} of their difference. */
    static boolean notMotion(byte[] a, byte[] b, int width) {
        long dd = 0;
        for (int i = 0; i < a.length; i++) {
            int d = (b[i] & 0xFF) - (a[i] & 0xFF);
            dd += d * d;
        }
        return blockMatchResidual(a, b, width) >= MIN_UNEXPLAINED * Math.sqrt((double) dd / a.length);
    }

    /**
     * Edge energy of the middle frame over that of the mix predicted for it (grey, squared
     * neighbour differences), the median over 8x8 blocks that have edges, so that a small overlay
     * that stays sharp through a dissolve (a logo, a caption, a ball drawn on both shots) does not
     * decide it.
     */
    static double edgeGain(byte[] a, byte[] b, byte[] m, double w, int width) {
        int n = a.length / 3;
        int height = n / width;
        float[] gm = new float[n];
        float[] gp = new float[n];
        for (int i = 0; i < n; i++) {
            gm[i] = grey(m, i);
            gp[i] = (float) ((1 - w) * grey(a, i) + w * grey(b, i));
        }
        float[] em = edgeEnergy(gm, width, height);
        float[] ep = edgeEnergy(gp, width, height);
        List<Double> ratios = new ArrayList<>();
        for (int by = 0; by + BLOCK <= height; by += BLOCK) {
            for (int bx = 0; bx + BLOCK <= width; bx += BLOCK) {
                double sm = 0;
                double sp = 0;
                for (int y = by; y < by + BLOCK; y++) {
                    for (int x = bx; x < bx + BLOCK; x++) {
                        sm += em[y * width + x];
                        sp += ep[y * width + x];
                    }
                }
                if ((sm + sp) / (BLOCK * BLOCK) > MIN_BLOCK_EDGES) {
                    ratios.add(sm / Math.max(sp, 1e-3));
                }
            }
        }
        if (ratios.isEmpty()) {
            return 1;
        }
        Collections.sort(ratios);
        int k = ratios.size();
        return k % 2 == 1 ? ratios.get(k / 2) : (ratios.get(k / 2 - 1) + ratios.get(k / 2)) / 2;
    }

    private static float grey(byte[] bgr, int i) {
        return 0.114f * (bgr[3 * i] & 0xFF) + 0.587f * (bgr[3 * i + 1] & 0xFF) + 0.299f * (bgr[3 * i + 2] & 0xFF);
    }

    /** Per pixel: squared difference to the right neighbour plus to the one below (0 at the far edges). */
    private static float[] edgeEnergy(float[] g, int w, int h) {
        float[] e = new float[g.length];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float v = g[y * w + x];
                float sum = 0;
                if (x + 1 < w) {
                    float d = g[y * w + x + 1] - v;
                    sum += d * d;
                }
                if (y + 1 < h) {
                    float d = g[(y + 1) * w + x] - v;
                    sum += d * d;
                }
                e[y * w + x] = sum;
            }
        }
        return e;
    }

    /** RMS residual of B predicted from A by the best shift of each 8x8 block within {@link #SEARCH} pixels (edges clamped). */
    static double blockMatchResidual(byte[] a, byte[] b, int w) {
        int h = a.length / 3 / w;
        double total = 0;
        int blocks = 0;
        for (int by = 0; by + BLOCK <= h; by += BLOCK) {
            for (int bx = 0; bx + BLOCK <= w; bx += BLOCK) {
                double best = Double.MAX_VALUE;
                for (int dy = -SEARCH; dy <= SEARCH; dy++) {
                    for (int dx = -SEARCH; dx <= SEARCH; dx++) {
                        double s = 0;
                        for (int y = 0; y < BLOCK && s < best; y++) {
                            int sy = Math.min(h - 1, Math.max(0, by + y + dy));
                            for (int x = 0; x < BLOCK; x++) {
                                int sx = Math.min(w - 1, Math.max(0, bx + x + dx));
                                int p = 3 * ((by + y) * w + bx + x);
                                int q = 3 * (sy * w + sx);
                                for (int ch = 0; ch < 3; ch++) {
                                    int d = (b[p + ch] & 0xFF) - (a[q + ch] & 0xFF);
                                    s += d * d;
                                }
                            }
                        }
                        best = Math.min(best, s);
                    }
                }
                total += best / (BLOCK * BLOCK * 3);
                blocks++;
            }
        }
        return blocks == 0 ? 0 : Math.sqrt(total / blocks);
    }

    /** A BGR picture of {@code width} pixels a row at half the size (each pixel the mean of a 2x2 block). */
    static byte[] half(byte[] bgr, int width) {
        int height = bgr.length / 3 / width;
        int w = width / 2;
        int h = height / 2;
        byte[] out = new byte[w * h * 3];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int p = 3 * ((2 * y) * width + 2 * x);
                int q = p + 3 * width;
                for (int c = 0; c < 3; c++) {
                    int sum = (bgr[p + c] & 0xFF) + (bgr[p + 3 + c] & 0xFF) + (bgr[q + c] & 0xFF) + (bgr[q + 3 + c] & 0xFF);
                    out[3 * (y * w + x) + c] = (byte) ((sum + 2) >> 2);
                }
            }
        }
        return out;
    }

    /** The picture of a frame in BGR, rebuilt from its HSV feature image (H scaled to 0-255, as OpenCV's "full" hue range). */
    static byte[] bgr(FrameFeatures f) {
        byte[] hsv = f.hsv();
        byte[] out = new byte[hsv.length];
        try (BytePointer in = new BytePointer(hsv);
                Mat src = new Mat(f.featureHeight(), f.featureWidth(), CV_8UC3, in);
                Mat dst = new Mat()) {
            cvtColor(src, dst, COLOR_HSV2BGR_FULL);
            dst.data().get(out);
        }
        return out;
    }
}
