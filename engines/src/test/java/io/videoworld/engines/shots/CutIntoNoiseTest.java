package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Segment;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The two-sided cut test ({@link CutChecks#sidesDiffer}): a cut into TV static, where every frame
 * after the cut differs from the next as much as the cut itself, is found; flickering light and a
 * pan, where the frames within each side differ as much as across, are not cuts. Synthetic
 * pictures at 12 frames a second (the rate of the game cutscenes in the real set).
 */
class CutIntoNoiseTest {
    private static final int W = 80;
    private static final int H = 60;
    private static final double FPS = 12;

    /** A colourful scene seen through a window that pans {@code dx} pixels a frame, its light scaled by {@code gain}. */
    private static byte[] scene(int frame, int dx, double gain) {
        byte[] bgr = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int u = x + frame * dx;
                int i = (y * W + x) * 3;
                bgr[i] = (byte) Math.min(255, gain * (40 + (u * 3) % 120));
                bgr[i + 1] = (byte) Math.min(255, gain * (60 + y * 2));
                bgr[i + 2] = (byte) Math.min(255, gain * (((u / 20) % 2 == 0) ? 200 : 90));
            }
        }
        return bgr;
    }

    /** Shot starts (ms) the default tracker finds in {@code frames} pictures. */
    private static List<Long> shotStarts(int frames, IntFunction<byte[]> picture) {
        return TrackerRuns.shotStarts(W, H, FPS, frames, picture);
    }

    @Test
    void aCutIntoStaticIsOneBoundaryAtTheFirstStaticFrame() {
        Random r = new Random(7);
        List<Long> starts = shotStarts(60, i -> i < 36 ? scene(i, 2, 1.0) : TrackerRuns.staticNoise(W, H, r));
        assertThat(starts).containsExactly(0L, Math.round(36 * 1000 / FPS));
    }

    @Test
    void flickeringLightIsNoCut() {
        // Bright for two frames, dark for one or two, as the flickering lights of the cutscenes.
        List<Long> starts = shotStarts(60, i -> scene(i, 1, (i % 4 < 2) ? 1.0 : 0.45));
        assertThat(starts).containsExactly(0L);
    }

    @Test
    void aFastPanIsNoCut() {
        List<Long> starts = shotStarts(60, i -> scene(i, 6, 1.0));
        assertThat(starts).containsExactly(0L);
    }
}
