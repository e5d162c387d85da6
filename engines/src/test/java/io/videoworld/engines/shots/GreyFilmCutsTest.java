package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Black-and-white film: a grey picture has no hue or saturation to change, so a cut scores on
 * brightness alone, a third of what the same cut scores in colour, and so does the grain. A camera
 * stopped and restarted on the same grey street (a new framing, brightness moved by about 30 of
 * 255 on average) is a cut; grain and a slow pan over one framing are not.
 */
class GreyFilmCutsTest {
    private static final int W = 80;
    private static final int H = 45;
    private static final double FPS = 15;

    /** A grey street: soft bands and blobs, {@code phase} choosing the framing, {@code pan} pixels moved sideways, grain from {@code rnd}. */
    private static byte[] picture(double phase, double pan, Random rnd, boolean colour) {
        byte[] bgr = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                double u = x + pan;
                double v = 110 + 45 * Math.sin(u * 0.21 + phase) * Math.cos(y * 0.17 - phase * 0.7) + 25 * Math.sin((u + y) * 0.09 + 2 * phase);
                int g = (int) Math.max(0, Math.min(255, Math.round(v + rnd.nextInt(13) - 6)));
                int i = (y * W + x) * 3;
                bgr[i] = (byte) (colour ? Math.max(0, g - 60) : g);
                bgr[i + 1] = (byte) g;
                bgr[i + 2] = (byte) (colour ? Math.min(255, g + 40) : g);
            }
        }
        return bgr;
    }

    private static FrameFeatures features(int i, byte[] bgr) {
        return FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "grey", i, Math.round(i * 1000 / FPS), W, H, bgr, W, H);
    }

    /** Shot starts after the first, on 60 frames: a slow pan over one framing, then from frame 30 (when {@code cut}) another framing. */
    private static List<Long> found(boolean cut) {
        Random rnd = new Random(7);
        List<Long> starts = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), FPS);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> starts.add(s.startFrame()));
        for (int i = 0; i < 60; i++) {
            boolean second = cut && i >= 30;
            tracker.accept(features(i, picture(second ? 1.3 : 0, i * 0.5, rnd, false)), out);
        }
        tracker.finish(out);
        return starts.subList(1, starts.size());
    }

    @Test
    void aCameraRestartInBlackAndWhiteIsACut() {
        assertThat(found(true)).containsExactly(30L);
    }

    @Test
    void grainAndASlowPanAreNoCut() {
        assertThat(found(false)).isEmpty();
    }

    @Test
    void theFloorOfGreyPicturesIsAThirdOfTheFloorOfColourOnes() {
        Random rnd = new Random(3);
        FrameWindow grey = new FrameWindow(0, List.of(), List.of());
        FrameWindow colour = new FrameWindow(0, List.of(), List.of());
        for (int i = 0; i < 2; i++) {
            grey.add(features(i, picture(i, 0, rnd, false)), null);
            colour.add(features(i, picture(i, 0, rnd, true)), null);
        }
        ShotParams p = ShotParams.defaults();
        assertThat(CutChecks.floor(colour, p, 1)).isEqualTo(p.adaptiveMinContent());
        assertThat(CutChecks.floor(grey, p, 1)).isCloseTo(p.adaptiveMinContent() / 3, org.assertj.core.data.Offset.offset(0.01));
    }
}
