package io.videoworld.testkit;

import io.videoworld.core.Vectors;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Multi-object sequences with ground truth, written to exercise what trackers get wrong: people
 * walking across each other in both directions (the nearer one hides the farther one, whose
 * detection then drops to a low score or vanishes), a pillar that hides everyone passing behind
 * it, random missed detections, box jitter, false positives at all scores, objects entering and
 * leaving, and optionally a shot cut after which the same people are seen from the other side
 * (mirrored positions, same colours). Every object carries a colour histogram with per-frame
 * noise, as the detector's crops would.
 */
public final class SyntheticTracks {
    private SyntheticTracks() {}

    /**
     * Generator settings.
     *
     * @param frames sequence length
     * @param objects people in the scene over the sequence
     * @param missRate chance a visible object's detection is dropped
     * @param falsePositives mean false detections per frame
     * @param jitterPx standard deviation of box edge noise
     * @param cutAt frame of a shot cut to the mirrored view; -1 for none
     * @param seed random seed
     */
    public record Config(int frames, int objects, double missRate, double falsePositives, double jitterPx, int cutAt, long seed) {
        public static Config standard(long seed) {
            return new Config(600, 12, 0.05, 1.0, 2.0, -1, seed);
        }
    }

    /** Detector output per frame (as the tracker gets it) and ground truth per frame. */
    public record Sequence(int width, int height, List<DetectedFrame> frames, List<List<MotMetrics.Box>> truth) {}

    public static final int WIDTH = 1280;
    public static final int HEIGHT = 720;
    private static final double PILLAR_X1 = 600;
    private static final double PILLAR_X2 = 660;

    private record Walker(int id, double x, double y, double vx, double vy, double w, double h, int enter, float[] colour) {
        double[] box(int frame) {
            double t = frame - enter;
            double cx = x + vx * t;
            double cy = y + vy * t;
            return new double[] {cx - w / 2, cy - h, cx + w / 2, cy};
        }
    }

    public static Sequence generate(Config c) {
        Random r = new Random(c.seed());
        List<Walker> walkers = new ArrayList<>();
        for (int i = 0; i < c.objects(); i++) {
            boolean rightward = i % 2 == 0;
            double depth = 0.5 + 0.5 * r.nextDouble();
            double h = 120 + 160 * depth;
            double w = h * (0.35 + 0.1 * r.nextDouble());
            double speed = (2 + 4 * r.nextDouble()) * (rightward ? 1 : -1);
            double startX = rightward ? -w / 2 + 10 : WIDTH + w / 2 - 10;
            double footY = 380 + 300 * depth;
            int enter = (int) (r.nextDouble() * c.frames() * 0.6);
            walkers.add(new Walker(i + 1, startX, footY, speed, (r.nextDouble() - 0.5) * 0.4, w, h, enter, colour(r)));
        }
        List<DetectedFrame> frames = new ArrayList<>();
        List<List<MotMetrics.Box>> truth = new ArrayList<>();
        float[] sceneA = colour(r);
        float[] sceneB = colour(r);
        for (int f = 0; f < c.frames(); f++) {
            boolean mirrored = c.cutAt() >= 0 && f >= c.cutAt();
            List<double[]> boxes = new ArrayList<>();
            List<Walker> present = new ArrayList<>();
            for (Walker wk : walkers) {
                if (f < wk.enter()) {
                    continue;
                }
                double[] b = wk.box(f);
                if (mirrored) {
                    b = new double[] {WIDTH - b[2], b[1], WIDTH - b[0], b[3]};
                }
                double visibleW = Math.min(b[2], WIDTH) - Math.max(b[0], 0);
                if (visibleW < 0.5 * (b[2] - b[0])) {
                    continue;
                }
                boxes.add(new double[] {Math.max(0, b[0]), Math.max(0, b[1]), Math.min(WIDTH, b[2]), Math.min(HEIGHT, b[3])});
                present.add(wk);
            }
            List<MotMetrics.Box> gt = new ArrayList<>();
            List<Detection> dets = new ArrayList<>();
            for (int i = 0; i < present.size(); i++) {
                double[] b = boxes.get(i);
                gt.add(new MotMetrics.Box(present.get(i).id(), b[0], b[1], b[2], b[3]));
                double occlusion = 0;
                for (int j = 0; j < present.size(); j++) {
                    double[] o = boxes.get(j);
                    if (j != i && o[3] > b[3]) {
                        occlusion = Math.max(occlusion, overlapOf(b, o));
                    }
                }
                double cx = (b[0] + b[2]) / 2;
                boolean behindPillar = cx > PILLAR_X1 && cx < PILLAR_X2;
                if (behindPillar || occlusion > 0.7 || r.nextDouble() < c.missRate()) {
                    continue;
                }
                double score = occlusion > 0.3 ? 0.15 + 0.3 * r.nextDouble() : 0.6 + 0.35 * r.nextDouble();
                if (occlusion > 0.3 && r.nextDouble() < 0.3) {
                    continue;
                }
                dets.add(new Detection("person", score, b[0] + r.nextGaussian() * c.jitterPx(), b[1] + r.nextGaussian() * c.jitterPx(),
                        b[2] + r.nextGaussian() * c.jitterPx(), b[3] + r.nextGaussian() * c.jitterPx(), noisy(present.get(i).colour(), r)));
            }
            int fps = poisson(r, c.falsePositives());
            for (int k = 0; k < fps; k++) {
                double w = 40 + 80 * r.nextDouble();
                double h = w * (1.5 + r.nextDouble());
                double x = r.nextDouble() * (WIDTH - w);
                double y = r.nextDouble() * (HEIGHT - h);
                double score = r.nextDouble() < 0.8 ? 0.1 + 0.4 * r.nextDouble() : 0.5 + 0.2 * r.nextDouble();
                dets.add(new Detection("person", score, x, y, x + w, y + h, colour(r)));
            }
            dets.sort(Comparator.comparingDouble(Detection::score).reversed());
            long pts = Math.round(f * 1000.0 / 30);
            frames.add(new DetectedFrame("synthetic", 1L, f, pts, 1_700_000_000_000L + pts, WIDTH, HEIGHT, f == c.frames() - 1,
                    dets, mirrored ? sceneB : sceneA, "cpu"));
            truth.add(gt);
        }
        return new Sequence(WIDTH, HEIGHT, frames, truth);
    }

    /** Fraction of box a covered by box b. */
    private static double overlapOf(double[] a, double[] b) {
        double w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
        double h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
        return w <= 0 || h <= 0 ? 0 : w * h / ((a[2] - a[0]) * (a[3] - a[1]));
    }

    private static float[] colour(Random r) {
        float[] v = new float[128];
        for (int k = 0; k < 6; k++) {
            v[r.nextInt(v.length)] += (float) (0.2 + r.nextDouble());
        }
        return Vectors.unit(v);
    }

    private static float[] noisy(float[] base, Random r) {
        float[] v = base.clone();
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.max(0, v[i] + (float) (r.nextGaussian() * 0.02));
        }
        return Vectors.unit(v);
    }

    private static int poisson(Random r, double mean) {
        double l = Math.exp(-mean);
        double p = 1;
        int k = 0;
        do {
            k++;
            p *= r.nextDouble();
        } while (p > l);
        return k - 1;
    }
}
