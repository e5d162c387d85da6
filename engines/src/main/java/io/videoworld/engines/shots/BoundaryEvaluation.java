package io.videoworld.engines.shots;

import java.util.ArrayList;
import java.util.List;

/**
 * Precision and recall of detected shot boundaries against ground truth, separately for hard
 * cuts and gradual transitions (fades and dissolves). A true transition is found by the nearest
 * unused detection inside its interval widened by a tolerance; a detection counts toward the
 * precision of its own class (a dissolve reported for a cut is a gradual false positive and a
 * missed cut).
 */
public final class BoundaryEvaluation {
    /** A true transition in seconds; {@code gradual} for fades and dissolves. */
    public record Truth(boolean gradual, double start, double end) {}

    /** A detected boundary: the first frame's time of the new shot and whether it was called gradual. */
    public record Detection(boolean gradual, double time) {}

    /** Counts for one class. */
    public record Score(int truths, int detections, int found, int correctDetections) {
        public double precision() {
            return detections == 0 ? 1 : (double) correctDetections / detections;
        }

        public double recall() {
            return truths == 0 ? 1 : (double) found / truths;
        }

        public double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        @Override
        public String toString() {
            return String.format("P=%.3f R=%.3f F1=%.3f (%d true, %d detected)", precision(), recall(), f1(), truths, detections);
        }
    }

    /** Scores for cuts and for gradual transitions. */
    public record Result(Score cuts, Score gradual, Score all) {}

    private BoundaryEvaluation() {}

    public static Result evaluate(List<Truth> truths, List<Detection> detections, double tolerance) {
        boolean[] used = new boolean[detections.size()];
        int[] foundByClass = new int[2];
        boolean[] correct = new boolean[detections.size()];
        int[] foundClassAgnostic = {0};
        for (Truth t : truths) {
            int best = -1;
            double bestDist = Double.MAX_VALUE;
            for (int i = 0; i < detections.size(); i++) {
                Detection d = detections.get(i);
                if (used[i] || d.time() < t.start() - tolerance || d.time() > t.end() + tolerance) {
                    continue;
                }
                double dist = Math.abs(d.time() - (t.start() + t.end()) / 2);
                if (dist < bestDist) {
                    bestDist = dist;
                    best = i;
                }
            }
            if (best >= 0) {
                used[best] = true;
                foundClassAgnostic[0]++;
                if (detections.get(best).gradual() == t.gradual()) {
                    correct[best] = true;
                    foundByClass[t.gradual() ? 1 : 0]++;
                }
            }
        }
        return new Result(score(truths, detections, correct, foundByClass[0], false),
                score(truths, detections, correct, foundByClass[1], true),
                new Score(truths.size(), detections.size(), foundClassAgnostic[0], count(used)));
    }

    private static Score score(List<Truth> truths, List<Detection> detections, boolean[] correct, int found, boolean gradual) {
        int n = (int) truths.stream().filter(t -> t.gradual() == gradual).count();
        List<Integer> mine = new ArrayList<>();
        for (int i = 0; i < detections.size(); i++) {
            if (detections.get(i).gradual() == gradual) {
                mine.add(i);
            }
        }
        int ok = (int) mine.stream().filter(i -> correct[i]).count();
        return new Score(n, mine.size(), found, ok);
    }

    private static int count(boolean[] b) {
        int n = 0;
        for (boolean x : b) {
            n += x ? 1 : 0;
        }
        return n;
    }
}
