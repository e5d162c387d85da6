package io.videoworld.perception;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC1;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_COLOR;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imdecode;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * An image decoded once to packed BGR bytes (OpenCV's order), shared by the detector's
 * pre-processing and the appearance histograms of its boxes.
 *
 * @param width pixels
 * @param height pixels
 * @param bgr {@code width * height * 3} bytes, row by row
 */
public record DecodedImage(int width, int height, byte[] bgr) {

    /** Decodes a JPEG or PNG; throws IllegalArgumentException when it is not an image. */
    public static DecodedImage decode(byte[] encoded) {
        try (BytePointer data = new BytePointer(encoded); Mat buf = new Mat(1, encoded.length, CV_8UC1, data);
                Mat m = imdecode(buf, IMREAD_COLOR)) {
            if (m == null || m.empty()) {
                throw new IllegalArgumentException("not a decodable image");
            }
            byte[] px = new byte[m.cols() * m.rows() * 3];
            m.data().get(px);
            return new DecodedImage(m.cols(), m.rows(), px);
        }
    }

    /**
     * Bilinear resize to {@code w x h} as TensorFlow's resizeBilinear without half-pixel centres
     * (source = destination * scale), which is what CenterNet's TF.js graph was fed; RGB floats
     * 0-255, channel-last.
     */
    public float[] rgbResized(int w, int h) {
        float[] out = new float[w * h * 3];
        double sx = (double) width / w;
        double sy = (double) height / h;
        // The columns' source offsets and weights are the same on every row: computed once, not per pixel.
        int[] x0s = new int[w];
        int[] x1s = new int[w];
        double[] dxs = new double[w];
        for (int x = 0; x < w; x++) {
            double fx = x * sx;
            int x0 = Math.min((int) fx, width - 1);
            x0s[x] = x0 * 3;
            x1s[x] = Math.min(x0 + 1, width - 1) * 3;
            dxs[x] = fx - x0;
        }
        for (int y = 0; y < h; y++) {
            double fy = y * sy;
            int y0 = Math.min((int) fy, height - 1);
            int row0 = y0 * width * 3;
            int row1 = Math.min(y0 + 1, height - 1) * width * 3;
            double dy = fy - y0;
            for (int x = 0; x < w; x++) {
                double dx = dxs[x];
                int a = row0 + x0s[x];
                int b = row0 + x1s[x];
                int c0 = row1 + x0s[x];
                int d = row1 + x1s[x];
                int o = (y * w + x) * 3;
                for (int c = 0; c < 3; c++) {
                    double top = (bgr[a + c] & 0xFF) * (1 - dx) + (bgr[b + c] & 0xFF) * dx;
                    double bottom = (bgr[c0 + c] & 0xFF) * (1 - dx) + (bgr[d + c] & 0xFF) * dx;
                    out[o + 2 - c] = (float) (top * (1 - dy) + bottom * dy);
                }
            }
        }
        return out;
    }

    /**
     * Unit-length 8x4x4 HSV histogram of the central part of a box (the edges are mostly
     * background): what the tracker re-identifies objects by.
     */
    public float[] appearance(double x1, double y1, double x2, double y2) {
        int bx1 = clamp(x1 + (x2 - x1) * 0.15, width);
        int bx2 = clamp(x2 - (x2 - x1) * 0.15, width);
        int by1 = clamp(y1 + (y2 - y1) * 0.1, height);
        int by2 = clamp(y2 - (y2 - y1) * 0.1, height);
        float[] hist = new float[128];
        int step = Math.max(1, Math.max(bx2 - bx1, by2 - by1) / 48);
        for (int y = by1; y < by2; y += step) {
            for (int x = bx1; x < bx2; x += step) {
                int i = (y * width + x) * 3;
                hist[hsvBin(bgr[i + 2] & 0xFF, bgr[i + 1] & 0xFF, bgr[i] & 0xFF)]++;
            }
        }
        double n = 0;
        for (float v : hist) {
            n += v * v;
        }
        if (n == 0) {
            return null;
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < hist.length; i++) {
            hist[i] *= inv;
        }
        return hist;
    }

    /** The whole frame's 8x4x4 HSV histogram summing to 1, for telling shots apart. */
    public float[] colourHistogram() {
        float[] h = appearance(0, 0, width, height);
        if (h == null) {
            return null;
        }
        double sum = 0;
        for (float v : h) {
            sum += v;
        }
        for (int i = 0; i < h.length; i++) {
            h[i] /= (float) sum;
        }
        return h;
    }

    /** Bin of an RGB pixel in an 8 (hue) x 4 (saturation) x 4 (value) histogram. */
    static int hsvBin(int r, int g, int b) {
        int max = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        int d = max - min;
        double h;
        if (d == 0) {
            h = 0;
        } else if (max == r) {
            h = ((g - b) / (double) d + 6) % 6;
        } else if (max == g) {
            h = (b - r) / (double) d + 2;
        } else {
            h = (r - g) / (double) d + 4;
        }
        int hb = Math.min(7, (int) (h / 6 * 8));
        int sb = max == 0 ? 0 : Math.min(3, d * 4 / (max + 1));
        int vb = Math.min(3, max * 4 / 256);
        return (hb * 4 + sb) * 4 + vb;
    }

    private static int clamp(double v, int limit) {
        return (int) Math.max(0, Math.min(limit, Math.round(v)));
    }
}
