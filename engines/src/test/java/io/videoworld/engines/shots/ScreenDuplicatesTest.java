package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Point;
import org.bytedeco.opencv.opencv_core.Scalar;
import org.junit.jupiter.api.Test;

/** An idle screen costs nothing: repeated screenshots are dropped before detection. */
class ScreenDuplicatesTest {
    private static final SourceInfo INFO = new SourceInfo(1, null, null, "png", false, 0, 0, null, null, 1280, 720, 1);

    /** App 1: a light document; app 2: a dark code editor. */
    private static Frame screen(long index, int app) {
        int bg = app == 1 ? 245 : 30;
        int ink = app == 1 ? 20 : 220;
        try (Mat img = new Mat(720, 1280, org.bytedeco.opencv.global.opencv_core.CV_8UC3, new Scalar(bg, bg, bg, 0))) {
            for (int line = 0; line < 20; line++) {
                org.bytedeco.opencv.global.opencv_imgproc.putText(img, "app " + app + " line " + line + " lorem ipsum " + (app * 7 + line),
                        new Point(40 + app * 30, 40 + line * 32), 0, 0.9, new Scalar(ink, ink, ink, 0), 2, 8, false);
            }
            SourceFrame f = new JpegEncoder(1280, 85).encode(img, index * 1000, 1_700_000_000_000L + index * 1000);
            return new Frame(index, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), f.jpeg(), f.thumb());
        }
    }

    @Test
    void repeatedScreenshotsAreDroppedAndAnAppSwitchStillCuts() {
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 1);
        List<Segment> shots = new ArrayList<>();
        List<Keyframe> keyframes = new ArrayList<>();
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
        for (long i = 0; i < 12; i++) {
            Frame f = screen(i, i < 6 ? 1 : 2);
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L, INFO, List.of(f));
            tracker.accept(FeatureExtractor.extract(b, f), out);
        }
        tracker.finish(out);
        assertThat(tracker.duplicatesDropped()).isEqualTo(10);
        assertThat(shots).extracting(Segment::startFrame).containsExactly(0L, 6L);
        assertThat(shots.get(1).transitionIn()).isEqualTo("cut");
        assertThat(shots.get(1).endPtsMs()).isEqualTo(12_000);
        assertThat(keyframes).extracting(Keyframe::frameIndex).containsExactly(0L, 6L);
    }
}
