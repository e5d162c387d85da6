package io.videoworld.query.perception;

import io.videoworld.connectors.esread.ObjectRepository.Point;
import java.util.List;

/** How a tracked object moved over a run of its points: speed (in box heights or pixels per second) and a path in words. */
public final class TrackMotion {
    private TrackMotion() {}

    /** Centre speed over a run of points, in box heights per second (size-independent, so near and far people compare). */
    public static double heightsPerSecond(List<Point> pts) {
        if (pts.size() < 2) {
            return 0;
        }
        double dist = 0;
        double heights = 0;
        for (int i = 1; i < pts.size(); i++) {
            double[] a = pts.get(i - 1).bboxPixels().length == 4 ? ObjectGeometry.toD(pts.get(i - 1).bboxPixels()) : pts.get(i - 1).bbox();
            double[] b = pts.get(i).bboxPixels().length == 4 ? ObjectGeometry.toD(pts.get(i).bboxPixels()) : pts.get(i).bbox();
            dist += Math.hypot((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2, (a[1] + a[3]) / 2 - (b[1] + b[3]) / 2);
            heights += (b[3] - b[1]);
        }
        double seconds = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
        double meanHeight = heights / (pts.size() - 1);
        return seconds <= 0 || meanHeight <= 0 ? 0 : dist / seconds / meanHeight;
    }

    /** Centre speed in pixels per second. */
    public static double pixelsPerSecond(List<Point> pts) {
        if (pts.size() < 2) {
            return 0;
        }
        double dist = 0;
        for (int i = 1; i < pts.size(); i++) {
            double[] a = ObjectGeometry.toD(pts.get(i - 1).bboxPixels());
            double[] b = ObjectGeometry.toD(pts.get(i).bboxPixels());
            dist += Math.hypot((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2, (a[1] + a[3]) / 2 - (b[1] + b[3]) / 2);
        }
        double seconds = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
        return seconds <= 0 ? 0 : dist / seconds;
    }

    /** "moving from left to right", "stationary in center", ... from first and last centres. */
    public static String pathSummary(List<Point> pts) {
        if (pts.isEmpty()) {
            return "not seen";
        }
        double[] a = pts.get(0).bbox();
        double[] b = pts.get(pts.size() - 1).bbox();
        double dx = (b[0] + b[2]) / 2 - (a[0] + a[2]) / 2;
        double dy = (b[1] + b[3]) / 2 - (a[1] + a[3]) / 2;
        double cx = (b[0] + b[2]) / 2;
        if (Math.hypot(dx, dy) < 0.05) {
            return "stationary " + (cx < 0.33 ? "on the left" : cx > 0.67 ? "on the right" : "in center");
        }
        if (Math.abs(dx) >= Math.abs(dy)) {
            return dx > 0 ? "moving from left to right" : "moving from right to left";
        }
        return dy > 0 ? "moving towards the bottom of the frame" : "moving towards the top of the frame";
    }

    /** An activity label from a category and its speed in box heights per second. */
    public static String activity(String category, double heightsPerSecond) {
        if ("person".equals(category)) {
            return heightsPerSecond < 0.15 ? "person standing" : heightsPerSecond < 1.5 ? "person walking" : "person running";
        }
        if (ObjectGeometry.GROUPS.get("vehicle").contains(category)) {
            return heightsPerSecond < 0.1 ? category + " parked" : category + " moving";
        }
        return heightsPerSecond < 0.15 ? category + " present" : category + " moving";
    }
}
