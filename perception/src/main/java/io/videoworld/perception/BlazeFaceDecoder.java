package io.videoworld.perception;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns BlazeFace's raw output ({@code deploy/face_to_onnx.py}: per anchor a score logit, the box's
 * centre offset and size and six landmark offsets, in pixels of the square input) into faces in
 * that input's pixels, then keeps the best of overlapping ones.
 */
public final class BlazeFaceDecoder {
    /** Numbers per anchor in the raw output. */
    public static final int STRIDE = 17;
    private final int side;
    private final double[][] anchors;

    /** A decoder for a square input of {@code side} pixels (256 for the converted model). */
    public BlazeFaceDecoder(int side) {
        this.side = side;
        this.anchors = anchors(side);
    }

    /** Number of anchors. */
    public int count() {
        return anchors.length;
    }

    /**
     * Anchor centres {x, y} in input pixels: a grid of stride side/16 with 2 anchors per cell, then
     * one of stride side/8 with 6 per cell, row by row.
     */
    static double[][] anchors(int side) {
        int[] strides = {side / 16, side / 8};
        int[] per = {2, 6};
        List<double[]> out = new ArrayList<>();
        for (int l = 0; l < strides.length; l++) {
            int cells = (side + strides[l] - 1) / strides[l];
            for (int gy = 0; gy < cells; gy++) {
                for (int gx = 0; gx < cells; gx++) {
                    for (int n = 0; n < per[l]; n++) {
                        out.add(new double[] {strides[l] * (gx + 0.5), strides[l] * (gy + 0.5)});
                    }
                }
            }
        }
        return out.toArray(new double[0][]);
    }

    /**
     * The faces of one image whose score reaches {@code minScore}, best first, none overlapping
     * another kept one by more than {@code maxIou}; coordinates in input pixels.
     */
    public List<Face> decode(float[] raw, int offset, double minScore, double maxIou) {
        List<Face> all = new ArrayList<>();
        double minLogit = Math.log(minScore / (1 - minScore));
        for (int a = 0; a < anchors.length; a++) {
            int o = offset + a * STRIDE;
            if (!(raw[o] >= minLogit)) {
                continue;
            }
            double ax = anchors[a][0];
            double ay = anchors[a][1];
            double cx = raw[o + 1] + ax;
            double cy = raw[o + 2] + ay;
            double w = raw[o + 3];
            double h = raw[o + 4];
            if (!(w > 0 && h > 0)) {
                continue;
            }
            double[] lm = new double[12];
            for (int k = 0; k < 6; k++) {
                lm[2 * k] = raw[o + 5 + 2 * k] + ax;
                lm[2 * k + 1] = raw[o + 6 + 2 * k] + ay;
            }
            all.add(new Face(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, 1 / (1 + Math.exp(-raw[o])), lm));
        }
        all.sort(Comparator.comparingDouble(Face::score).reversed());
        List<Face> kept = new ArrayList<>();
        for (Face f : all) {
            if (kept.stream().noneMatch(k -> iou(k, f) > maxIou)) {
                kept.add(f);
            }
        }
        return kept;
    }

    /** Intersection over union of two faces' boxes. */
    static double iou(Face a, Face b) {
        double iw = Math.min(a.x2(), b.x2()) - Math.max(a.x1(), b.x1());
        double ih = Math.min(a.y2(), b.y2()) - Math.max(a.y1(), b.y1());
        if (iw <= 0 || ih <= 0) {
            return 0;
        }
        double inter = iw * ih;
        return inter / ((a.x2() - a.x1()) * (a.y2() - a.y1()) + (b.x2() - b.x1()) * (b.y2() - b.y1()) - inter);
    }

    /** The input side this decoder was made for. */
    public int side() {
        return side;
    }
}
