package io.videoworld.perception;

import static org.bytedeco.opencv.global.opencv_imgproc.INTER_LINEAR;
import static org.bytedeco.opencv.global.opencv_imgproc.resize;

import java.util.List;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Size;

/**
 * PP-OCR's pre- and post-processing on plain arrays: the inputs are BGR as OpenCV reads them
 * (as PaddleOCR and RapidOCR feed these models), channel-first floats; the recogniser's output is
 * decoded greedily (CTC: best class per step, repeats collapsed, blanks dropped).
 */
final class PpOcrImages {
    private static final float[] DET_MEAN = {0.485f, 0.456f, 0.406f};
    private static final float[] DET_STD = {0.229f, 0.224f, 0.225f};

    private PpOcrImages() {}

    /** Resized to w x h, normalised with the ImageNet mean and deviation, CHW. */
    static float[] detInput(Mat bgr, int w, int h) {
        byte[] px = pixels(bgr, w, h);
        float[] out = new float[3 * w * h];
        for (int i = 0; i < w * h; i++) {
            for (int c = 0; c < 3; c++) {
                out[c * w * h + i] = ((px[i * 3 + c] & 0xFF) / 255f - DET_MEAN[c]) / DET_STD[c];
            }
        }
        return out;
    }

    /** Resized to w x h, scaled to [-1, 1], CHW. */
    static float[] recInput(Mat bgr, int w, int h) {
        byte[] px = pixels(bgr, w, h);
        float[] out = new float[3 * w * h];
        for (int i = 0; i < w * h; i++) {
            for (int c = 0; c < 3; c++) {
                out[c * w * h + i] = ((px[i * 3 + c] & 0xFF) / 255f - 0.5f) / 0.5f;
            }
        }
        return out;
    }

    private static byte[] pixels(Mat bgr, int w, int h) {
        try (Mat resized = new Mat()) {
            resize(bgr, resized, new Size(w, h), 0, 0, INTER_LINEAR);
            byte[] px = new byte[w * h * 3];
            resized.data().get(px);
            return px;
        }
    }

    /** Mean of a probability map (row width {@code w}) inside a rectangle. */
    static double meanIn(float[] prob, int w, Rect r) {
        double sum = 0;
        for (int y = r.y(); y < r.y() + r.height(); y++) {
            for (int x = r.x(); x < r.x() + r.width(); x++) {
                sum += prob[y * w + x];
            }
        }
        return sum / ((double) r.width() * r.height());
    }

    /** Text and mean confidence of the kept characters. */
    record Decoded(String text, double score) {}

    /** Greedy CTC decoding of {@code steps x classes} probabilities; class 0 is the blank. */
    static Decoded ctcDecode(float[] probs, int steps, int classes, List<String> alphabet) {
        StringBuilder sb = new StringBuilder();
        double sum = 0;
        int kept = 0;
        int previous = -1;
        for (int t = 0; t < steps; t++) {
            int best = 0;
            float bestP = probs[t * classes];
            for (int c = 1; c < classes; c++) {
                if (probs[t * classes + c] > bestP) {
                    bestP = probs[t * classes + c];
                    best = c;
                }
            }
            if (best != 0 && best != previous && best < alphabet.size()) {
                sb.append(alphabet.get(best));
                sum += bestP;
                kept++;
            }
            previous = best;
        }
        return new Decoded(sb.toString().trim(), kept == 0 ? 0 : sum / kept);
    }
}
