package io.videoworld.perception;

/**
 * MoveNet's own single-person decoding (the tail of its TF.js graph, which
 * {@code deploy/movenet_to_onnx.py} leaves out): the best centre cell, each keypoint regressed from
 * it, the keypoint's heatmap peak nearest that guess, refined by its sub-cell offset. Maps are
 * channel-last {@code cells x cells x channels}, one image's worth from an offset.
 */
public final class MoveNetDecoder {
    /** The graph's distance bias (its add_5/y constant, a float16). */
    static final float DISTANCE_BIAS = 1.7998047f;
    /** The graph's cell-to-unit scale (its Reshape_13 constant, 1/48 as a float16). */
    static final float CELL_SCALE = 0.020828247f;
    static final int KEYPOINTS = 17;

    private final int cells;

    public MoveNetDecoder(int cells) {
        this.cells = cells;
    }

    /**
     * Keypoints as {@code [k][0]} row and {@code [k][1]} column in 0-1 of the model's input and
     * {@code [k][2]} confidence.
     */
    public float[][] decode(float[] heatmap, int heatOffset, float[] center, int centerOffset, float[] regress, int regressOffset,
            float[] offset, int offsetOffset) {
        int n = cells * cells;
        int best = 0;
        for (int i = 1; i < n; i++) {
            if (center[centerOffset + i] > center[centerOffset + best]) {
                best = i;
            }
        }
        int cy = best / cells;
        int cx = best % cells;
        float[][] out = new float[KEYPOINTS][3];
        int reg = regressOffset + best * 2 * KEYPOINTS;
        for (int k = 0; k < KEYPOINTS; k++) {
            float ry = cy + regress[reg + 2 * k];
            float rx = cx + regress[reg + 2 * k + 1];
            int pick = 0;
            float pickScore = -1;
            for (int y = 0; y < cells; y++) {
                for (int x = 0; x < cells; x++) {
                    float dy = y - ry;
                    float dx = x - rx;
                    float s = heatmap[heatOffset + (y * cells + x) * KEYPOINTS + k] / ((float) Math.sqrt(dy * dy + dx * dx) + DISTANCE_BIAS);
                    if (s > pickScore) {
                        pickScore = s;
                        pick = y * cells + x;
                    }
                }
            }
            int ky = pick / cells;
            int kx = pick % cells;
            int off = offsetOffset + pick * 2 * KEYPOINTS;
            out[k][0] = (ky + offset[off + 2 * k]) * CELL_SCALE;
            out[k][1] = (kx + offset[off + 2 * k + 1]) * CELL_SCALE;
            out[k][2] = heatmap[heatOffset + pick * KEYPOINTS + k];
        }
        return out;
    }
}
