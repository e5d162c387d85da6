package io.videoworld.engines.tracking;

import io.videoworld.core.Boxes;
import io.videoworld.core.Detection;
import io.videoworld.core.Vectors;
import java.util.ArrayList;
import java.util.List;

/**
 * The cost matrices {@link ByteTracker} hands to the linear assignment, and the running appearance
 * each track keeps. Kept apart from the tracker so its update reads as ByteTrack's four steps.
 */
final class AssociationCosts {
    private AssociationCosts() {}

    /**
     * 1 - IoU (fused with the detection score when {@code fuseScore}, as ByteTrack's first step does);
     * 1 (no match) across categories, or where both appearances exist and their cosine distance
     * exceeds {@code gate} (a gate of 1 or more turns the appearance check off).
     */
    static double[][] iou(List<LiveTrack> ts, List<Detection> ds, boolean fuseScore, double gate) {
        double[][] c = new double[ts.size()][ds.size()];
        for (int i = 0; i < ts.size(); i++) {
            double[] b = ts.get(i).box();
            float[] a = ts.get(i).appearance;
            for (int j = 0; j < ds.size(); j++) {
                Detection d = ds.get(j);
                if (!ts.get(i).category.equals(d.category())
                        || gate < 1 && a != null && d.appearance() != null && 1 - Vectors.cosine(a, d.appearance()) > gate) {
                    c[i][j] = 1;
                    continue;
                }
                double iou = Boxes.iou(b, new double[] {d.x1(), d.y1(), d.x2(), d.y2()});
                c[i][j] = 1 - (fuseScore ? iou * d.score() : iou);
            }
        }
        return c;
    }

    /** Cosine distance of appearances for re-identification; 2 (never matched) across categories or without an appearance. */
    static double[][] appearance(List<LiveTrack> ts, List<Detection> ds) {
        double[][] c = new double[ts.size()][ds.size()];
        for (int i = 0; i < ts.size(); i++) {
            LiveTrack l = ts.get(i);
            for (int j = 0; j < ds.size(); j++) {
                Detection d = ds.get(j);
                c[i][j] = d.appearance() == null || !l.category.equals(d.category()) ? 2 : 1 - Vectors.cosine(l.appearance, d.appearance());
            }
        }
        return c;
    }

    /** The detections whose flag is not set, in order. */
    static List<Detection> unused(List<Detection> ds, boolean[] used) {
        List<Detection> out = new ArrayList<>();
        for (int j = 0; j < ds.size(); j++) {
            if (!used[j]) {
                out.add(ds.get(j));
            }
        }
        return out;
    }

    /** A track's appearance moves slowly towards each new high-score sighting (0.9 old + 0.1 new, unit length). */
    static float[] blend(float[] old, float[] now) {
        float[] out = new float[old.length];
        double norm = 0;
        for (int i = 0; i < old.length; i++) {
            out[i] = 0.9f * old[i] + 0.1f * now[i];
            norm += out[i] * out[i];
        }
        float inv = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < out.length; i++) {
            out[i] *= inv;
        }
        return out;
    }
}
