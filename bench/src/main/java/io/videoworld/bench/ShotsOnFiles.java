package io.videoworld.bench;

import io.videoworld.core.Segment;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotTracker;
import io.videoworld.engines.shots.VideoShots;

/**
 * Prints the shots the detector finds in real footage (any video files), for eyeballing
 * against the footage and against PySceneDetect's cut list: {@code bin/videoworld bench shots-on FILE...}.
 * Frames go the way the shot benchmark times them ({@link VideoShots}).
 */
public final class ShotsOnFiles {
    private ShotsOnFiles() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("shots-on", args);
        for (String file : args) {
            StringBuilder shots = new StringBuilder();
            ShotTracker.Output out = ShotTracker.Output.shots(s -> shots.append(String.format("  %7.2f-%7.2f s  %-8s %-8s scene@%d%n",
                    s.startPtsMs() / 1000.0, s.endPtsMs() / 1000.0, s.transitionIn(), s.detector(), s.sceneStartFrame())));
            long t0 = System.nanoTime();
            VideoShots.Run run = VideoShots.detect(file, ShotParams.defaults(), out);
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%s: %d frames at %.2f fps, %dx%d, %.0f frames/s%n%s", file, run.frames(), run.fps(), run.width(), run.height(),
                    run.frames() / secs, shots);
        }
        System.exit(0);
    }
}
