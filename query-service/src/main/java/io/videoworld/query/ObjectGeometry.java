package io.videoworld.query;

import io.videoworld.connectors.es.ObjectRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Box arithmetic for the entity tools. Stored boxes are corners {@code [x1, y1, x2, y2]}; the
 * seeds' responses use {@code [x, y, width, height]}, normalised to 0-1 (and in pixels).
 */
final class ObjectGeometry {
    /** Seed 000's coarse categories over COCO labels. */
    static final Map<String, Set<String>> GROUPS = Map.of(
            "vehicle", Set.of("bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat"),
            "animal", Set.of("bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe"),
            "people", Set.of("person"));

    private ObjectGeometry() {}

    static boolean inCategory(String label, String category) {
        if (category == null || category.isBlank()) {
            return true;
        }
        String c = category.trim().toLowerCase();
        return label.equals(c) || GROUPS.getOrDefault(c, Set.of()).contains(label);
    }

    static double[] xywh(double[] corners) {
        return new double[] {r4(corners[0]), r4(corners[1]), r4(corners[2] - corners[0]), r4(corners[3] - corners[1])};
    }

    static int[] xywh(int[] corners) {
        return new int[] {corners[0], corners[1], corners[2] - corners[0], corners[3] - corners[1]};
    }

    static double[] corners(double[] xywh) {
        return new double[] {xywh[0], xywh[1], xywh[0] + xywh[2], xywh[1] + xywh[3]};
    }

    static double iou(double[] a, double[] b) {
        double w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
        double h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
        if (w <= 0 || h <= 0) {
            return 0;
        }
        double inter = w * h;
        return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter);
    }

    static double r4(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    /** A track's box at a time: the observed point nearest it (tracks are sampled, not interpolated across gaps). */
    static ObjectRepository.Point at(ObjectRepository.Track t, long ptsMs) {
        ObjectRepository.Point best = null;
        for (ObjectRepository.Point p : t.timeline()) {
            if (best == null || Math.abs(p.ptsMs() - ptsMs) < Math.abs(best.ptsMs() - ptsMs)) {
                best = p;
            }
        }
        return best;
    }

    /** Centre speed over a run of points, in box heights per second (size-independent, so near and far people compare). */
    static double heightsPerSecond(List<ObjectRepository.Point> pts) {
        if (pts.size() < 2) {
            return 0;
        }
        double dist = 0;
        double heights = 0;
        for (int i = 1; i < pts.size(); i++) {
            double[] a = pts.get(i - 1).bboxPixels().length == 4 ? toD(pts.get(i - 1).bboxPixels()) : pts.get(i - 1).bbox();
            double[] b = pts.get(i).bboxPixels().length == 4 ? toD(pts.get(i).bboxPixels()) : pts.get(i).bbox();
            dist += Math.hypot((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2, (a[1] + a[3]) / 2 - (b[1] + b[3]) / 2);
            heights += (b[3] - b[1]);
        }
        double seconds = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
        double meanHeight = heights / (pts.size() - 1);
        return seconds <= 0 || meanHeight <= 0 ? 0 : dist / seconds / meanHeight;
    }

    /** Centre speed in pixels per second. */
    static double pixelsPerSecond(List<ObjectRepository.Point> pts) {
        if (pts.size() < 2) {
            return 0;
        }
        double dist = 0;
        for (int i = 1; i < pts.size(); i++) {
            double[] a = toD(pts.get(i - 1).bboxPixels());
            double[] b = toD(pts.get(i).bboxPixels());
            dist += Math.hypot((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2, (a[1] + a[3]) / 2 - (b[1] + b[3]) / 2);
        }
        double seconds = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
        return seconds <= 0 ? 0 : dist / seconds;
    }

    /** "moving from left to right", "stationary in center", ... from first and last centres. */
    static String pathSummary(List<ObjectRepository.Point> pts) {
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

    /** Spatial relations of a subject box to an object box (normalised corners). */
    static List<String> relations(double[] s, double[] o) {
        List<String> out = new ArrayList<>();
        double scx = (s[0] + s[2]) / 2;
        double scy = (s[1] + s[3]) / 2;
        double ocx = (o[0] + o[2]) / 2;
        double ocy = (o[1] + o[3]) / 2;
        if (s[2] <= o[0] + 0.25 * (o[2] - o[0]) && scx < ocx) {
            out.add("left_of");
        }
        if (s[0] >= o[2] - 0.25 * (o[2] - o[0]) && scx > ocx) {
            out.add("right_of");
        }
        if (s[3] <= o[1] + 0.25 * (o[3] - o[1]) && scy < ocy) {
            out.add("above");
        }
        if (s[1] >= o[3] - 0.25 * (o[3] - o[1]) && scy > ocy) {
            out.add("below");
        }
        double iw = Math.max(0, Math.min(s[2], o[2]) - Math.max(s[0], o[0]));
        double ih = Math.max(0, Math.min(s[3], o[3]) - Math.max(s[1], o[1]));
        double sArea = (s[2] - s[0]) * (s[3] - s[1]);
        if (sArea > 0 && iw * ih / sArea >= 0.9) {
            out.add("inside");
        }
        if (iw * ih > 0) {
            out.add("overlapping");
        }
        if (gap(s, o) < 0.5 * Math.max(s[3] - s[1], o[3] - o[1])) {
            out.add("near");
        }
        return out;
    }

    /** Shortest distance between the edges of two boxes, 0 when they touch or overlap. */
    static double gap(double[] s, double[] o) {
        double dx = Math.max(0, Math.max(o[0] - s[2], s[0] - o[2]));
        double dy = Math.max(0, Math.max(o[1] - s[3], s[1] - o[3]));
        return Math.hypot(dx, dy);
    }

    static double[] toD(int[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }
}
