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

    /** Landmark index of the mouth. */
    public static final int MOUTH = 3;

    /**
     * Whether the landmarks make a face, however it is turned: the eyes at least a fifth of the box
     * apart, and the mouth on the chin side of the eye line (the subject's right eye to their left
     * eye, turned a quarter clockwise on screen) by at least a fifth of the eyes' distance. A patch
     * the detector took for a face, whose landmarks collapse or contradict each other, is not one; an
     * upside-down face is, and {@link #aligned} turns it upright.
     */
    public boolean plausible() {
        double ex = x(LEFT_EYE) - x(RIGHT_EYE);
        double ey = y(LEFT_EYE) - y(RIGHT_EYE);
        double eyes = Math.hypot(ex, ey);
        if (!(eyes >= 0.2 * size())) {
            return false;
        }
        double mx = x(MOUTH) - (x(LEFT_EYE) + x(RIGHT_EYE)) / 2;
        double my = y(MOUTH) - (y(LEFT_EYE) + y(RIGHT_EYE)) / 2;
        // the eye line turned a quarter clockwise points to the chin of an upright face
        double down = (mx * -ey + my * ex) / eyes;
        return down >= 0.2 * eyes;
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
