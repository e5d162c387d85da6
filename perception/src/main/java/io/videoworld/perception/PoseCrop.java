package io.videoworld.perception;

/**
 * The square of a frame the pose model sees around one person box: the box's longer side times a
 * margin, centred on the box, resized bilinearly to the model's side (RGB 0-255, channel-last;
 * what falls outside the frame is black). Maps the model's 0-1 coordinates back to frame pixels.
 *
 * @param x0 left edge of the square in frame pixels (may be negative)
 * @param y0 top edge
 * @param side the square's side in frame pixels
 */
public record PoseCrop(double x0, double y0, double side) {
    /** Margin around the longer side of a box: limbs a detector's box cuts off still fit. */
    public static final double MARGIN = 1.25;

    /** The square around a box, or null when the box is empty. */
    public static PoseCrop around(double x1, double y1, double x2, double y2) {
        double w = x2 - x1;
        double h = y2 - y1;
        if (!(w > 0 && h > 0)) {
            return null;
        }
        double side = Math.max(w, h) * MARGIN;
        return new PoseCrop((x1 + x2) / 2 - side / 2, (y1 + y2) / 2 - side / 2, side);
    }

    /** Writes the square, resized to {@code size x size}, into {@code dst} from {@code offset} (size*size*3 floats, RGB). */
    public void fill(DecodedImage image, int size, float[] dst, int offset) {
        double scale = side / size;
        int w = image.width();
        int h = image.height();
        byte[] bgr = image.bgr();
        for (int r = 0; r < size; r++) {
            double fy = y0 + (r + 0.5) * scale - 0.5;
            for (int c = 0; c < size; c++) {
                Bilinear.rgbAt(bgr, w, h, x0 + (c + 0.5) * scale - 0.5, fy, dst, offset + (r * size + c) * 3);
            }
        }
    }

    /** Frame column of a 0-1 column of the square. */
    public double frameX(double u) {
        return x0 + u * side;
    }

    /** Frame row of a 0-1 row of the square. */
    public double frameY(double v) {
        return y0 + v * side;
    }
}
