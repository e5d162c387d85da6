package io.videoworld.bench;

import io.videoworld.core.Detection;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.Pose;
import io.videoworld.perception.PoseEstimator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a person-sample costs the person operator: MoveNet Lightning on each person box MB3-CenterNet
 * finds (score >= 0.4) in OpenCV's vtest.avi (pedestrians, sampled at 4 fps, 640 wide JPEG q85 as
 * the producer sends it), one box per call against all boxes of a frame in one batch. Decoding
 * and detection are not timed. Also how many of those poses have a seen torso (shoulder and hip
 * at keypoint confidence 0.3 or more), which a posture needs.
 *
 * <p>Run with {@code bin/videoworld bench pose [SAMPLES]} (default 60 samples).
 */
public final class PoseBench {
    private PoseBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("pose", args);
        int limit = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        Path models = ModelDirectory.locate();
        List<DecodedImage> frames = DetectorSizeBench.samples("vtest.avi");
        frames = frames.subList(0, Math.min(limit, frames.size()));
        List<List<double[]>> boxes = new ArrayList<>();
        try (ObjectDetector detector = ObjectDetector.load(models, "centernet", List.of(), 0, 0.4)) {
            for (DecodedImage f : frames) {
                List<double[]> people = new ArrayList<>();
                for (Detection d : detector.detect(List.of(f)).get(0)) {
                    if ("person".equals(d.category())) {
                        people.add(new double[] {d.x1(), d.y1(), d.x2(), d.y2()});
                    }
                }
                boxes.add(people);
            }
        }
        int people = boxes.stream().mapToInt(List::size).sum();
        System.out.printf("%nvtest.avi: %d samples, %d person boxes (score >= 0.4), %dx%d; ONNX Runtime threads: its default%n",
                frames.size(), people, frames.get(0).width(), frames.get(0).height());
        System.out.println("| how | person-samples | ms / person-sample | ms / frame | torso seen |");
        System.out.println("|---|---:|---:|---:|---:|");
        try (PoseEstimator poses = PoseEstimator.load(models)) {
            for (int i = 0; i < 3; i++) {
                poses.estimate(frames.get(i), boxes.get(i)); // warm-up
            }
            for (boolean batched : new boolean[] {false, true}) {
                int torso = 0;
                long t0 = System.nanoTime();
                for (int i = 0; i < frames.size(); i++) {
                    List<Pose> got = new ArrayList<>();
                    if (batched) {
                        got.addAll(poses.estimate(frames.get(i), boxes.get(i)));
                    } else {
                        for (double[] b : boxes.get(i)) {
                            got.addAll(poses.estimate(frames.get(i), List.of(b)));
                        }
                    }
                    for (Pose p : got) {
                        if (p != null && (p.seen(Pose.LEFT_SHOULDER, 0.3) || p.seen(Pose.RIGHT_SHOULDER, 0.3))
                                && (p.seen(Pose.LEFT_HIP, 0.3) || p.seen(Pose.RIGHT_HIP, 0.3))) {
                            torso++;
                        }
                    }
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                System.out.printf("| %s | %d | %.1f | %.1f | %.0f%% |%n", batched ? "a frame's boxes in one batch" : "one box per call", people,
                        ms / Math.max(1, people), ms / frames.size(), 100.0 * torso / Math.max(1, people));
            }
        }
        System.out.println();
        System.out.println("Timed on this machine with whatever else ran on it; see the load average recorded with the run.");
    }
}
