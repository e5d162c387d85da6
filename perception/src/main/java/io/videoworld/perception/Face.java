package io.videoworld.perception;

/**
 * A face found in a frame: its box and six landmarks in frame pixels and the detector's score.
 * Landmarks in BlazeFace's order, sides as the subject's: right eye, left eye, nose tip, mouth,
 * right ear, left ear ({@code x} then {@code y} for each).
 *
 * @param x1 left
 * @param y1 top
 * @param x2 right
 * @param y2 bottom
 * @param score 0-1
 * @param landmarks 12 numbers, x and y of each landmark
 */
public record Face(double x1, double y1, double x2, double y2, double score, double[] landmarks) {
    /** Landmark index of the subject's right eye (on the left of the image for a face looking at the camera). */
    public static final int RIGHT_EYE = 0;
    /** Landmark index of the subject's left eye. */
    public static final int LEFT_EYE = 1;

    /** The box's larger side in pixels. */
    public double size() {
        return Math.max(x2 - x1, y2 - y1);
    }

    /** Column of landmark {@code k}. */
    public double x(int k) {
        return landmarks[2 * k];
    }

    /** Row of landmark {@code k}. */
    public double y(int k) {
        return landmarks[2 * k + 1];
    }

    /**
     * The square a descriptor is taken from: centred on the box, {@code scale} times its larger
     * side, turned so that the eyes are level.
     */
    public FaceCrop aligned(double scale) {
        double angle = Math.atan2(y(LEFT_EYE) - y(RIGHT_EYE), x(LEFT_EYE) - x(RIGHT_EYE));
        return new FaceCrop((x1 + x2) / 2, (y1 + y2) / 2, size() * scale, angle);
    }
}
