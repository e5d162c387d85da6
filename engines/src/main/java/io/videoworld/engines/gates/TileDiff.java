package io.videoworld.engines.gates;

import io.videoworld.perception.GreyFrame;
import java.util.ArrayList;
import java.util.List;

/**
 * How two frames' luma differ, in {@value #TILE}-pixel tiles: which tiles match in place or after
 * a vertical shift, and the shift (a scroll) that explains most of a change. What
 * {@link ScreenGate} plans its reads by; pure functions.
 */
final class TileDiff {
    /** Tile side in pixels. */
    static final int TILE = 32;
    /** Grey levels by which a pixel must differ to count as changed (above JPEG's noise on screens). */
    static final int PIXEL_DELTA = 24;
    /** Changed pixels that make a tile changed. */
    static final int MIN_PIXELS = 4;
    /** Fewest pixel rows of change before a scroll is looked for. */
    static final int MIN_SCROLL_SPAN = 4 * TILE;

    private TileDiff() {}

    /** Whether every tile the box touches is true. */
    static boolean all(boolean[] tiles, int cols, int rows, int x, int y, int w, int h) {
        int c0 = Math.max(0, x / TILE);
        int c1 = Math.min(cols - 1, (x + Math.max(1, w) - 1) / TILE);
        int r0 = Math.max(0, y / TILE);
        int r1 = Math.min(rows - 1, (y + Math.max(1, h) - 1) / TILE);
        for (int r = r0; r <= r1; r++) {
            for (int c = c0; c <= c1; c++) {
                if (!tiles[r * cols + c]) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * For each tile of {@code next}, whether it shows what {@code prev} showed {@value #TILE} pixels
     * lower by {@code dy} (row y of next against row y + dy of prev): fewer than
     * {@value #MIN_PIXELS} pixels differ by more than {@value #PIXEL_DELTA} grey levels. A tile
     * whose rows come from outside prev does not match.
     */
    static boolean[] tiles(GreyFrame prev, GreyFrame next, int dy) {
        int w = next.width();
        int h = next.height();
        int cols = (w + TILE - 1) / TILE;
        int rows = (h + TILE - 1) / TILE;
        boolean[] same = new boolean[cols * rows];
        byte[] a = prev.px();
        byte[] b = next.px();
        for (int r = 0; r < rows; r++) {
            int y0 = r * TILE;
            int y1 = Math.min(h, y0 + TILE);
            boolean inside = y0 + dy >= 0 && y1 + dy <= h;
            for (int c = 0; c < cols; c++) {
                if (!inside) {
                    continue;
                }
                int x0 = c * TILE;
                int x1 = Math.min(w, x0 + TILE);
                int bad = 0;
                for (int y = y0; y < y1 && bad < MIN_PIXELS; y++) {
                    int rb = y * w;
                    int ra = (y + dy) * w;
                    for (int x = x0; x < x1; x++) {
                        if (Math.abs((a[ra + x] & 0xFF) - (b[rb + x] & 0xFF)) > PIXEL_DELTA && ++bad >= MIN_PIXELS) {
                            break;
                        }
                    }
                }
                same[r * cols + c] = bad < MIN_PIXELS;
            }
        }
        return same;
    }

    /**
     * The vertical shift that explains most of the changed tiles, or 0: row profiles (mean grey and
     * mean horizontal gradient of each row, over the columns that changed) of the two frames are
     * compared at every shift, and the five best shifts are tried tile by tile; one is taken when it
     * makes at least a quarter of the changed tiles (and two or more) match.
     */
    static int scroll(GreyFrame prev, GreyFrame next, boolean[] same) {
        int w = next.width();
        int h = next.height();
        int cols = (w + TILE - 1) / TILE;
        int rows = (h + TILE - 1) / TILE;
        int c0 = cols;
        int c1 = -1;
        int r0 = rows;
        int r1 = -1;
        int changed = 0;
        for (int t = 0; t < same.length; t++) {
            if (!same[t]) {
                changed++;
                c0 = Math.min(c0, t % cols);
                c1 = Math.max(c1, t % cols);
                r0 = Math.min(r0, t / cols);
                r1 = Math.max(r1, t / cols);
            }
        }
        int x0 = c0 * TILE;
        int x1 = Math.min(w, (c1 + 1) * TILE);
        int y0 = r0 * TILE;
        int y1 = Math.min(h, (r1 + 1) * TILE);
        int span = y1 - y0;
        if (changed < 2 || span < MIN_SCROLL_SPAN) {
            return 0;
        }
        double[] mp = new double[h];
        double[] gp = new double[h];
        double[] mn = new double[h];
        double[] gn = new double[h];
        profile(prev, x0, x1, y0, y1, mp, gp);
        profile(next, x0, x1, y0, y1, mn, gn);
        int minOverlap = Math.max(2 * TILE, span / 3);
        int maxShift = span - minOverlap;
        double[] cost = new double[2 * maxShift + 1];
        for (int dy = -maxShift; dy <= maxShift; dy++) {
            double sum = 0;
            int n = 0;
            for (int y = Math.max(y0, y0 - dy); y < Math.min(y1, y1 - dy); y++) {
                sum += Math.abs(mn[y] - mp[y + dy]) + Math.abs(gn[y] - gp[y + dy]);
                n++;
            }
            cost[dy + maxShift] = dy == 0 || n == 0 ? Double.MAX_VALUE : sum / n;
        }
        List<Integer> candidates = new ArrayList<>();
        boolean[] taken = new boolean[cost.length];
        for (int k = 0; k < 5; k++) {
            int best = -1;
            for (int i = 0; i < cost.length; i++) {
                if (!taken[i] && cost[i] < Double.MAX_VALUE && (best < 0 || cost[i] < cost[best])) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            candidates.add(best - maxShift);
            for (int i = Math.max(0, best - 2); i <= Math.min(cost.length - 1, best + 2); i++) {
                taken[i] = true;
            }
        }
        int bestDy = 0;
        int bestExplained = 0;
        for (int dy : candidates) {
            boolean[] shifted = tiles(prev, next, dy);
            int explained = 0;
            for (int t = 0; t < same.length; t++) {
                explained += !same[t] && shifted[t] ? 1 : 0;
            }
            if (explained > bestExplained) {
                bestExplained = explained;
                bestDy = dy;
            }
        }
        return bestExplained >= Math.max(2, changed / 4) ? bestDy : 0;
    }

    private static void profile(GreyFrame f, int x0, int x1, int y0, int y1, double[] mean, double[] gradient) {
        byte[] px = f.px();
        int w = f.width();
        for (int y = y0; y < y1; y++) {
            long sum = 0;
            long grad = 0;
            int n = 0;
            int prev = px[y * w + x0] & 0xFF;
            for (int x = x0; x < x1; x++) {
                int v = px[y * w + x] & 0xFF;
                sum += v;
                grad += Math.abs(v - prev);
                prev = v;
                n++;
            }
            mean[y] = (double) sum / n;
            gradient[y] = (double) grad / n;
        }
    }
}
