package io.videoworld.engines.shots;

/**
 * Whether two consecutive screenshots show a different application or task, judged from the
 * 80-pixel-wide pictures alone. Colour statistics are the wrong evidence on screens: two
 * white-paged applications have nearly the same colours, while scrolling a page or a video
 * playing inside one changes many pixels. So a screen cuts when
 *
 * <ul>
 *   <li>{@code chrome}: the window chrome changed: the top band (title bar, tab strip, toolbar;
 *       the top {@link #CHROME_SHARE} of the picture) differs by at least {@link #CHROME_CHANGE}
 *       levels on average, which scrolling, typing and playing media never do; or</li>
 *   <li>{@code layout}: the arrangement of the page below it changed beyond what a vertical
 *       scroll explains: the page is cut into 4x4-pixel cells, a cell is "filled" when it has
 *       contrast (text, lines, pictures) and empty when it is flat; after the best vertical shift
 *       (up to {@link #MAX_SCROLL_SHARE} of the height) at least {@link #LAYOUT_CHANGE} of the
 *       cells changed between filled and empty. A new message, a typed line or a video playing
 *       in a player (whose cells stay what they were) stays under it.</li>
 * </ul>
 */
final class ScreenChange {
    static final double CHROME_SHARE = 0.08;
    static final double CHROME_CHANGE = 24;
    static final double MAX_SCROLL_SHARE = 0.3;
    static final double LAYOUT_CHANGE = 0.3;
    private static final int CELL = 4;
    /** Mean absolute deviation (grey levels) above which a cell is filled. */
    private static final double FILLED = 6;

    /** What was found: whether the screen changed, by which test, and its score (chrome: mean level difference; layout: share of cells). */
    record Verdict(boolean changed, String reason, double score) {}

    private ScreenChange() {}

    static Verdict judge(byte[] before, byte[] after, int width) {
        if (before.length != after.length) {
            return new Verdict(true, "layout", 1);
        }
        int height = before.length / 3 / width;
        // At least two rows of chrome, but never more rows than a very flat picture has.
        int band = Math.min(height, Math.max(2, (int) Math.ceil(CHROME_SHARE * height)));
        double chrome = meanDifference(before, after, width, 0, band, 0);
        if (chrome >= CHROME_CHANGE) {
            return new Verdict(true, "chrome", chrome);
        }
        float[] g0 = grey(before);
        float[] g1 = grey(after);
        int maxShift = (int) Math.round(MAX_SCROLL_SHARE * height);
        double best = Double.MAX_VALUE;
        int bestShift = 0;
        for (int dy = -maxShift; dy <= maxShift; dy++) {
            // Rows of the page that stay in view after a scroll by dy.
            int from = Math.max(band, band - dy);
            int to = Math.min(height, height - dy);
            if (to - from < (height - band) / 2) {
                continue;
            }
            double d = 0;
            for (int y = from; y < to; y++) {
                for (int x = 0; x < width; x++) {
                    d += Math.abs(g0[(y + dy) * width + x] - g1[y * width + x]);
                }
            }
            d /= (double) width * (to - from);
            if (d < best) {
                best = d;
                bestShift = dy;
            }
        }
        int from = Math.max(band, band - bestShift);
        int to = Math.min(height, height - bestShift);
        int cells = 0;
        int flipped = 0;
        for (int y = from; y + CELL <= to; y += CELL) {
            for (int x = 0; x + CELL <= width; x += CELL) {
                boolean was = filled(g0, width, x, y + bestShift);
                boolean is = filled(g1, width, x, y);
                cells++;
                flipped += was != is ? 1 : 0;
            }
        }
        double share = cells == 0 ? 0 : (double) flipped / cells;
        return share >= LAYOUT_CHANGE ? new Verdict(true, "layout", share) : new Verdict(false, "none", share);
    }

    private static boolean filled(float[] g, int width, int x0, int y0) {
        double mean = 0;
        for (int y = y0; y < y0 + CELL; y++) {
            for (int x = x0; x < x0 + CELL; x++) {
                mean += g[y * width + x];
            }
        }
        mean /= CELL * CELL;
        double dev = 0;
        for (int y = y0; y < y0 + CELL; y++) {
            for (int x = x0; x < x0 + CELL; x++) {
                dev += Math.abs(g[y * width + x] - mean);
            }
        }
        return dev / (CELL * CELL) > FILLED;
    }

    private static float[] grey(byte[] bgr) {
        float[] g = new float[bgr.length / 3];
        for (int i = 0; i < g.length; i++) {
            g[i] = 0.114f * (bgr[3 * i] & 0xFF) + 0.587f * (bgr[3 * i + 1] & 0xFF) + 0.299f * (bgr[3 * i + 2] & 0xFF);
        }
        return g;
    }

    /** Mean absolute difference over rows [from, to) of {@code after} and rows shifted by dy of {@code before}. */
    private static double meanDifference(byte[] before, byte[] after, int width, int from, int to, int dy) {
        long sum = 0;
        for (int y = from; y < to; y++) {
            int a = 3 * ((y + dy) * width);
            int b = 3 * (y * width);
            for (int i = 0; i < 3 * width; i++) {
                sum += Math.abs((before[a + i] & 0xFF) - (after[b + i] & 0xFF));
            }
        }
        return to <= from ? 0 : (double) sum / (3L * width * (to - from));
    }
}
