package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * One object a detector found in a frame, box in pixels of that frame.
 *
 * @param category COCO label (or the user model's label)
 * @param score detector confidence, 0-1
 * @param x1 left edge
 * @param y1 top edge
 * @param x2 right edge
 * @param y2 bottom edge
 * @param appearance unit-length colour histogram of the box's pixels, for re-identification;
 *     null when it was not computed
 */
public record Detection(String category, double score, double x1, double y1, double x2, double y2, float[] appearance) {

    public double width() {
        return x2 - x1;
    }

    public double height() {
        return y2 - y1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Detection d && category.equals(d.category) && score == d.score && x1 == d.x1 && y1 == d.y1
                && x2 == d.x2 && y2 == d.y2 && Arrays.equals(appearance, d.appearance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(category, score, x1, y1, x2, y2);
    }

    @Override
    public String toString() {
        return String.format("Detection[%s %.2f (%.0f,%.0f)-(%.0f,%.0f)]", category, score, x1, y1, x2, y2);
    }
}
