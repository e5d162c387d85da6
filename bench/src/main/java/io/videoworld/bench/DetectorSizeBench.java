package io.videoworld.bench;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Boxes;
import io.videoworld.core.Detection;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CenterNet's input side: time per sample and what is lost against the side it was trained at
 * (512), on the tracking footage (OpenCV's vtest.avi, pedestrians, 640x480) and Megamind.avi
 * (people, 720x528), both sampled at 4 fps and encoded 640 wide, JPEG q85, as the producer sends them. Recall is the share
 * of the 512 run's boxes (score >= T) that a box of the same label and score >= T of the other
 * side matches at IoU 0.5; precision the share of the other side's boxes matched by a 512 box.
 * Both at T = 0.3 (weak boxes) and 0.4 (the tracker's high score). Sides are timed one after the
 * other, each after a warm-up, on the same decoded frames; decode is not timed.
 *
 * <p>Run with {@code bin/videoworld bench detector [SIDES...]} (default 512 448 384 320 256).
 */
public final class DetectorSizeBench {
    private DetectorSizeBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("detector", args);
        List<Integer> sides = new ArrayList<>();
        for (String a : args) {
            sides.add(Integer.parseInt(a));
        }
        if (sides.isEmpty()) {
            sides.addAll(List.of(512, 448, 384, 320, 256));
        }
        if (!sides.contains(512)) {
            sides.add(0, 512);
        }
        Path models = ModelDirectory.locate();
        for (String clip : List.of("vtest.avi", "Megamind.avi")) {
            List<DecodedImage> samples = samples(clip);
            List<List<Detection>> reference = null;
            System.out.printf("%n%s: %d samples at 4 fps, %dx%d; ONNX Runtime threads: its default (one per core)%n",
                    clip, samples.size(), samples.get(0).width(), samples.get(0).height());
            System.out.println("| side | ms / sample | vs 512 | boxes >= 0.3 | recall / precision vs 512 (>= 0.3) | recall / precision vs 512 (>= 0.4) | box checksum |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
            double ms512 = 0;
            for (int side : sides) {
                List<List<Detection>> found = new ArrayList<>();
                double ms;
                try (ObjectDetector detector = ObjectDetector.load(models, "centernet", List.of(), side, 0.1)) {
                    for (int i = 0; i < 3; i++) {
                        detector.detect(List.of(samples.get(i))); // warm-up
                    }
                    long t0 = System.nanoTime();
                    for (DecodedImage img : samples) {
                        found.add(detector.detect(List.of(img)).get(0));
                    }
                    ms = (System.nanoTime() - t0) / 1e6 / samples.size();
                }
                if (side == 512) {
                    reference = found;
                    ms512 = ms;
                }
                long boxes = found.stream().mapToLong(l -> l.stream().filter(d -> d.score() >= 0.3).count()).sum();
                // Sum of score-weighted corners: equal for two models (or runs) that give the same boxes.
                double checksum = found.stream().flatMap(List::stream).mapToDouble(d -> d.score() * (d.x1() + d.y1() + d.x2() + d.y2())).sum();
                System.out.printf("| %d | %.1f | %.2fx | %d | %.3f / %.3f | %.3f / %.3f | %.3f |%n", side, ms, ms / ms512, boxes,
                        matched(reference, found, 0.3), matched(found, reference, 0.3), matched(reference, found, 0.4), matched(found, reference, 0.4),
                        checksum);
            }
        }
    }

    static List<DecodedImage> samples(String clip) throws Exception {
        List<DecodedImage> out = new ArrayList<>();
        try (VideoFrameSource src = new VideoFrameSource(ModelDirectory.samples().resolve(clip).toString(), 4, new JpegEncoder(640, 85))) {
            SourceFrame f;
            while ((f = src.next()) != null) {
                out.add(DecodedImage.decode(f.jpeg()));
            }
        }
        return out;
    }

    /** Share of {@code reference}'s boxes (score >= floor) matched one to one by a box of {@code other} of the same label at IoU 0.5. */
    static double matched(List<List<Detection>> reference, List<List<Detection>> other, double floor) {
        int hit = 0;
        int all = 0;
        for (int i = 0; i < reference.size(); i++) {
            List<Detection> pool = new ArrayList<>(other.get(i).stream().filter(d -> d.score() >= floor).toList());
            for (Detection d : reference.get(i)) {
                if (d.score() < floor) {
                    continue;
                }
                all++;
                Detection best = null;
                double bestIou = 0.5;
                for (Detection g : pool) {
                    double iou = Boxes.iou(box(d), box(g));
                    if (g.category().equals(d.category()) && iou >= bestIou) {
                        best = g;
                        bestIou = iou;
                    }
                }
                if (best != null) {
                    pool.remove(best);
                    hit++;
                }
            }
        }
        return all == 0 ? 1 : (double) hit / all;
    }

    private static double[] box(Detection d) {
        return new double[] {d.x1(), d.y1(), d.x2(), d.y2()};
    }
}
