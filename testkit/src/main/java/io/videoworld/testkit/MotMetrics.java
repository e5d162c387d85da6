package io.videoworld.testkit;

import io.videoworld.core.LinearAssignment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CLEAR-MOT accuracy (MOTA) and identity F1 (IDF1) of tracker output against ground truth, as
 * py-motmetrics computes them: per frame, correspondences still valid (IoU at or above the
 * threshold) are kept, the rest matched by Hungarian on 1 - IoU; an identity switch is a ground
 * truth object matched to a different hypothesis than the last time it was matched. IDF1 matches
 * whole trajectories one-to-one to maximise frames in agreement.
 */
public final class MotMetrics {
    private MotMetrics() {}

    /** A box with an identity (ground truth id or track id), pixels. */
    public record Box(long id, double x1, double y1, double x2, double y2) {}

    /** The scores and the counts behind them. */
    public record Result(long truth, long falsePositives, long misses, long switches, double mota, double idf1, long idtp,
            long hypotheses) {
        @Override
        public String toString() {
            return String.format("MOTA %.3f IDF1 %.3f (GT %d, FP %d, FN %d, IDSW %d)", mota, idf1, truth, falsePositives, misses, switches);
        }
    }

    /** Scores frame-aligned lists (index = frame) of ground truth and hypotheses. */
    public static Result evaluate(List<List<Box>> truth, List<List<Box>> hyp, double iouThreshold) {
        long gt = 0;
        long fp = 0;
        long fn = 0;
        long idsw = 0;
        long hyps = 0;
        Map<Long, Long> current = new HashMap<>();
        Map<Long, Long> lastMatched = new HashMap<>();
        Map<Long, Map<Long, Long>> pairFrames = new HashMap<>();
        Map<Long, Long> gtLength = new HashMap<>();
        Map<Long, Long> hypLength = new HashMap<>();
        for (int f = 0; f < truth.size(); f++) {
            List<Box> g = truth.get(f);
            List<Box> h = f < hyp.size() ? hyp.get(f) : List.of();
            gt += g.size();
            hyps += h.size();
            for (Box b : g) {
                gtLength.merge(b.id(), 1L, Long::sum);
            }
            for (Box b : h) {
                hypLength.merge(b.id(), 1L, Long::sum);
            }
            double[][] iou = new double[g.size()][h.size()];
            for (int i = 0; i < g.size(); i++) {
                for (int j = 0; j < h.size(); j++) {
                    iou[i][j] = iou(g.get(i), h.get(j));
                    if (iou[i][j] >= iouThreshold) {
                        pairFrames.computeIfAbsent(g.get(i).id(), k -> new HashMap<>()).merge(h.get(j).id(), 1L, Long::sum);
                    }
                }
            }
            int[] match = new int[g.size()];
            boolean[] hypUsed = new boolean[h.size()];
            java.util.Arrays.fill(match, -1);
            for (int i = 0; i < g.size(); i++) {
                Long prev = current.get(g.get(i).id());
                for (int j = 0; prev != null && j < h.size(); j++) {
                    if (!hypUsed[j] && h.get(j).id() == prev && iou[i][j] >= iouThreshold) {
                        match[i] = j;
                        hypUsed[j] = true;
                    }
                }
            }
            int[] free = java.util.stream.IntStream.range(0, g.size()).filter(i -> match[i] < 0).toArray();
            int[] freeHyp = java.util.stream.IntStream.range(0, h.size()).filter(j -> !hypUsed[j]).toArray();
            double[][] cost = new double[free.length][freeHyp.length];
            for (int a = 0; a < free.length; a++) {
                for (int b = 0; b < freeHyp.length; b++) {
                    cost[a][b] = 1 - iou[free[a]][freeHyp[b]];
                }
            }
            int[] m = LinearAssignment.solve(cost, 1 - iouThreshold);
            for (int a = 0; a < free.length; a++) {
                if (m[a] >= 0) {
                    match[free[a]] = freeHyp[m[a]];
                    hypUsed[freeHyp[m[a]]] = true;
                }
            }
            current.clear();
            for (int i = 0; i < g.size(); i++) {
                if (match[i] < 0) {
                    fn++;
                    continue;
                }
                long gid = g.get(i).id();
                long hid = h.get(match[i]).id();
                Long before = lastMatched.put(gid, hid);
                if (before != null && before != hid) {
                    idsw++;
                }
                current.put(gid, hid);
            }
            for (boolean used : hypUsed) {
                if (!used) {
                    fp++;
                }
            }
        }
        long idtp = idTruePositives(pairFrames, gtLength, hypLength);
        double mota = gt == 0 ? 0 : 1 - (double) (fn + fp + idsw) / gt;
        double idf1 = gt + hyps == 0 ? 0 : 2.0 * idtp / (gt + hyps);
        return new Result(gt, fp, fn, idsw, mota, idf1, idtp, hyps);
    }

    private static long idTruePositives(Map<Long, Map<Long, Long>> pairFrames, Map<Long, Long> gtLength, Map<Long, Long> hypLength) {
        List<Long> gIds = List.copyOf(gtLength.keySet());
        List<Long> hIds = List.copyOf(hypLength.keySet());
        double[][] cost = new double[gIds.size()][hIds.size()];
        for (int i = 0; i < gIds.size(); i++) {
            Map<Long, Long> row = pairFrames.getOrDefault(gIds.get(i), Map.of());
            for (int j = 0; j < hIds.size(); j++) {
                cost[i][j] = -row.getOrDefault(hIds.get(j), 0L);
            }
        }
        int[] m = LinearAssignment.solve(cost, 0);
        long idtp = 0;
        for (int i = 0; i < m.length; i++) {
            if (m[i] >= 0) {
                idtp += (long) -cost[i][m[i]];
            }
        }
        return idtp;
    }

    static double iou(Box a, Box b) {
        double w = Math.min(a.x2(), b.x2()) - Math.max(a.x1(), b.x1());
        double h = Math.min(a.y2(), b.y2()) - Math.max(a.y1(), b.y1());
        if (w <= 0 || h <= 0) {
            return 0;
        }
        double inter = w * h;
        return inter / ((a.x2() - a.x1()) * (a.y2() - a.y1()) + (b.x2() - b.x1()) * (b.y2() - b.y1()) - inter);
    }
}
