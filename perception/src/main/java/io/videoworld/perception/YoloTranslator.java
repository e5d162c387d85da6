package io.videoworld.perception;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.Batchifier;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import io.videoworld.core.Detection;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's YOLO model in Ultralytics' export layout, ONNX or TorchScript: letterboxed square RGB
 * 0-1 channel-first input (grey 114 padding, as Ultralytics trains), output per image either
 * {@code (4 + classes) x anchors} (YOLOv8 and later: centre, size, class scores) or
 * {@code anchors x (5 + classes)} (YOLOv5: with objectness), told apart by the label count. Then
 * per-class NMS and the boxes mapped back through the letterbox to frame pixels.
 */
public final class YoloTranslator implements Translator<DecodedImage, List<Detection>> {
    private final int size;
    private final List<String> names;
    private final double minScore;

    public YoloTranslator(int size, List<String> names, double minScore) {
        this.size = size;
        this.names = names;
        this.minScore = minScore;
    }

    /** Scale and padding of a letterbox of {@code w x h} into {@code size x size}. */
    record Letterbox(double scale, double padX, double padY) {
        static Letterbox of(int w, int h, int size) {
            double s = Math.min((double) size / w, (double) size / h);
            return new Letterbox(s, (size - w * s) / 2, (size - h * s) / 2);
        }
    }

    @Override
    public NDList processInput(TranslatorContext ctx, DecodedImage image) {
        ctx.setAttachment("image", image);
        return new NDList(ctx.getNDManager().create(FloatBuffer.wrap(letterbox(image, size)), new Shape(3, size, size)));
    }

    static float[] letterbox(DecodedImage image, int size) {
        Letterbox lb = Letterbox.of(image.width(), image.height(), size);
        int w = Math.max(1, (int) Math.round(image.width() * lb.scale()));
        int h = Math.max(1, (int) Math.round(image.height() * lb.scale()));
        float[] hwc = image.rgbResized(w, h);
        float[] chw = new float[3 * size * size];
        java.util.Arrays.fill(chw, 114f / 255);
        int ox = (int) Math.floor(lb.padX());
        int oy = (int) Math.floor(lb.padY());
        for (int y = 0; y < h && y + oy < size; y++) {
            for (int x = 0; x < w && x + ox < size; x++) {
                for (int c = 0; c < 3; c++) {
                    chw[c * size * size + (y + oy) * size + x + ox] = hwc[(y * w + x) * 3 + c] / 255f;
                }
            }
        }
        return chw;
    }

    @Override
    public List<Detection> processOutput(TranslatorContext ctx, NDList out) {
        DecodedImage image = (DecodedImage) ctx.getAttachment("image");
        NDArray y = out.get(0);
        long[] shape = y.getShape().getShape();
        int rows = (int) shape[shape.length - 2];
        int cols = (int) shape[shape.length - 1];
        return decode(y.toFloatArray(), rows, cols, names, image.width(), image.height(), size, minScore);
    }

    /** Decodes one image's raw output ({@code rows x cols}, row-major). */
    static List<Detection> decode(float[] raw, int rows, int cols, List<String> names, int width, int height, int size, double minScore) {
        int n = names.size();
        boolean v8 = rows == 4 + n;
        boolean v5 = !v8 && cols == 5 + n;
        if (!v8 && !v5) {
            throw new IllegalArgumentException("YOLO output " + rows + "x" + cols + " fits neither (4+" + n + ")xN nor Nx(5+" + n
                    + "); give the model's labels with vw.detect.labels");
        }
        int anchors = v8 ? cols : rows;
        Letterbox lb = Letterbox.of(width, height, size);
        List<Detection> found = new ArrayList<>();
        for (int a = 0; a < anchors; a++) {
            int best = -1;
            double score = 0;
            for (int c = 0; c < n; c++) {
                double s = v8 ? raw[(4 + c) * cols + a] : raw[a * cols + 5 + c] * raw[a * cols + 4];
                if (s > score) {
                    score = s;
                    best = c;
                }
            }
            if (score < minScore) {
                continue;
            }
            double cx = v8 ? raw[a] : raw[a * cols];
            double cy = v8 ? raw[cols + a] : raw[a * cols + 1];
            double w = v8 ? raw[2 * cols + a] : raw[a * cols + 2];
            double h = v8 ? raw[3 * cols + a] : raw[a * cols + 3];
            double x1 = clamp((cx - w / 2 - lb.padX()) / lb.scale(), width);
            double y1 = clamp((cy - h / 2 - lb.padY()) / lb.scale(), height);
            double x2 = clamp((cx + w / 2 - lb.padX()) / lb.scale(), width);
            double y2 = clamp((cy + h / 2 - lb.padY()) / lb.scale(), height);
            if (x2 - x1 >= 1 && y2 - y1 >= 1) {
                found.add(new Detection(CocoLabels.name(names, best), score, x1, y1, x2, y2, null));
            }
        }
        return Nms.apply(found, 0.5, 300);
    }

    private static double clamp(double v, int limit) {
        return Math.max(0, Math.min(limit, v));
    }

    @Override
    public Batchifier getBatchifier() {
        return Batchifier.STACK;
    }
}
