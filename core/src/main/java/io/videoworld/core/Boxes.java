package io.videoworld.core;

/** Box geometry shared by the detector, the tracker and the tools: boxes are (x1, y1, x2, y2). */
public final class Boxes {
    private Boxes() {}

    /** Intersection over union; 0 for disjoint or degenerate boxes. */
    public static double iou(double[] a, double[] b) {
        double w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
        double h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
        if (w <= 0 || h <= 0) {
            return 0;
        }
        double inter = w * h;
        double union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
        return union <= 0 ? 0 : inter / union;
    }
}
