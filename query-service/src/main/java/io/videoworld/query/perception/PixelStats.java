package io.videoworld.query.perception;

import io.videoworld.perception.DecodedImage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measurements on decoded pixels for the perception tools: colour names of a box, brightness,
 * colour temperature and sky fraction of a frame, and the global shift between two frames.
 * Heuristics, and said to be so in the responses that use them.
 */
public final class PixelStats {
    private PixelStats() {}

    /** The most common colour name among a box's central pixels, or null when none reaches 25%. */
    public static String dominantColour(DecodedImage img, double[] corners) {
        int x1 = (int) Math.max(0, corners[0] + (corners[2] - corners[0]) * 0.2);
        int x2 = (int) Math.min(img.width(), corners[2] - (corners[2] - corners[0]) * 0.2);
        int y1 = (int) Math.max(0, corners[1] + (corners[3] - corners[1]) * 0.15);
        int y2 = (int) Math.min(img.height(), corners[3] - (corners[3] - corners[1]) * 0.15);
        Map<String, Integer> counts = new LinkedHashMap<>();
        int n = 0;
        int step = Math.max(1, Math.max(x2 - x1, y2 - y1) / 40);
        for (int y = y1; y < y2; y += step) {
            for (int x = x1; x < x2; x += step) {
                int i = (y * img.width() + x) * 3;
                counts.merge(name(img.bgr()[i + 2] & 0xFF, img.bgr()[i + 1] & 0xFF, img.bgr()[i] & 0xFF), 1, Integer::sum);
                n++;
            }
        }
        String best = null;
        int bestCount = 0;
        for (var e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return n == 0 || bestCount < 0.25 * n ? null : best;
    }

    /** A colour name for an RGB pixel. */
    static String name(int r, int g, int b) {
        int max = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        double s = max == 0 ? 0 : (max - min) / (double) max;
        if (max < 50) {
            return "black";
        }
        if (s < 0.18) {
            return max > 200 ? "white" : "grey";
        }
        double h = hue(r, g, b, max, min);
        if (h < 15 || h >= 340) {
            return max < 120 ? "brown" : "red";
        }
        if (h < 40) {
            return max < 150 ? "brown" : "orange";
        }
        if (h < 70) {
            return "yellow";
        }
        if (h < 160) {
            return "green";
        }
        if (h < 200) {
            return "cyan";
        }
        if (h < 260) {
            return "blue";
        }
        if (h < 300) {
            return "purple";
        }
        return "pink";
    }

    private static double hue(int r, int g, int b, int max, int min) {
        double d = max - min;
        if (d == 0) {
            return 0;
        }
        double h = max == r ? ((g - b) / d + 6) % 6 : max == g ? (b - r) / d + 2 : (r - g) / d + 4;
        return h * 60;
    }

    /** Frame statistics behind the scene attributes. */
    public record Scene(double brightness, double contrast, double warmth, double skyFraction) {}

    /** Brightness, contrast, warmth and sky fraction of a frame. */
    public static Scene scene(DecodedImage img) {
        long n = 0;
        double sum = 0;
        double sumSq = 0;
        double warm = 0;
        long sky = 0;
        long top = 0;
        int step = Math.max(1, img.width() / 160);
        for (int y = 0; y < img.height(); y += step) {
            for (int x = 0; x < img.width(); x += step) {
                int i = (y * img.width() + x) * 3;
                int b = img.bgr()[i] & 0xFF;
                int g = img.bgr()[i + 1] & 0xFF;
                int r = img.bgr()[i + 2] & 0xFF;
                double v = 0.299 * r + 0.587 * g + 0.114 * b;
                sum += v;
                sumSq += v * v;
                warm += r - b;
                n++;
                if (y < img.height() / 4) {
                    top++;
                    String c = name(r, g, b);
                    boolean blueSky = ("blue".equals(c) || "cyan".equals(c)) && v > 110;
                    boolean overcast = "white".equals(c) && v > 200;
                    if (blueSky || overcast) {
                        sky++;
                    }
                }
            }
        }
        double mean = sum / Math.max(1, n);
        return new Scene(mean, Math.sqrt(Math.max(0, sumSq / Math.max(1, n) - mean * mean)), warm / Math.max(1, n),
                top == 0 ? 0 : (double) sky / top);
    }

    /**
     * The translation (in fractions of the frame) that best aligns frame b to frame a, by block
     * matching on 96-pixel-wide grey thumbnails within 12% of the frame; and the residual error
     * of that alignment relative to the unshifted one (near 1: no single shift explains the change).
     */
    public static double[] globalShift(DecodedImage a, DecodedImage b) {
        int w = 96;
        int h = Math.max(8, a.height() * w / a.width());
        float[] ga = grey(a, w, h);
        float[] gb = grey(b, w, h);
        int range = (int) (w * 0.12);
        double best = Double.MAX_VALUE;
        double still = 0;
        int bx = 0;
        int by = 0;
        for (int dy = -range; dy <= range; dy++) {
            for (int dx = -range; dx <= range; dx++) {
                int y0 = Math.max(0, -dy);
                int y1 = Math.min(h, h - dy);
                int x0 = Math.max(0, -dx);
                int x1 = Math.min(w, w - dx);
                int cnt = Math.max(0, y1 - y0) * Math.max(0, x1 - x0);
                // Every term is >= 0, so a shift whose sum so far already reaches what the best one's mean allows
                // cannot win: it is left there (same answer as summing all 529 shifts in full, which was 58% of the
                // service's CPU under load). The unshifted error is always summed in full.
                double limit = dx == 0 && dy == 0 ? Double.MAX_VALUE : (best - 1e-9) * cnt * (1 + 1e-9);
                double err = 0;
                boolean lost = false;
                for (int y = y0; y < y1 && !lost; y++) {
                    int ra = y * w;
                    int rb = (y + dy) * w + dx;
                    for (int x = x0; x < x1; x++) {
                        err += Math.abs(ga[ra + x] - gb[rb + x]);
                    }
                    lost = err > limit;
                }
                if (lost) {
                    continue;
                }
                err /= Math.max(1, cnt);
                if (dx == 0 && dy == 0) {
                    still = err;
                }
                if (err < best - 1e-9) {
                    best = err;
                    bx = dx;
                    by = dy;
                }
            }
        }
        return new double[] {(double) bx / w, (double) by / h, still == 0 ? 0 : best / still, best};
    }

    /** The picture resized to w x h in grey (the search works on luma). */
    static float[] grey(DecodedImage img, int w, int h) {
        float[] rgb = img.rgbResized(w, h);
        float[] g = new float[w * h];
        for (int i = 0; i < g.length; i++) {
            g[i] = 0.299f * rgb[i * 3] + 0.587f * rgb[i * 3 + 1] + 0.114f * rgb[i * 3 + 2];
        }
        return g;
    }
}
