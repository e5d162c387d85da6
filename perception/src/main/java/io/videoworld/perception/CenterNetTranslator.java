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
 * MB3-CenterNet (COCO-80) as converted by {@code deploy/centernet_to_onnx.py}: the whole frame
 * resized to a square RGB 0-255 channel-last input (no letterbox: the TF.js model was trained and
 * used that way), 512 as trained or a smaller multiple of 32 for speed (the converted graph is
 * fully convolutional); out come an (input/4)^2 x 80 sigmoid heatmap and (input/4)^2 x 4 box
 * extents. Decoding is the graph's own: class peaks that equal their 3x3 neighbourhood maximum,
 * best 100, box = cell * 4 -/+ extents; then per-class NMS and scaling back to frame pixels.
 */
public final class CenterNetTranslator implements Translator<DecodedImage, List<Detection>> {
    /** The side the model was trained at. */
    public static final int TRAINED_INPUT = 512;
    static final int STRIDE = 4;
    static final int TOP_K = 100;

    private final int input;
    private final double minScore;

    public CenterNetTranslator(double minScore) {
        this(TRAINED_INPUT, minScore);
    }

    /** @param input square input side: a multiple of 32 from 128 to 1024 (the graph's five stride-2 convs) */
    public CenterNetTranslator(int input, double minScore) {
        if (input < 128 || input > 1024 || input % 32 != 0) {
            throw new IllegalArgumentException("CenterNet input side " + input + " is not a multiple of 32 from 128 to 1024");
        }
        this.input = input;
        this.minScore = minScore;
    }

    public int input() {
        return input;
    }

    @Override
    public NDList processInput(TranslatorContext ctx, DecodedImage image) {
        ctx.setAttachment("image", image);
        NDArray x = ctx.getNDManager().create(FloatBuffer.wrap(image.rgbResized(input, input)), new Shape(input, input, 3));
        return new NDList(x);
    }

    @Override
    public List<Detection> processOutput(TranslatorContext ctx, NDList out) {
        DecodedImage image = (DecodedImage) ctx.getAttachment("image");
        NDArray heat = out.get(0);
        NDArray wh = out.get(1);
        if (heat.getShape().get(heat.getShape().dimension() - 1) == 4) {
            NDArray t = heat;
            heat = wh;
            wh = t;
        }
        int classes = (int) heat.getShape().get(heat.getShape().dimension() - 1);
        long grid = heat.getShape().get(heat.getShape().dimension() - 2);
        if (grid * STRIDE != input) {
            // A model converted before the graph took any side keeps 512 and answers 128 cells whatever it is fed.
            throw new IllegalStateException("the CenterNet model answered a " + grid + "-cell grid for a " + input
                    + "-pixel input: it takes only " + grid * STRIDE + " (reconvert it with deploy/models.sh)");
        }
        return decode(heat.toFloatArray(), wh.toFloatArray(), classes, input, image.width(), image.height(), minScore);
    }

    /** Peaks of an {@code input/4 x input/4 x classes} heatmap to frame-pixel boxes. */
    static List<Detection> decode(float[] heat, float[] wh, int classes, int input, int width, int height, double minScore) {
        int grid = input / STRIDE;
        List<float[]> peaks = new ArrayList<>();
        for (int y = 0; y < grid; y++) {
            for (int x = 0; x < grid; x++) {
                int base = (y * grid + x) * classes;
                for (int c = 0; c < classes; c++) {
                    float v = heat[base + c];
                    if (v >= minScore && isPeak(heat, grid, classes, x, y, c, v)) {
                        peaks.add(new float[] {v, x, y, c});
                    }
                }
            }
        }
        peaks.sort((a, b) -> Float.compare(b[0], a[0]));
        double sx = (double) width / input;
        double sy = (double) height / input;
        List<Detection> out = new ArrayList<>();
        for (int i = 0; i < Math.min(TOP_K, peaks.size()); i++) {
            float[] p = peaks.get(i);
            int x = (int) p[1];
            int y = (int) p[2];
            int o = (y * grid + x) * 4;
            double x1 = clamp((STRIDE * x - wh[o]) * sx, width);
            double y1 = clamp((STRIDE * y - wh[o + 1]) * sy, height);
            double x2 = clamp((STRIDE * x + wh[o + 2]) * sx, width);
            double y2 = clamp((STRIDE * y + wh[o + 3]) * sy, height);
            if (x2 - x1 >= 1 && y2 - y1 >= 1) {
                out.add(new Detection(CocoLabels.name(CocoLabels.NAMES, (int) p[3]), p[0], x1, y1, x2, y2, null));
            }
        }
        return Nms.apply(out, 0.5, TOP_K);
    }

    private static boolean isPeak(float[] heat, int grid, int classes, int x, int y, int c, float v) {
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx;
                int ny = y + dy;
                if ((dx != 0 || dy != 0) && nx >= 0 && ny >= 0 && nx < grid && ny < grid && heat[(ny * grid + nx) * classes + c] > v) {
                    return false;
                }
            }
        }
        return true;
    }

    private static double clamp(double v, int limit) {
        return Math.max(0, Math.min(limit, v));
    }

    @Override
    public Batchifier getBatchifier() {
        return Batchifier.STACK;
    }
}
