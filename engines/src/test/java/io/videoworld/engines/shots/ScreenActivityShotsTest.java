package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.ScreenshotFolderSource;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.testkit.ScreenActivity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Screens rendered by headless Chromium (six applications, scrolling, typing, idle stretches, app
 * switches and returns; {@link ScreenActivity}), pushed as the producer pushes a screenshot
 * folder: shots begin where the application changes and nowhere else, so no shot spans two
 * applications.
 */
class ScreenActivityShotsTest {
    private static final long EPOCH = 1_700_000_000_000L;

    @TempDir
    static Path tmp;

    @Test
    void shotsFollowTheApplicationOnScreen() throws Exception {
        ScreenActivity.Stream desk = ScreenActivity.write(tmp.resolve("desk"), 19, 150, EPOCH);
        List<Segment> shots = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 1);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> shots.add(s));
        try (ScreenshotFolderSource src = new ScreenshotFolderSource(desk.folder(), ScreenshotFolderSource.Order.MTIME, 1, 0,
                new JpegEncoder(1280, 85))) {
            SourceFrame f;
            long i = 0;
            while ((f = src.next()) != null) {
                Frame frame = new Frame(i++, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), f.jpeg(), f.thumb());
                FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, desk.folder().toString(), 0, EPOCH, src.info(), List.of(frame));
                tracker.accept(FeatureExtractor.extract(b, frame), out);
            }
        }
        tracker.finish(out);
        List<Long> starts = shots.stream().map(s -> s.startPtsMs() / 1000).toList();
        List<Long> truth = desk.truth().stream().map(a -> (long) a.start()).toList();
        System.out.println("activities: " + desk.truth());
        System.out.println("shots start at (s): " + starts);
        assertThat(starts).containsExactlyElementsOf(truth);
    }
}
