package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * A fade through black is one boundary at the middle of the black (issue 12 item 1: within 0.3 s
 * of the true middle), whether the picture ramps into the black or is cut into and out of it; the
 * next shot's first keyframe is its first lit frame, not a black one. Synthetic pictures at 25
 * frames a second.
 */
class FadeThroughBlackTest {
    private static final int W = 80;
    private static final int H = 60;
    private static final double FPS = 25;

    /** One of two colourful scenes, panning slowly, its light scaled by {@code gain}. */
    private static byte[] scene(int which, int frame, double gain) {
        byte[] bgr = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int u = x + frame;
                int i = (y * W + x) * 3;
                int b = which == 0 ? 40 + (u * 3) % 120 : 200 - y * 2;
                int g = which == 0 ? 60 + y * 2 : 150 + (u % 30);
                int r = which == 0 ? ((u / 20) % 2 == 0 ? 200 : 90) : 50 + (y / 10) * 20;
                bgr[i] = (byte) Math.round(gain * b);
                bgr[i + 1] = (byte) Math.round(gain * g);
                bgr[i + 2] = (byte) Math.round(gain * r);
            }
        }
        return bgr;
    }

    private record Run(List<Segment> shots, Map<Long, FrameFeatures> frames, List<Keyframe> keyframes) {}

    /** Scene 0 until {@code blackFrom}, black (gain 0 and the ramps given by {@code gain}) and scene 1 after. */
    private static Run run(int frames, int blackFrom, IntToDoubleFunction gain) {
        List<Segment> shots = new ArrayList<>();
        List<Keyframe> keyframes = new ArrayList<>();
        Map<Long, FrameFeatures> byIndex = new HashMap<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), FPS);
        ShotTracker.Output out = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                keyframes.add(k);
            }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind())) {
                    shots.add(s);
                }
            }
        };
        for (int i = 0; i < frames; i++) {
            long pts = Math.round(i * 1000 / FPS);
            FrameFeatures f = FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "synthetic", i, pts, W, H,
                    scene(i < blackFrom ? 0 : 1, i, gain.applyAsDouble(i)), W, H);
            byIndex.put((long) i, f);
            tracker.accept(f, out);
        }
        tracker.finish(out);
        return new Run(shots, byIndex, keyframes);
    }

    private static void assertOneFadeAtTheMiddle(Run run, double middleSec) {
        assertThat(run.shots()).hasSize(2);
        Segment second = run.shots().get(1);
        assertThat(second.transitionIn()).isEqualTo(ShotParams.FADE);
        assertThat(second.startPtsMs() / 1000.0).as("boundary vs the middle of the black at %.2f s", middleSec)
                .isCloseTo(middleSec, org.assertj.core.data.Offset.offset(0.3));
        for (Segment shot : run.shots()) {
            KeyframeRef first = shot.keyframes().stream().filter(k -> KeyframeRef.FIRST.equals(k.role())).findFirst().orElseThrow();
            assertThat(run.frames().get(first.frameIndex()).luma()).as("first keyframe of the shot at %d ms is lit", shot.startPtsMs())
                    .isGreaterThanOrEqualTo(ShotParams.defaults().fadeFloor());
            assertThat(first.frameIndex()).isBetween(shot.startFrame(), shot.endFrame() - 1);
            assertThat(run.keyframes()).anyMatch(k -> k.frameIndex() == first.frameIndex() && KeyframeRef.FIRST.equals(k.role()));
        }
    }

    @Test
    void aFadeOutAndInIsOneBoundaryInTheMiddleOfTheBlack() {
        // 0-74 scene 0; 75-84 ramp down; 85-114 black (1.2 s); 115-124 ramp up into scene 1; then 3 s of it.
        Run run = run(200, 100, i -> i < 75 ? 1.0 : i < 85 ? (85 - i) / 10.0 : i < 115 ? 0.0 : i < 125 ? (i - 114) / 10.0 : 1.0);
        assertOneFadeAtTheMiddle(run, 100 / FPS);
    }

    @Test
    void aCutIntoBlackAndOutOfItIsOneBoundaryInTheMiddle() {
        // 0-79 scene 0; 80-109 black (1.2 s, long enough for two shots); 110- scene 1.
        Run run = run(190, 95, i -> i >= 80 && i < 110 ? 0.0 : 1.0);
        assertOneFadeAtTheMiddle(run, 95 / FPS);
    }
}
