package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sampled at 5 fps (as the tools tests push), a clip with one cut has two shots: too few frames for a mix is no mix. */
class LowFrameRateShotsTest {
    @TempDir
    Path tmp;

    @Test
    void aCutSampledAtFiveFramesASecondIsTheOnlyBoundary() throws Exception {
        Path video = tmp.resolve("ferry.mp4");
        SampleVideo.write(video, 640, 360, 25, 4.0, List.of(2.0));
        List<Long> starts = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 5);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> starts.add(s.startPtsMs()));
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 5, new JpegEncoder(640, 85))) {
            SourceFrame f;
            long i = 0;
            while ((f = src.next()) != null) {
                Frame frame = new Frame(i++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb());
                FrameBatch b = new FrameBatch("ferry", SourceKind.VIDEO, video.toString(), 0, 0, src.info(), List.of(frame));
                tracker.accept(FeatureExtractor.extract(b, frame), out);
            }
        }
        tracker.finish(out);
        assertThat(starts).containsExactly(0L, 2000L);
    }
}
