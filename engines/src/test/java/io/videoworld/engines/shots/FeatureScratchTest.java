package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Features reuse one thread's native buffers from frame to frame: a frame's features do not
 * depend on the frames computed before it on that thread (other sizes, a JPEG, a wider picture
 * that is shrunk) and equal those a fresh thread computes.
 */
class FeatureScratchTest {

    private static FrameFeatures of(byte[] bgr, int w, int h) {
        return FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "test", 0, 0, w, h, bgr, w, h);
    }

    private static void assertEqual(FrameFeatures x, FrameFeatures y) {
        assertThat(x.hsv()).isEqualTo(y.hsv());
        assertThat(x.hist()).containsExactly(y.hist());
        assertThat(x.luma()).isEqualTo(y.luma());
        assertThat(x.dhash()).isEqualTo(y.dhash());
        assertThat(x.featureHeight()).isEqualTo(y.featureHeight());
    }

    @Test
    void featuresDoNotDependOnTheFramesBefore() throws Exception {
        byte[] a = BlendModelTest.scene(1, 80);
        byte[] b = BlendModelTest.scene(2, 80);
        byte[] wide = BlendModelTest.scene(3, 240);
        FrameFeatures fresh = CompletableFuture.supplyAsync(() -> of(a, 80, 48)).get();

        FrameFeatures first = of(a, 80, 48);
        FrameFeatures other = of(b, 80, 48);
        FrameFeatures shrunk = of(wide, 240, 48);
        FrameFeatures tall = of(BlendModelTest.scene(4, 80 * 3), 80, 144);
        FrameFeatures again = of(a, 80, 48);

        assertEqual(first, fresh);
        assertEqual(again, fresh);
        assertThat(other.hsv()).isNotEqualTo(first.hsv());
        assertThat(shrunk.featureHeight()).isEqualTo(16);
        assertThat(tall.featureHeight()).isEqualTo(144);
        // The frame before does not leak into the next one's pixels.
        assertThat(of(b, 80, 48).hsv()).isEqualTo(other.hsv());
    }
}
