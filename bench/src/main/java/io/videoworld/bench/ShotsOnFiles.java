package io.videoworld.bench;

import io.videoworld.connectors.producer.JpegEncoder;
import io.videoworld.connectors.producer.SourceFrame;
import io.videoworld.connectors.producer.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.operators.shots.FeatureExtractor;
import io.videoworld.operators.shots.ShotParams;
import io.videoworld.operators.shots.ShotTracker;
import java.util.List;

/**
 * Prints the shots the detector finds in real footage (any video files), for eyeballing
 * against the footage and against PySceneDetect's cut list: {@code bin/videoworld bench shots-on FILE...}.
 */
public final class ShotsOnFiles {
    private ShotsOnFiles() {}

    public static void main(String[] args) throws Exception {
        for (String file : args) {
            long frames = 0;
            StringBuilder shots = new StringBuilder();
            try (VideoFrameSource src = new VideoFrameSource(file, 0, new JpegEncoder(640, 85))) {
                ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), src.info().sampleFps());
                ShotTracker.Output out = new ShotTracker.Output() {
                    @Override
                    public void keyframe(Keyframe k) { }

                    @Override
                    public void segment(Segment s) {
                        if (Segment.SHOT.equals(s.kind())) {
                            shots.append(String.format("  %7.2f-%7.2f s  %-8s %-8s scene@%d%n", s.startPtsMs() / 1000.0,
                                    s.endPtsMs() / 1000.0, s.transitionIn(), s.detector(), s.sceneStartFrame()));
                        }
                    }
                };
                SourceFrame f;
                while ((f = src.next()) != null) {
                    Frame frame = new Frame(frames++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb());
                    tracker.accept(FeatureExtractor.extract(new FrameBatch("file", SourceKind.VIDEO, file, 0, 0, src.info(),
                            List.of(frame)), frame), out);
                }
                tracker.finish(out);
                System.out.printf("%s: %d frames at %.2f fps, %dx%d%n%s", file, frames, src.info().fps(), src.info().width(),
                        src.info().height(), shots);
            }
        }
        System.exit(0);
    }
}
