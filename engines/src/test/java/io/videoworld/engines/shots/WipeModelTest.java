package io.videoworld.engines.shots;

import static io.videoworld.engines.shots.BlendModelTest.frames;
import static io.videoworld.engines.shots.BlendModelTest.mix;
import static io.videoworld.engines.shots.BlendModelTest.scene;
import static io.videoworld.engines.shots.BlendModelTest.view;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The wipe model on pictures made here, tested by its definition: a growing region of the frame
 * shows the next shot while the rest still shows the previous one. A sliding edge and a spreading
 * dither between unrelated pictures fit; a cut, a dissolve (no region, the whole frame mixes), a
 * pan, an object crossing a still background and a texture that keeps changing where it spreads
 * do not.
 */
class WipeModelTest {
    private static final int W = 80;
    private static final int H = 48;

    /** The best wipe fit over the tracker's half-widths at 25 fps, centred anywhere, or null. */
    static ShotState.Gradual best(BlendModel.Frames f, int n) {
        ShotState.Gradual best = null;
        for (int c = 0; c < n; c++) {
            for (int h : new int[] {2, 4, 7, 10, 14}) {
                ShotState.Gradual g = WipeModel.fit(f, c, h, Math.max(h, 5), 20, 0.6);
                if (g != null && (best == null || g.strength() > best.strength())) {
                    best = g;
                }
            }
        }
        return best;
    }

    /**
     * A picture of its own: {@link BlendModelTest#scene} under heavy grain. Real shots have
     * texture; flat blobs alone are partly explained by shifted 8x8 blocks of another flat picture
     * at 80 pixels (a quarter of the difference), which the wipe's motion test would take for motion.
     */
    static byte[] textured(long seed) {
        byte[] img = scene(seed, W);
        Random r = new Random(seed * 31);
        for (int i = 0; i < img.length; i++) {
            img[i] = (byte) Math.max(0, Math.min(255, (img[i] & 0xFF) + r.nextInt(255) - 127));
        }
        return img;
    }

    /** A picture showing B where {@code showsB} says so and A elsewhere. */
    static byte[] composite(byte[] a, byte[] b, java.util.function.BiPredicate<Integer, Integer> showsB) {
        byte[] m = a.clone();
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                if (showsB.test(x, y)) {
                    System.arraycopy(b, 3 * (y * W + x), m, 3 * (y * W + x), 3);
                }
            }
        }
        return m;
    }

    @Test
    void aSlidingEdgeFitsAndItsMiddleIsWhereHalfTheFrameHasTurned() {
        byte[] a = textured(11);
        byte[] b = textured(12);
        // 20 frames of A, the edge crosses the frame in frames 20-35 (5 pixels a frame), 20 of B.
        BlendModel.Frames f = frames(56, i -> composite(a, b, (x, y) -> x < 5 * (i - 19)));
        ShotState.Gradual g = best(f, 56);
        assertThat(g).isNotNull();
        assertThat(g.middle()).isBetween(26L, 28L);
    }

    @Test
    void aSpreadingDitherFits() {
        byte[] a = textured(13);
        byte[] b = textured(14);
        // Each 4x4 cell turns at its own moment, earlier on the left: a dither wipe as the 80-pixel picture shows it.
        Random r = new Random(5);
        int[] turnAt = new int[(W / 4) * (H / 4)];
        for (int i = 0; i < turnAt.length; i++) {
            int x = 4 * (i % (W / 4));
            turnAt[i] = 20 + (int) Math.round(12.0 * x / W) + r.nextInt(5);
        }
        BlendModel.Frames f = frames(60, i -> composite(a, b, (x, y) -> i >= turnAt[(y / 4) * (W / 4) + x / 4]));
        ShotState.Gradual g = best(f, 60);
        assertThat(g).isNotNull();
        assertThat(g.middle()).isBetween(24L, 30L);
    }

    @Test
    void aCutAndADissolveAreNoWipes() {
        byte[] a = textured(15);
        byte[] b = textured(16);
        assertThat(best(frames(40, i -> i < 20 ? a : b), 40)).as("a cut").isNull();
        // The whole frame mixes at once: no part shows A while another shows B (the blend model's case).
        assertThat(best(frames(55, i -> i < 20 ? a : i > 34 ? b : mix(a, b, (i - 19) / 16.0)), 55)).as("a dissolve").isNull();
    }

    @Test
    void aPanAndAnObjectCrossingAStillBackgroundAreNoWipes() {
        byte[] wide = scene(17, 3 * W);
        assertThat(best(frames(50, i -> view(wide, 3 * W, Math.min(2 * W, 10 + 3 * i))), 50)).as("a pan").isNull();
        byte[] background = textured(18);
        byte[] thing = textured(19);
        // A 24-pixel-wide object crosses the frame, 3 pixels a frame.
        IntFunction<byte[]> crossing = i -> composite(background, thing, (x, y) -> x >= 3 * i - 24 && x < 3 * i && y >= 8 && y < 40);
        assertThat(best(frames(40, crossing), 40)).as("an object crossing").isNull();
    }

    @Test
    void aTextureThatKeepsChangingWhereItSpreadsIsNoWipe() {
        byte[] a = textured(20);
        // Spray spreading from the left: where it has reached, the picture is a new texture every frame.
        IntFunction<byte[]> spray = i -> composite(a, textured(100 + i), (x, y) -> x < 5 * (i - 19));
        assertThat(best(frames(56, spray), 56)).isNull();
    }
}
