package io.videoworld.engines.shots;

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
 * A screen keyframe leaves the shot detector with its own frame when nothing after it could make
 * it a cut, and otherwise within the flash window (three frame intervals) of its frame, even when
 * the screen then stays still: the still frames are dropped as duplicates,
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
        for (long pts = 0; pts < 6000; pts += 1000) {
            assertThat(letGoAt.get(pts)).as("typing (no change that could cut) is let go with its own frame at %d ms", pts).isEqualTo(pts);
        }
        assertThat(letGoAt.get(6000L)).as("the switch waits out its flash window").isEqualTo(6000L + params.flashFrames() * 1000L);
        tracker.finish(out);
        assertThat(shotStarts).as("the app switch is a cut, found as before").containsExactly(0L, 6L);
    }

    @Test
    void aLongShotKeepsThePicturesOfOnlyTheCandidatesThatCanStillBeItsMiddle() {
        ShotParams d = ShotParams.defaults();
        // Keyframes every 4 s, so the middle is a frame no periodic keyframe took and is sent on its own.
        ShotParams params = new ShotParams(d.detectors(), d.contentThreshold(), d.adaptiveRatio(), d.adaptiveMinContent(), d.adaptiveWindow(),
                d.fadeFloor(), d.dissolveWindowSec(), d.dissolveThreshold(), d.dissolveMaxStep(), d.flashFrames(), d.minShotSec(),
                d.keyframeEverySec(), 4.0, d.sceneThreshold(), d.screenDuplicateBits());
        Typing run = typeFor(30, params);
        long withPicture = run.state.shot().candidates().stream().filter(c -> c.jpeg().length > 0).count();
        assertThat(run.state.shot().candidates()).hasSizeGreaterThan(10);
        assertThat(withPicture).as("candidates still holding a JPEG").isLessThanOrEqualTo(run.state.shot().candidates().size() / 2 + 1);
        List<Keyframe> middles = run.sent.stream().filter(k -> KeyframeRef.MIDDLE.equals(k.role())).toList();
        assertThat(middles).hasSize(1);
        assertThat(middles.get(0).jpeg()).as("the middle keyframe has its picture").isNotEmpty();
        assertThat(middles.get(0).ptsMs() / 1000).isBetween(13L, 16L);
        assertThat(middles.get(0).ptsMs() % 4000).as("not a periodic keyframe's frame").isNotZero();
    }

    @Test
    void aMiddleOrLastFrameAlreadySentAsAPeriodicKeyframeIsNamedInTheShotButNotSentAgain() {
        // Default screens: a keyframe a second, so every kept frame was sent as it came.
        Typing run = typeFor(30, ShotParams.defaults());
        assertThat(run.sent).extracting(Keyframe::frameIndex).as("each frame sent once").doesNotHaveDuplicates().hasSize(30);
        assertThat(run.sent).extracting(Keyframe::role).containsOnly(KeyframeRef.FIRST, KeyframeRef.PERIODIC);
        assertThat(run.shots).hasSize(1);
        List<KeyframeRef> refs = run.shots.get(0).keyframes();
        assertThat(refs).filteredOn(r -> KeyframeRef.MIDDLE.equals(r.role())).singleElement()
                .satisfies(r -> assertThat(r.ptsMs() / 1000).isBetween(13L, 16L));
        assertThat(refs).filteredOn(r -> KeyframeRef.LAST.equals(r.role())).singleElement()
                .satisfies(r -> assertThat(r.frameIndex()).isEqualTo(29));
    }

    /** What a screen typing in one document for {@code seconds} (every frame kept, one shot) sends, with the state before the end. */
    private record Typing(List<Keyframe> sent, List<Segment> shots, ShotState state) {}

    private static Typing typeFor(int seconds, ShotParams params) {
        List<Keyframe> sent = new ArrayList<>();
        List<Segment> shots = new ArrayList<>();
        ShotTracker.Output out = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                sent.add(k);
            }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind())) {
                    shots.add(s);
                }
            }
        };
        ShotTracker tracker = ShotTracker.start(params, 1);
        for (int s = 0; s < seconds; s++) {
            Frame f = ScreenShotsTest.screen(s, ScreenShotsTest.DOC, 0, s, s); // typing: one shot, every frame kept
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L, INFO, List.of(f));
            tracker = ShotTracker.restore(params, tracker.state());
            tracker.accept(FeatureExtractor.extract(b, f), out);
        }
        ShotState state = tracker.state();
        tracker.finish(out);
        return new Typing(sent, shots, state);
    }
}
