package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The blend model on pictures made here: a cross-dissolve between two unrelated pictures fits it,
 * and the things that also change a picture a lot in a second do not: a pan, a fog that clears
 * (a real picture gaining contrast), a drift that goes on, a flash.
 */
class BlendModelTest {
    private static final int W = 80;
    private static final int H = 48;

    /** A textured picture: blobs of colour on a gradient, different for each seed; wider than the view for pans. */
    static byte[] scene(long seed, int width) {
        Random r = new Random(seed);
        byte[] img = new byte[width * H * 3];
        int[] base = {r.nextInt(200), r.nextInt(200), r.nextInt(200)};
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < width; x++) {
                for (int c = 0; c < 3; c++) {
                    img[3 * (y * width + x) + c] = (byte) (base[c] + y / 2);
                }
            }
        }
        for (int i = 0; i < 60; i++) {
            int cx = r.nextInt(width);
            int cy = r.nextInt(H);
            int rad = 2 + r.nextInt(6);
            int[] col = {r.nextInt(256), r.nextInt(256), r.nextInt(256)};
            for (int y = Math.max(0, cy - rad); y < Math.min(H, cy + rad); y++) {
                for (int x = Math.max(0, cx - rad); x < Math.min(width, cx + rad); x++) {
                    if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad) {
                        for (int c = 0; c < 3; c++) {
                            img[3 * (y * width + x) + c] = (byte) col[c];
                        }
                    }
                }
            }
        }
        return img;
    }

    static byte[] view(byte[] wide, int wideWidth, int x0) {
        byte[] out = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
            System.arraycopy(wide, 3 * (y * wideWidth + x0), out, 3 * y * W, 3 * W);
        }
        return out;
    }

    static byte[] mix(byte[] a, byte[] b, double w) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) Math.round((1 - w) * (a[i] & 0xFF) + w * (b[i] & 0xFF));
        }
        return out;
    }

    /** Frames 0..n-1 of a sequence, through the tracker's window interface. */
    static BlendModel.Frames frames(int n, IntFunction<byte[]> picture) {
        List<byte[]> pics = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pics.add(picture.apply(i));
        }
        return new BlendModel.Frames() {
            @Override
            public boolean has(long position) {
                return position >= 0 && position < n;
            }

            @Override
            public byte[] bgr(long position) {
                return pics.get((int) position);
            }

            @Override
            public byte[] small(long position) {
                return BlendModel.half(pics.get((int) position), W);
            }

            @Override
            public int width() {
                return W;
            }
        };
    }

    /** The best fit over the tracker's half-widths at 25 fps, centred anywhere, or null. */
    static ShotState.Gradual best(BlendModel.Frames f, int n) {
        ShotState.Gradual best = null;
        for (int c = 0; c < n; c++) {
            for (int h : new int[] {2, 4, 7, 10, 14}) {
                ShotState.Gradual g = BlendModel.fit(f, c, h, Math.max(h, 5), 20, 0.6);
                if (g != null && (best == null || g.strength() > best.strength())) {
                    best = g;
                }
            }
        }
        return best;
    }

    @Test
    void aCrossDissolveFitsAndItsMiddleIsWhereTheMixPassesOneHalf() {
        byte[] a = scene(1, W);
        byte[] b = scene(2, W);
        // 20 frames of A, a 15-frame dissolve (frames 20-34), 20 frames of B.
        BlendModel.Frames f = frames(55, i -> i < 20 ? a : i > 34 ? b : mix(a, b, (i - 19) / 16.0));
        ShotState.Gradual g = best(f, 55);
        assertThat(g).isNotNull();
        assertThat(g.middle()).isBetween(26L, 28L);
        assertThat(BlendModel.notMotion(a, b, W)).isTrue();
    }

    @Test
    void aPanIsNotAMixAndShiftedBlocksExplainIt() {
        byte[] wide = scene(3, 3 * W);
        // A fast pan: 3 pixels a frame across a wide picture.
        BlendModel.Frames f = frames(50, i -> view(wide, 3 * W, Math.min(2 * W, 10 + 3 * i)));
        assertThat(best(f, 50)).isNull();
        assertThat(BlendModel.notMotion(view(wide, 3 * W, 10), view(wide, 3 * W, 14), W)).isFalse();
    }

    @Test
    void aPictureThatKeepsFullContrastIsNotAMix() {
        byte[] a = scene(7, W);
        byte[] b = scene(8, W);
        // One picture taking the other's place block by block (an occlusion, a cloud of bubbles
        // clearing): every frame is a real picture with edges at full strength, not a mix.
        Random r = new Random(3);
        int[] switchAt = new int[(W / 8) * (H / 8)];
        for (int i = 0; i < switchAt.length; i++) {
            switchAt[i] = 20 + r.nextInt(16);
        }
        IntFunction<byte[]> composite = i -> {
            byte[] m = a.clone();
            for (int y = 0; y < H; y++) {
                for (int x = 0; x < W; x++) {
                    if (i >= switchAt[(y / 8) * (W / 8) + x / 8]) {
                        System.arraycopy(b, 3 * (y * W + x), m, 3 * (y * W + x), 3);
                    }
                }
            }
            return m;
        };
        assertThat(best(frames(55, composite), 55)).isNull();
        byte[] half = composite.apply(27);
        assertThat(BlendModel.edgeGain(a, b, half, 0.5, W)).isGreaterThan(BlendModel.MAX_EDGE_GAIN);
        assertThat(BlendModel.edgeGain(a, b, mix(a, b, 0.5), 0.5, W)).isBetween(0.9, 1.1);
    }

    @Test
    void aDriftThatGoesOnAndAFlashAreNotTransitions() {
        byte[] a = scene(5, W);
        byte[] b = scene(6, W);
        // The picture changes at the same slow pace for two seconds: no stable picture on either side.
        BlendModel.Frames drift = frames(50, i -> mix(a, b, i / 49.0));
        assertThat(best(drift, 50)).isNull();
        byte[] white = new byte[a.length];
        java.util.Arrays.fill(white, (byte) 255);
        // A flash: towards white and back within half a second.
        BlendModel.Frames flash = frames(50, i -> mix(a, white, Math.max(0, 1 - Math.abs(i - 25) / 6.0)));
        assertThat(best(flash, 50)).isNull();
    }
}
