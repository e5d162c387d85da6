package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With screen keyframes sparser than every second, a screen that changes wholesale inside one shot
 * (another page under the same chrome) is read at the second it changed, even when it then stays
 * still (still screens are dropped as duplicates, so no later frame would bring the periodic
 * keyframe); typing does not add keyframes.
 */
class ScreenKeyframesTest {
    private static List<Long> timelyKeyframes(List<Frame> frames, double everySec) {
        ShotParams d = ShotParams.defaults();
        ShotParams params = new ShotParams(d.detectors(), d.contentThreshold(), d.adaptiveRatio(), d.adaptiveMinContent(), d.adaptiveWindow(),
                d.fadeFloor(), d.dissolveWindowSec(), d.dissolveThreshold(), d.dissolveMaxStep(), d.flashFrames(), d.minShotSec(),
                d.keyframeEverySec(), everySec, d.sceneThreshold(), d.screenDuplicateBits());
        ShotTracker tracker = ShotTracker.start(params, 1);
        List<Long> out = new ArrayList<>();
        List<Long> shots = new ArrayList<>();
        ShotTracker.Output o = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                if (KeyframeRef.FIRST.equals(k.role()) || KeyframeRef.PERIODIC.equals(k.role())) {
                    out.add(k.ptsMs() / 1000);
                }
            }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind())) {
                    shots.add(s.startPtsMs() / 1000);
                }
            }
        };
        for (Frame f : frames) {
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L,
                    new io.videoworld.core.SourceInfo(1, null, null, "png", false, 0, 0, null, null, 1280, 800, 1), List.of(f));
            tracker.accept(FeatureExtractor.extract(b, f), o);
        }
        tracker.finish(o);
        assertThat(shots).as("one shot: the page changed under the same chrome").containsExactly(0L);
        return out;
    }

    @Test
    void aPageChangedJustBeforeTheNextPeriodicKeyframeIsReadAtOnce() {
        List<Frame> frames = new ArrayList<>();
        // 0-5 s: a document typed into; 6 s: another part of it (a long jump), then still until 20 s.
        for (int s = 0; s < 6; s++) {
            frames.add(ScreenShotsTest.screen(s, ScreenShotsTest.DOC, 0, s, s));
        }
        for (int s = 6; s < 20; s++) {
            frames.add(ScreenShotsTest.screen(s, ScreenShotsTest.DOC, 17 + 34 * 9, 5, s));
        }
        assertThat(timelyKeyframes(frames, 4)).containsExactly(0L, 4L, 6L);
    }
}
