package io.videoworld.perception;

import io.videoworld.core.Vectors;
import io.videoworld.core.FrameFeatures;

/**
 * A 176-number colour-and-layout descriptor for visual similarity: the mean colour of each cell
 * of a 4x4 grid (48 numbers, where things are) and the 8x4x4 HSV histogram (128, what colours),
 * joined and normalised to length 1. No CNN backbone ships in a package this project can use
 * offline yet; this one costs microseconds, comes from features shot detection already computed,
 * and tells apart apps, pages and camera scenes well enough for "find similar segments".
 */
public final class ImageDescriptor {
    public static final int DIMENSIONS = 48 + 128;

    private ImageDescriptor() {}

    public static float[] of(FrameFeatures f) {
        float[] out = new float[DIMENSIONS];
        int w = f.featureWidth();
        int h = f.featureHeight();
        byte[] hsv = f.hsv();
        int[] counts = new int[16];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int cell = (y * 4 / h) * 4 + (x * 4 / w);
                int i = (y * w + x) * 3;
                // Hue as a point on the circle, so red at 0 and 255 averages to red, not cyan.
                double angle = (hsv[i] & 0xFF) * 2 * Math.PI / 256;
                double sat = (hsv[i + 1] & 0xFF) / 255.0;
                out[cell * 3] += (float) (Math.cos(angle) * sat);
                out[cell * 3 + 1] += (float) (Math.sin(angle) * sat);
                out[cell * 3 + 2] += (hsv[i + 2] & 0xFF) / 255f;
                counts[cell]++;
            }
        }
        for (int c = 0; c < 16; c++) {
            for (int k = 0; k < 3; k++) {
                out[c * 3 + k] /= Math.max(1, counts[c]);
            }
        }
        System.arraycopy(f.hist(), 0, out, 48, 128);
        return Vectors.normaliseInPlace(out);
    }
}
