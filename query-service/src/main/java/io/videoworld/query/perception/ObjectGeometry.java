package io.videoworld.query.perception;

import static io.videoworld.query.api.Decimals.round;

import java.util.Map;
import java.util.Set;

/**
 * Boxes and labels as the tools answer them. Stored boxes are corners {@code [x1, y1, x2, y2]};
 * the seeds' responses use {@code [x, y, width, height]}, normalised to 0-1 (and in pixels).
 * Overlap is {@link io.videoworld.core.Boxes#iou}.
 */
public final class ObjectGeometry {
    /** Seed 000's coarse categories over COCO labels. */
    public static final Map<String, Set<String>> GROUPS = Map.of(
            "vehicle", Set.of("bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat"),
            "animal", Set.of("bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe"),
            "people", Set.of("person"));

    private ObjectGeometry() {}

    /** Whether a detector label is the asked category, or one of its coarse group; any label when none is asked. */
    public static boolean inCategory(String label, String category) {
        if (category == null || category.isBlank()) {
            return true;
        }
        String c = category.trim().toLowerCase();
        return label.equals(c) || GROUPS.getOrDefault(c, Set.of()).contains(label);
    }

    /** Whether a description names a label, directly or by its coarse group ("a vehicle" names a car). */
    public static boolean names(String description, String label) {
        String lower = description.toLowerCase();
        return lower.contains(label) || GROUPS.entrySet().stream().anyMatch(g -> lower.contains(g.getKey()) && g.getValue().contains(label));
    }

    /** Normalised corners as {@code [x, y, width, height]}, four decimals. */
    public static double[] xywh(double[] corners) {
        return new double[] {round(corners[0], 4), round(corners[1], 4), round(corners[2] - corners[0], 4), round(corners[3] - corners[1], 4)};
    }

    /** Pixel corners as {@code [x, y, width, height]}. */
    public static int[] xywh(int[] corners) {
        return new int[] {corners[0], corners[1], corners[2] - corners[0], corners[3] - corners[1]};
    }

    /** {@code [x, y, width, height]} as corners. */
    public static double[] corners(double[] xywh) {
        return new double[] {xywh[0], xywh[1], xywh[0] + xywh[2], xywh[1] + xywh[3]};
    }

    /** Pixel coordinates as doubles. */
    public static double[] toD(int[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }
}
