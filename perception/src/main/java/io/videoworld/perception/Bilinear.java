package io.videoworld.perception;

/** Bilinear sampling of a BGR frame into a model's RGB input, black outside the frame: the one way crops are sampled. */
final class Bilinear {
    private Bilinear() {}

    /** Writes the RGB value at frame position ({@code fx}, {@code fy}) (pixel centres at .0) into {@code dst[o..o+2]}. */
    static void rgbAt(byte[] bgr, int w, int h, double fx, double fy, float[] dst, int o) {
        int xA = (int) Math.floor(fx);
        int yA = (int) Math.floor(fy);
        double dx = fx - xA;
        double dy = fy - yA;
        for (int ch = 0; ch < 3; ch++) {
            double p = px(bgr, w, h, xA, yA, ch) * (1 - dx) * (1 - dy) + px(bgr, w, h, xA + 1, yA, ch) * dx * (1 - dy)
                    + px(bgr, w, h, xA, yA + 1, ch) * (1 - dx) * dy + px(bgr, w, h, xA + 1, yA + 1, ch) * dx * dy;
            dst[o + 2 - ch] = (float) p;
        }
    }

    private static double px(byte[] bgr, int w, int h, int x, int y, int ch) {
        if (x < 0 || y < 0 || x >= w || y >= h) {
            return 0;
        }
        return bgr[(y * w + x) * 3 + ch] & 0xFF;
    }
}
