package io.videoworld.perception;

/**
 * A square of a frame, turned by an angle about its centre, that a face model sees: sampled
 * bilinearly to the model's side (RGB 0-255, channel-last; what falls outside the frame is black).
 * Maps the model's pixel coordinates back to frame pixels.
 *
 * @param cx centre column in frame pixels
 * @param cy centre row in frame pixels
 * @param side the square's side in frame pixels
 * @param angle radians the square is turned by (clockwise on screen, rows growing down): a
 *     crop turned by the angle of a face's eye line shows the eyes level
 */
public record FaceCrop(double cx, double cy, double side, double angle) {

    /** The upright square around a region ({x1, y1, x2, y2} in frame pixels) of its longer side. */
    public static FaceCrop around(double x1, double y1, double x2, double y2) {
        return new FaceCrop((x1 + x2) / 2, (y1 + y2) / 2, Math.max(x2 - x1, y2 - y1), 0);
    }

    /** Writes the square, resized to {@code size x size}, into {@code dst} from {@code offset} (size*size*3 floats, RGB). */
    public void fill(DecodedImage image, int size, float[] dst, int offset) {
        int w = image.width();
        int h = image.height();
        byte[] bgr = image.bgr();
        double scale = side / size;
        double cos = Math.cos(angle);
        double sin = Math.sin(angle);
        for (int r = 0; r < size; r++) {
            double v = (r + 0.5) * scale - side / 2;
            for (int c = 0; c < size; c++) {
                double u = (c + 0.5) * scale - side / 2;
                double fx = cx + u * cos - v * sin - 0.5;
                double fy = cy + u * sin + v * cos - 0.5;
                Bilinear.rgbAt(bgr, w, h, fx, fy, dst, offset + (r * size + c) * 3);
            }
        }
    }

    /** Frame pixel {x, y} of a point given in pixels of the {@code size x size} model input. */
    public double[] toFrame(double x, double y, int size) {
        double u = x * side / size - side / 2;
        double v = y * side / size - side / 2;
        return new double[] {cx + u * Math.cos(angle) - v * Math.sin(angle), cy + u * Math.sin(angle) + v * Math.cos(angle)};
    }
}
