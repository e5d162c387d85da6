package io.videoworld.operators.inference;

import io.videoworld.core.Detection;
import io.videoworld.core.TextLine;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.OcrEngine.Crop;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Change-gated OCR of keyframes, without Flink: each stream's last perceived keyframe (its luma,
 * full size, and the lines read from it) is kept, and a new keyframe is compared with it in
 * {@value #TILE}-pixel tiles. Unchanged tiles keep their lines; when a vertical shift explains the
 * change (scrolling, found by comparing row profiles, then checked tile by tile), lines whose tiles
 * match after the shift are carried at their shifted place; only bands of tiles that neither match
 * nor shift (full width, {@value #MARGIN} pixels of margin) are read, and what is read there
 * replaces what was carried. A first keyframe, a new frame size, a change that would read more than
 * {@code fullFraction} of the frame, and every {@code fullEvery}-th keyframe of a stream are read
 * whole, which bounds drift. The cache is a cache: bounded in bytes (least recently perceived
 * streams go first), lost on a restart (the next keyframe is read whole), never checkpointed.
 */
public final class ScreenGate {
    /** Tile side in pixels. */
    static final int TILE = 32;
    /** Grey levels by which a pixel must differ to count as changed (above JPEG's noise on screens). */
    static final int PIXEL_DELTA = 24;
    /** Changed pixels that make a tile changed. */
    static final int MIN_PIXELS = 4;
    /** Pixels read above and below a changed band, so a line crossing its edge is read whole. */
    static final int MARGIN = 16;
    /** Fewest pixel rows of change before a scroll is looked for. */
    static final int MIN_SCROLL_SPAN = 4 * TILE;
    /** Share of tiles changed below which a keyframe's objects are carried over instead of detected again. */
    static final double OBJECTS_CHANGE = 0.05;

    /**
     * @param enabled false reads every keyframe whole
     * @param fullEvery every this many keyframes of a stream is read whole
     * @param fullFraction read whole when the bands to read would cover more than this share of the frame
     * @param cacheBytes most bytes of last keyframes kept per instance (about width x height per stream)
     */
    public record Settings(boolean enabled, int fullEvery, double fullFraction, long cacheBytes) implements Serializable {
        public static Settings off() {
            return new Settings(false, 1, 0, 0);
        }
    }

    /** How a keyframe is read. */
    public enum Kind { FULL, PARTIAL, REUSE }

    /** A band of rows [y0, y1). */
    record Band(int y0, int y1) {
        boolean holds(double y) {
            return y >= y0 && y < y1;
        }
    }

    /**
     * What to read of a keyframe and what to carry.
     *
     * @param kind full read, bands only, or nothing
     * @param crops what to read (the whole frame for a full read)
     * @param cores for each crop, the rows whose lines are taken from it (the margins are not)
     * @param carried lines of the last keyframe kept, at their place in this one
     * @param dy vertical shift: row y of this keyframe shows row y + dy of the last one (0: none)
     * @param changedFraction share of tiles that differ in place (before any shift)
     */
    public record Plan(Kind kind, List<Crop> crops, List<Band> cores, List<TextLine> carried, int dy, double changedFraction) {
        public long pixelsRead() {
            return crops.stream().mapToLong(Crop::pixels).sum();
        }
    }

    /** A keyframe's lines and how they were had. */
    public record Read(List<TextLine> lines, Plan plan) {}

    private record Seen(GreyFrame grey, List<TextLine> lines, int sinceFull, List<Detection> objects) {
        long bytes() {
            return grey.bytes() + 96L * lines.size() + 64L * (objects == null ? 0 : objects.size()) + 128;
        }
    }

    private final Settings settings;
    private final LinkedHashMap<String, Seen> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    public ScreenGate(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    /** Bytes the cache holds now. */
    public long cacheBytes() {
        return bytes;
    }

    /** Streams the cache holds now. */
    public int streams() {
        return cache.size();
    }

    public void clear() {
        cache.clear();
        bytes = 0;
    }

    /**
     * Reads keyframes of any streams, in order: the k-th keyframe of each stream in the list is
     * planned against the (k-1)-th, so keyframes of one stream may share a batch; crops of all
     * streams' k-th keyframes are read as one {@link OcrEngine#readCrops} call.
     */
    public List<Read> readAll(List<String> streams, List<DecodedImage> images, OcrEngine ocr) {
        Read[] out = new Read[images.size()];
        List<List<Integer>> rounds = new ArrayList<>();
        Map<String, Integer> seenInBatch = new HashMap<>();
        for (int i = 0; i < images.size(); i++) {
            int r = seenInBatch.merge(streams.get(i), 1, Integer::sum) - 1;
            if (rounds.size() <= r) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(r).add(i);
        }
        for (List<Integer> round : rounds) {
            Plan[] plans = new Plan[round.size()];
            GreyFrame[] greys = new GreyFrame[round.size()];
            List<DecodedImage> cropImages = new ArrayList<>();
            List<Crop> crops = new ArrayList<>();
            for (int k = 0; k < round.size(); k++) {
                int i = round.get(k);
                DecodedImage img = images.get(i);
                greys[k] = GreyFrame.of(img);
                plans[k] = plan(streams.get(i), greys[k]);
                for (Crop c : plans[k].crops()) {
                    cropImages.add(img);
                    crops.add(c);
                }
            }
            List<List<TextLine>> read = crops.isEmpty() ? List.of() : ocr.readCrops(cropImages, crops);
            int next = 0;
            for (int k = 0; k < round.size(); k++) {
                int i = round.get(k);
                Plan p = plans[k];
                List<TextLine> lines = merge(p, read.subList(next, next + p.crops().size()));
                next += p.crops().size();
                remember(streams.get(i), greys[k], p, lines);
                out[i] = new Read(lines, p);
            }
        }
        return List.of(out);
    }

    /** The plan for a stream's next keyframe against the last one perceived. */
    public Plan plan(String stream, GreyFrame grey) {
        Seen prev = settings.enabled() ? cache.get(stream) : null;
        Plan full = new Plan(Kind.FULL, List.of(new Crop(0, 0, grey.width(), grey.height())), List.of(new Band(0, grey.height())), List.of(), 0, 1);
        if (prev == null || prev.grey().width() != grey.width() || prev.grey().height() != grey.height()
                || prev.sinceFull() + 1 >= settings.fullEvery()) {
            return full;
        }
        Plan p = plan(prev.grey(), prev.lines(), grey, settings.fullFraction());
        return p == null ? full : p;
    }

    /** Lines of the last keyframe perceived of a stream (empty when none). */
    List<TextLine> lastLines(String stream) {
        Seen s = cache.get(stream);
        return s == null ? List.of() : s.lines();
    }

    /** Objects detected on the stream's last keyframe; null when none are known. */
    public List<Detection> objects(String stream) {
        Seen s = cache.get(stream);
        return s == null ? null : s.objects();
    }

    /** Records what was detected on the stream's latest keyframe. */
    public void objects(String stream, List<Detection> objects) {
        Seen s = cache.get(stream);
        if (s != null) {
            put(stream, new Seen(s.grey(), s.lines(), s.sinceFull(), objects));
        }
    }

    /** Whether a keyframe read by this plan should be detected again rather than keep the last objects. */
    public static boolean detectAgain(Plan p) {
        return p.kind() == Kind.FULL || p.changedFraction() >= OBJECTS_CHANGE || p.dy() != 0;
    }

    void remember(String stream, GreyFrame grey, Plan p, List<TextLine> lines) {
        if (!settings.enabled()) {
            return;
        }
        Seen old = cache.get(stream);
        int since = p.kind() == Kind.FULL || old == null ? 0 : old.sinceFull() + 1;
        put(stream, new Seen(grey, List.copyOf(lines), since, old == null ? null : old.objects()));
    }

    private void put(String stream, Seen s) {
        Seen old = cache.put(stream, s);
        bytes += s.bytes() - (old == null ? 0 : old.bytes());
        Iterator<Map.Entry<String, Seen>> it = cache.entrySet().iterator();
        while (bytes > settings.cacheBytes() && it.hasNext()) {
            Map.Entry<String, Seen> e = it.next();
            if (e.getKey().equals(stream) && cache.size() == 1) {
                break;
            }
            bytes -= e.getValue().bytes();
            it.remove();
        }
    }

    /**
     * The plan for {@code next} against {@code prev} and its lines; null when a full read is the
     * better deal (the bands would cover more than {@code fullFraction} of the frame).
     */
    static Plan plan(GreyFrame prev, List<TextLine> prevLines, GreyFrame next, double fullFraction) {
        int cols = (next.width() + TILE - 1) / TILE;
        int rows = (next.height() + TILE - 1) / TILE;
        boolean[] same = tiles(prev, next, 0);
        int changed = 0;
        for (boolean s : same) {
            changed += s ? 0 : 1;
        }
        double changedFraction = (double) changed / same.length;
        if (changed == 0) {
            return new Plan(Kind.REUSE, List.of(), List.of(), prevLines, 0, 0);
        }
        int dy = scroll(prev, next, same);
        boolean[] shifted = dy == 0 ? new boolean[same.length] : tiles(prev, next, dy);
        boolean[] need = new boolean[same.length];
        for (int t = 0; t < same.length; t++) {
            need[t] = !same[t] && !shifted[t];
        }
        List<TextLine> carried = new ArrayList<>();
        List<int[]> uncarried = new ArrayList<>();
        for (TextLine l : prevLines) {
            if (all(same, cols, rows, l.x(), l.y(), l.width(), l.height())) {
                carried.add(l);
            } else if (dy != 0 && l.y() - dy >= 0 && l.y() - dy + l.height() <= next.height()
                    && all(shifted, cols, rows, l.x(), l.y() - dy, l.width(), l.height())) {
                carried.add(new TextLine(l.text(), l.x(), l.y() - dy, l.width(), l.height(), l.score()));
            } else {
                uncarried.add(new int[] {l.y(), l.y() + l.height()});
                if (dy != 0) {
                    uncarried.add(new int[] {l.y() - dy, l.y() - dy + l.height()});
                }
            }
        }
        List<Band> cores = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            boolean any = false;
            for (int c = 0; c < cols && !any; c++) {
                any = need[r * cols + c];
            }
            if (any) {
                int y0 = r * TILE;
                int y1 = Math.min(next.height(), y0 + TILE);
                if (!cores.isEmpty() && cores.get(cores.size() - 1).y1() >= y0) {
                    cores.set(cores.size() - 1, new Band(cores.get(cores.size() - 1).y0(), y1));
                } else {
                    cores.add(new Band(y0, y1));
                }
            }
        }
        // A line that could not be carried and crosses a band is read whole: the band grows to hold it.
        for (boolean grown = true; grown;) {
            grown = false;
            for (int b = 0; b < cores.size(); b++) {
                Band band = cores.get(b);
                int y0 = band.y0();
                int y1 = band.y1();
                for (int[] u : uncarried) {
                    if (u[0] < y1 && u[1] > y0) {
                        y0 = Math.max(0, Math.min(y0, u[0]));
                        y1 = Math.min(next.height(), Math.max(y1, u[1]));
                    }
                }
                if (y0 != band.y0() || y1 != band.y1()) {
                    cores.set(b, new Band(y0, y1));
                    grown = true;
                }
            }
            cores = mergeBands(cores);
        }
        List<Crop> crops = new ArrayList<>();
        long pixels = 0;
        for (Band b : cores) {
            int y0 = Math.max(0, b.y0() - MARGIN);
            int y1 = Math.min(next.height(), b.y1() + MARGIN);
            crops.add(new Crop(0, y0, next.width(), y1 - y0));
            pixels += (long) next.width() * (y1 - y0);
        }
        if (pixels > fullFraction * next.width() * next.height()) {
            return null;
        }
        List<Band> finalCores = cores;
        List<TextLine> kept = carried.stream().filter(l -> finalCores.stream().noneMatch(b -> b.holds(l.y() + l.height() / 2.0))).toList();
        return new Plan(crops.isEmpty() ? Kind.REUSE : Kind.PARTIAL, crops, cores, kept, dy, changedFraction);
    }

    /** Bands that overlap or lie within two margins of each other become one (their margins would be read twice). */
    private static List<Band> mergeBands(List<Band> in) {
        List<Band> sorted = new ArrayList<>(in);
        sorted.sort(Comparator.comparingInt(Band::y0));
        List<Band> out = new ArrayList<>();
        for (Band b : sorted) {
            if (!out.isEmpty() && out.get(out.size() - 1).y1() + 2 * MARGIN >= b.y0()) {
                Band last = out.remove(out.size() - 1);
                out.add(new Band(last.y0(), Math.max(last.y1(), b.y1())));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    /** The keyframe's lines: carried ones, and what the crops read inside their cores, top to bottom. */
    static List<TextLine> merge(Plan p, List<List<TextLine>> read) {
        if (p.kind() == Kind.FULL) {
            return read.get(0);
        }
        List<TextLine> out = new ArrayList<>(p.carried());
        for (int c = 0; c < read.size(); c++) {
            Band core = p.cores().get(c);
            for (TextLine l : read.get(c)) {
                if (core.holds(l.y() + l.height() / 2.0)) {
                    out.add(l);
                }
            }
        }
        out.sort(Comparator.comparingInt((TextLine l) -> l.y() / Math.max(1, l.height() / 2)).thenComparingInt(TextLine::x));
        return out;
    }

    private static boolean all(boolean[] tiles, int cols, int rows, int x, int y, int w, int h) {
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
