package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.testkit.SyntheticFootage;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.BoundaryEvaluation.Detection;
import io.videoworld.engines.shots.BoundaryEvaluation.Result;
import io.videoworld.engines.shots.BoundaryEvaluation.Truth;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shot detection on generated footage with known cuts, fades and dissolves, and fast pans and
 * flashes that are not transitions, through the real path: MPEG-4 file, FFmpeg decode, JPEG,
 * features, tracker.
 */
class ShotAccuracyTest {
    @TempDir
    static Path tmp;

    private static List<SyntheticFootage.Clip> clips = new ArrayList<>();

    @BeforeAll
    static void generate() throws Exception {
        for (long seed : new long[] {7, 11, 23}) {
            clips.add(SyntheticFootage.write(tmp.resolve("clip-" + seed + ".mp4"), 640, 360, 60, seed));
        }
    }

    static List<Segment> shotsOf(Path video, ShotParams params) throws Exception {
        List<Segment> shots = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(params, 25);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> shots.add(s));
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 0, new JpegEncoder(640, 85))) {
            SourceFrame f;
            long i = 0;
            while ((f = src.next()) != null) {
                Frame frame = new Frame(i++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb());
                FrameBatch b = new FrameBatch("clip", SourceKind.VIDEO, video.toString(), 0, 0, src.info(), List.of(frame));
                tracker.accept(FeatureExtractor.extract(b, frame), out);
            }
        }
        tracker.finish(out);
        return shots;
    }

    static Result evaluate(SyntheticFootage.Clip clip, List<Segment> shots) {
        List<Truth> truths = clip.events().stream().filter(SyntheticFootage.Event::isTransition)
                .map(e -> new Truth(e.kind() != SyntheticFootage.Kind.CUT, e.start(), e.end())).toList();
        List<Detection> found = shots.stream().filter(s -> !"start".equals(s.transitionIn()))
                .map(s -> new Detection(!"cut".equals(s.transitionIn()), s.startPtsMs() / 1000.0)).toList();
        return BoundaryEvaluation.evaluate(truths, found, 0.1);
    }

    @Test
    void cutsAreFoundWithPrecisionAndRecallOfAtLeast95PercentAndGradualOnesOf80() throws Exception {
        List<Truth> allTruth = new ArrayList<>();
        List<Detection> allFound = new ArrayList<>();
        double offset = 0;
        for (SyntheticFootage.Clip clip : clips) {
            List<Segment> shots = shotsOf(clip.file(), ShotParams.defaults());
            Result r = evaluate(clip, shots);
            System.out.println(clip.file().getFileName() + ": cuts " + r.cuts() + ", gradual " + r.gradual());
            for (var e : clip.events()) {
                if (e.isTransition()) {
                    allTruth.add(new Truth(e.kind() != SyntheticFootage.Kind.CUT, e.start() + offset, e.end() + offset));
                }
            }
            for (Segment s : shots) {
                if (!"start".equals(s.transitionIn())) {
                    allFound.add(new Detection(!"cut".equals(s.transitionIn()), s.startPtsMs() / 1000.0 + offset));
                }
            }
            offset += 1000;
        }
        Result total = BoundaryEvaluation.evaluate(allTruth, allFound, 0.1);
        System.out.println("all clips: cuts " + total.cuts() + ", gradual " + total.gradual());
        assertThat(total.cuts().truths()).isGreaterThan(20);
        assertThat(total.gradual().truths()).isGreaterThan(8);
        assertThat(total.cuts().precision()).isGreaterThanOrEqualTo(0.95);
        assertThat(total.cuts().recall()).isGreaterThanOrEqualTo(0.95);
        assertThat(total.gradual().precision()).isGreaterThanOrEqualTo(0.8);
        assertThat(total.gradual().recall()).isGreaterThanOrEqualTo(0.8);
    }
}
