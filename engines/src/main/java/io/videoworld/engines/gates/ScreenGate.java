package io.videoworld.engines.gates;

import static io.videoworld.engines.gates.TileDiff.TILE;

import io.videoworld.core.TextLine;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.OcrEngine.Crop;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Change-gated OCR of keyframes, without Flink and without state of its own: a keyframe is
 * compared with its stream's last perceived one ({@link Last}, which the caller keeps: Flink keyed
 * state in {@code GatedPerception}) in {@value TileDiff#TILE}-pixel tiles ({@link TileDiff}).
 * Unchanged tiles keep their lines; when a vertical shift explains the change (scrolling), lines
 * whose tiles match after the shift are carried at their shifted place; only bands of tiles that
 * neither match nor shift (full width, {@value #MARGIN} pixels of margin) are read, and what is read
 * there replaces what was carried. A first keyframe, a new frame size, a change that would read
 * more than {@code fullFraction} of the frame, and every {@code fullEvery}-th keyframe of a stream
 * are read whole, which bounds drift. A live stream's whole read may be split into {@code slices}
 * bands of rows read on successive keyframes, top first ({@link Last#unreadFrom}): a whole
 * 1280x800 screen takes seconds of OCR, which would hold every other stream's turn; until the
 * last band is read the rows below have no lines.
 */
public final class ScreenGate {
    /** Pixels read above and below a changed band, so a line crossing its edge is read whole. */
    static final int MARGIN = 16;
    /** Share of tiles changed below which a keyframe's objects are carried over instead of detected again. */
    static final double OBJECTS_CHANGE = 0.05;

    /**
     * @param enabled false reads every keyframe whole
     * @param fullEvery every this many keyframes of a stream is read whole
     * @param fullFraction read whole when the bands to read would cover more than this share of the frame
     */
    public record Settings(boolean enabled, int fullEvery, double fullFraction, int slices) implements Serializable {
        /** Whole reads in one go. */
        public Settings(boolean enabled, int fullEvery, double fullFraction) {
            this(enabled, fullEvery, fullFraction, 1);
        }

        public static Settings off() {
            return new Settings(false, 1, 0);
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
     * @param unreadFrom rows from here down are not read yet (a sliced whole read); {@link #ALL_READ}: none
     */
    public record Plan(Kind kind, List<Crop> crops, List<Band> cores, List<TextLine> carried, int dy, double changedFraction,
            int unreadFrom) {
        public Plan(Kind kind, List<Crop> crops, List<Band> cores, List<TextLine> carried, int dy, double changedFraction) {
            this(kind, crops, cores, carried, dy, changedFraction, ALL_READ);
        }

        public long pixelsRead() {
            return crops.stream().mapToLong(Crop::pixels).sum();
        }
    }

    /** A keyframe's lines and how they were had. */
    public record Read(List<TextLine> lines, Plan plan) {}

    /**
     * A stream's last perceived keyframe as the gate compares with it.
     *
     * @param grey its luma
     * @param lines the lines it was read as
     * @param sinceFull keyframes perceived since the last whole read (0: it was one)
     * @param unreadFrom rows from here down are not read yet (a sliced whole read in progress); {@link #ALL_READ}: none
     */
    public record Last(GreyFrame grey, List<TextLine> lines, int sinceFull, int unreadFrom) {
        public Last(GreyFrame grey, List<TextLine> lines, int sinceFull) {
            this(grey, lines, sinceFull, ALL_READ);
        }
    }

    /** {@code unreadFrom} of a keyframe read to the bottom. */
    public static final int ALL_READ = Integer.MAX_VALUE;

    private final Settings settings;

    public ScreenGate(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    /** The plan for a keyframe against its stream's last one ({@code prev} null: none, a whole read). */
    public Plan plan(Last prev, GreyFrame grey) {
        return plan(prev, grey, false);
    }

    /** As {@link #plan(Last, GreyFrame)}; {@code sliced}: a whole read takes the top of {@code slices} bands, the next keyframes the rest. */
    public Plan plan(Last prev, GreyFrame grey, boolean sliced) {
        int h = grey.height();
        int slice = sliced && settings.enabled() && settings.slices() > 1 ? (h + settings.slices() - 1) / settings.slices() : h;
        Plan p = !settings.enabled() || prev == null || prev.grey().width() != grey.width() || prev.grey().height() != h
                || prev.sinceFull() + 1 >= settings.fullEvery() ? null
                : plan(prev.grey(), prev.lines(), grey, settings.fullFraction(), prev.unreadFrom());
        if (p == null) {
            List<Band> top = List.of(new Band(0, Math.min(h, slice)));
            return new Plan(Kind.FULL, crops(top, grey.width(), h), top, List.of(), 0, 1, slice >= h ? ALL_READ : slice);
        }
        if (prev.unreadFrom() >= h) {
            return p;
        }
        // A sliced whole read goes on: the next band of rows joins what changed.
        Band next = new Band(prev.unreadFrom(), Math.min(h, prev.unreadFrom() + slice));
        List<Band> cores = new ArrayList<>(p.cores());
        cores.add(next);
        List<Band> merged = mergeBands(cores);
        List<TextLine> kept = p.carried().stream().filter(l -> merged.stream().noneMatch(b -> b.holds(l.y() + l.height() / 2.0))).toList();
        return new Plan(Kind.PARTIAL, crops(merged, grey.width(), h), merged, kept, p.dy(), p.changedFraction(),
                next.y1() >= h ? ALL_READ : next.y1());
    }

    /** Reads a keyframe by its plan against {@code prev}: one {@link OcrEngine#readCrops} call for all its bands. */
    public Read read(Last prev, DecodedImage image, GreyFrame grey, OcrEngine ocr) {
        return read(prev, image, grey, ocr, false);
    }

    /**
     * As {@link #read(Last, DecodedImage, GreyFrame, OcrEngine)}; {@code sliced} (a live stream): a whole read is split into
     * slices, and lines whose ink the reader recognised before are taken from its line memo (not repeatable, and no
     * need: shedding already makes a live stream's reads depend on timing; a file's reads stay a function of its pixels).
     */
    public Read read(Last prev, DecodedImage image, GreyFrame grey, OcrEngine ocr, boolean sliced) {
        Plan p = plan(prev, grey, sliced);
        List<List<TextLine>> read = p.crops().isEmpty() ? List.of()
                : ocr.readCrops(p.crops().stream().map(c -> image).toList(), p.crops(), sliced);
        return new Read(merge(p, read), p);
    }

    /** What the gate keeps of a keyframe once read by {@code p}, to compare the stream's next one with. */
    public static Last remember(Last prev, GreyFrame grey, Plan p, List<TextLine> lines) {
        return new Last(grey, List.copyOf(lines), p.kind() == Kind.FULL || prev == null ? 0 : prev.sinceFull() + 1, p.unreadFrom());
    }

    /** Whether a keyframe read by this plan should be detected again rather than keep the last objects. */
    public static boolean detectAgain(Plan p) {
        return p.kind() == Kind.FULL || p.changedFraction() >= OBJECTS_CHANGE || p.dy() != 0;
    }

    /**
     * The plan for {@code next} against {@code prev} and its lines; null when a full read is the
     * better deal (the bands would cover more than {@code fullFraction} of the frame).
     */
    static Plan plan(GreyFrame prev, List<TextLine> prevLines, GreyFrame next, double fullFraction) {
        return plan(prev, prevLines, next, fullFraction, ALL_READ);
    }

    /** As {@link #plan(GreyFrame, List, GreyFrame, double)}, with rows from {@code unreadFrom} down left to a sliced read (not planned here). */
    static Plan plan(GreyFrame prev, List<TextLine> prevLines, GreyFrame next, double fullFraction, int unreadFrom) {
        int cols = (next.width() + TILE - 1) / TILE;
        int rows = (next.height() + TILE - 1) / TILE;
        boolean[] same = TileDiff.tiles(prev, next, 0);
        int changed = 0;
        for (boolean s : same) {
            changed += s ? 0 : 1;
        }
        double changedFraction = (double) changed / same.length;
        if (changed == 0) {
            return new Plan(Kind.REUSE, List.of(), List.of(), prevLines, 0, 0);
        }
        int dy = TileDiff.scroll(prev, next, same);
        boolean[] shifted = dy == 0 ? new boolean[same.length] : TileDiff.tiles(prev, next, dy);
        boolean[] need = new boolean[same.length];
        for (int t = 0; t < same.length; t++) {
            need[t] = !same[t] && !shifted[t] && (t / cols) * TILE < unreadFrom;
        }
        List<TextLine> carried = new ArrayList<>();
        List<int[]> uncarried = new ArrayList<>();
        for (TextLine l : prevLines) {
            if (TileDiff.all(same, cols, rows, l.x(), l.y(), l.width(), l.height())) {
                carried.add(l);
            } else if (dy != 0 && l.y() - dy >= 0 && l.y() - dy + l.height() <= next.height()
                    && TileDiff.all(shifted, cols, rows, l.x(), l.y() - dy, l.width(), l.height())) {
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
        List<Crop> crops = crops(cores, next.width(), next.height());
        long pixels = crops.stream().mapToLong(Crop::pixels).sum();
        if (pixels > fullFraction * next.width() * next.height()) {
            return null;
        }
        List<Band> finalCores = cores;
        List<TextLine> kept = carried.stream().filter(l -> finalCores.stream().noneMatch(b -> b.holds(l.y() + l.height() / 2.0))).toList();
        return new Plan(crops.isEmpty() ? Kind.REUSE : Kind.PARTIAL, crops, cores, kept, dy, changedFraction);
    }

    /** Full-width crops of the bands with their margins. */
    private static List<Crop> crops(List<Band> cores, int width, int height) {
        List<Crop> crops = new ArrayList<>();
        for (Band b : cores) {
            int y0 = Math.max(0, b.y0() - MARGIN);
            int y1 = Math.min(height, b.y1() + MARGIN);
            crops.add(new Crop(0, y0, width, y1 - y0));
        }
        return crops;
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
        if (p.kind() == Kind.FULL && p.unreadFrom() == ALL_READ) {
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

}
