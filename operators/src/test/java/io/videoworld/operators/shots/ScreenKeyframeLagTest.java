package io.videoworld.operators.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A screen keyframe leaves the shot detector within the flash window (three frame intervals) of
 * its frame, even when the screen then stays still: the still frames are dropped as duplicates,
 * but their time passing settles the frames before them. The state is saved and restored after
 * every frame, as Flink does between batches.
 */
class ScreenKeyframeLagTest {
    private static final SourceInfo INFO = new SourceInfo(1, null, null, "png", false, 0, 0, null, null, 1280, 800, 1);

    @Test
    void aSwitchToAStillWindowIsLetGoWithinThreeSeconds() {
        List<Frame> frames = new ArrayList<>();
        for (int s = 0; s < 6; s++) {
            frames.add(ScreenShotsTest.screen(s, ScreenShotsTest.DOC, 0, s, s)); // typing: every frame kept
        }
        for (int s = 6; s < 20; s++) {
            frames.add(ScreenShotsTest.screen(s, ScreenShotsTest.SHEET, 0, 0, s)); // another app, then still
        }
        ShotParams params = ShotParams.defaults();
        Map<Long, Long> letGoAt = new LinkedHashMap<>(); // keyframe pts -> pts of the frame being taken when it left
        List<Long> shotStarts = new ArrayList<>();
        long[] now = {0};
        ShotTracker.Output out = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                if (KeyframeRef.FIRST.equals(k.role()) || KeyframeRef.PERIODIC.equals(k.role())) {
                    letGoAt.putIfAbsent(k.ptsMs(), now[0]);
                }
            }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind())) {
                    shotStarts.add(s.startPtsMs() / 1000);
                }
            }
        };
        ShotTracker tracker = ShotTracker.start(params, 1);
        long duplicates = 0;
        for (Frame f : frames) {
            now[0] = f.ptsMs();
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L, INFO, List.of(f));
            tracker = ShotTracker.restore(params, tracker.state());
            tracker.accept(FeatureExtractor.extract(b, f), out);
            duplicates += tracker.duplicatesDropped();
        }
        assertThat(duplicates).as("the still window's frames are duplicates").isGreaterThanOrEqualTo(10);
        assertThat(letGoAt).as("every kept frame is read (a keyframe a second), before the stream ends")
                .containsKeys(0L, 1000L, 2000L, 3000L, 4000L, 5000L, 6000L);
        letGoAt.forEach((pts, at) -> assertThat(at - pts).as("keyframe at %d ms let go at %d ms", pts, at)
                .isLessThanOrEqualTo(params.flashFrames() * 1000L));
        tracker.finish(out);
        assertThat(shotStarts).as("the app switch is a cut, found as before").containsExactly(0L, 6L);
    }

    @Test
    void aLongShotKeepsThePicturesOfOnlyTheCandidatesThatCanStillBeItsMiddle() {
        ShotParams params = ShotParams.defaults();
        List<Keyframe> middles = new ArrayList<>();
        ShotTracker.Output out = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                if (KeyframeRef.MIDDLE.equals(k.role())) {
                    middles.add(k);
                }
            }

            @Override
            public void segment(Segment s) {}
        };
        ShotTracker tracker = ShotTracker.start(params, 1);
        int seconds = 30;
        for (int s = 0; s < seconds; s++) {
            Frame f = ScreenShotsTest.screen(s, ScreenShotsTest.DOC, 0, s, s); // typing: one shot, every frame kept
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L, INFO, List.of(f));
            tracker = ShotTracker.restore(params, tracker.state());
            tracker.accept(FeatureExtractor.extract(b, f), out);
        }
        ShotState state = tracker.state();
        long withPicture = state.shot().candidates().stream().filter(c -> c.jpeg().length > 0).count();
        assertThat(state.shot().candidates()).hasSizeGreaterThan(10);
        assertThat(withPicture).as("candidates still holding a JPEG").isLessThanOrEqualTo(state.shot().candidates().size() / 2 + 1);
        tracker.finish(out);
        assertThat(middles).hasSize(1);
        assertThat(middles.get(0).jpeg()).as("the middle keyframe has its picture").isNotEmpty();
        assertThat(middles.get(0).ptsMs() / 1000).isBetween(13L, 16L);
    }
}
