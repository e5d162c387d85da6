package io.videoworld.query.perception;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.perception.DecodedImage;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link PixelStats#globalShift}: the pruned search finds what summing every shift in full finds. */
class PixelStatsTest {
    private static final int W = 320;
    private static final int H = 180;

    /** A textured frame: smooth blobs and noise, so that exactly one shift aligns two views of it. */
    private static int[] scene(long seed) {
        Random r = new Random(seed);
        int[] grey = new int[(W + 80) * (H + 80)];
        double[][] blobs = new double[12][];
        for (int i = 0; i < blobs.length; i++) {
            blobs[i] = new double[] {r.nextDouble() * (W + 80), r.nextDouble() * (H + 80), 8 + r.nextDouble() * 30, r.nextDouble() * 200};
        }
        for (int y = 0; y < H + 80; y++) {
            for (int x = 0; x < W + 80; x++) {
                double v = 20 + r.nextInt(20);
                for (double[] b : blobs) {
                    v += b[3] * Math.exp(-(Math.pow(x - b[0], 2) + Math.pow(y - b[1], 2)) / (2 * b[2] * b[2]));
                }
                grey[y * (W + 80) + x] = (int) Math.min(255, v);
            }
        }
        return grey;
    }

    /** The W x H window of {@code scene} whose top-left corner is at (40 + ox, 40 + oy). */
    private static DecodedImage view(int[] scene, int ox, int oy) {
        byte[] bgr = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int v = scene[(y + 40 + oy) * (W + 80) + x + 40 + ox];
                bgr[(y * W + x) * 3] = (byte) v;
                bgr[(y * W + x) * 3 + 1] = (byte) v;
                bgr[(y * W + x) * 3 + 2] = (byte) Math.min(255, v + 10);
            }
        }
        return new DecodedImage(W, H, bgr);
    }

    /** The search as it was before pruning: every shift summed in full. */
    private static double[] exhaustive(DecodedImage a, DecodedImage b) {
        int w = 96;
        int h = Math.max(8, a.height() * w / a.width());
        float[] ga = PixelStats.grey(a, w, h);
        float[] gb = PixelStats.grey(b, w, h);
        int range = (int) (w * 0.12);
        double best = Double.MAX_VALUE;
        double still = 0;
        int bx = 0;
        int by = 0;
        for (int dy = -range; dy <= range; dy++) {
            for (int dx = -range; dx <= range; dx++) {
                double err = 0;
                int cnt = 0;
                for (int y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
                    for (int x = Math.max(0, -dx); x < Math.min(w, w - dx); x++) {
                        err += Math.abs(ga[y * w + x] - gb[(y + dy) * w + x + dx]);
                        cnt++;
                    }
                }
                err /= Math.max(1, cnt);
                if (dx == 0 && dy == 0) {
                    still = err;
                }
                if (err < best - 1e-9) {
                    best = err;
                    bx = dx;
                    by = dy;
                }
            }
        }
        return new double[] {(double) bx / w, (double) by / h, still == 0 ? 0 : best / still, best};
    }

    @Test
    void aPanIsFoundAsTheShiftThatAlignsTheFrames() {
        int[] s = scene(1);
        // The camera moves 20 px right and 10 px down: frame b shows the scene 20 px further left, 10 px up.
        double[] shift = PixelStats.globalShift(view(s, 0, 0), view(s, 20, 10));
        assertThat(shift[0]).isCloseTo(-20.0 / W, org.assertj.core.data.Offset.offset(1.5 / 96));
        assertThat(shift[1]).isCloseTo(-10.0 / H, org.assertj.core.data.Offset.offset(1.5 / 54));
        assertThat(shift[2]).as("aligned error relative to the unshifted one").isLessThan(0.5);
    }

    @Test
    void thePrunedSearchAnswersAsTheFullOne() {
        int[][] moves = {{0, 0}, {20, 10}, {-33, 5}, {7, -28}, {35, 35}};
        for (long seed = 1; seed <= 4; seed++) {
            int[] s = scene(seed);
            for (int[] m : moves) {
                DecodedImage a = view(s, 0, 0);
                DecodedImage b = view(s, m[0], m[1]);
                assertThat(PixelStats.globalShift(a, b)).as("seed %d, move %d,%d", seed, m[0], m[1]).containsExactly(exhaustive(a, b));
            }
            // Unrelated frames (a cut): no shift explains the change, and the same one still wins.
            DecodedImage a = view(s, 0, 0);
            DecodedImage other = view(scene(seed + 100), 0, 0);
            assertThat(PixelStats.globalShift(a, other)).containsExactly(exhaustive(a, other));
        }
        // Flat frames tie everywhere: the first shift searched wins in both.
        DecodedImage flat = new DecodedImage(W, H, new byte[W * H * 3]);
        assertThat(PixelStats.globalShift(flat, flat)).containsExactly(exhaustive(flat, flat));
    }
}
