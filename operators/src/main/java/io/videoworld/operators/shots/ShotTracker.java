package io.videoworld.operators.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.operators.shots.ShotState.Boundary;
import io.videoworld.operators.shots.ShotState.Gradual;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Shot and scene detection for one stream, one frame at a time, in two stages.
 *
 * <p>Decision: frame t is judged once {@code lookahead} later frames are in, which the adaptive
 * detector (neighbours on both sides) and the flash check (does the picture come back?) need.
 * Cuts come from the content and adaptive detectors; on screens from {@link ScreenChange} (the
 * application's chrome or the layout changed, not a scroll or a few typed words). Fades come from
 * runs of black frames. Gradual transitions (dissolves, and fades that do not reach black) are
 * judged {@code gradualLag} frames behind, centred on a frame with the window around it in hand,
 * and must fit {@link BlendModel} (or, with the wipe detector on, {@link WipeModel}); their
 * boundary is where the mix passes one half.
 *
 * <p>Assembly ({@link ShotAssembler}): frames join shots behind the gradual decisions, because a
 * transition is only recognised once it has passed and its boundary lies in the middle of it.
 */
public final class ShotTracker {

    /** Where results go. */
    public interface Output {
        void keyframe(Keyframe keyframe);

        void segment(Segment segment);
    }

    private final ShotParams p;
    private final double fps;
    private final int[] halfWidths;
    private final int maxHalf;
    private final int spill;
    private final int gradualLag;
    private final int minShotFrames;
    private final int lookahead;
    private final int assemblyLag;
    private final long frameMs;

    private long firstPosition;
    private final ArrayList<FrameFeatures> frames;
    private final ArrayList<Double> contents;
    /** BGR pictures of {@code frames}, rebuilt from their HSV images, and the same at half size (not part of the state). */
    private final ArrayList<byte[]> pictures;
    private final ArrayList<byte[]> halves;
    private long nextDecide;
    private long nextAssemble;
    private final TreeMap<Long, Boundary> pending = new TreeMap<>();
    private boolean inDark;
    private boolean seenLight;
    private long darkStart;
    private Gradual gradual;
    private long lastKeptHash;
    private long lastSeenPtsMs;
    private long lastSeenEventTimeMs;
    private final ShotAssembler assembler;
    private long duplicatesDropped;
    private final BlendModel.Frames window = new BlendModel.Frames() {
        @Override
        public boolean has(long position) {
            return ShotTracker.this.has(position);
        }

        @Override
        public byte[] bgr(long position) {
            return picture(position);
        }

        @Override
        public byte[] small(long position) {
            return halves.get((int) (position - firstPosition));
        }

        @Override
        public int width() {
            return frames.isEmpty() ? 1 : frames.get(0).featureWidth();
        }
    };

    private ShotTracker(ShotParams p, ShotState s) {
        this.p = p;
        this.fps = s.fps() > 0 ? s.fps() : 25;
        double longest = Math.max(0.2, p.dissolveWindowSec());
        // A mix is told from a cut or a drift only over a few frames: at low sample rates the
        // shortest windows are left out (at least two frames on each side of the middle).
        this.halfWidths = java.util.Arrays.stream(BlendModel.HALF_WIDTHS_SEC).filter(h -> 2 * h <= longest + 1e-9)
                .mapToInt(h -> (int) Math.round(h * fps)).filter(h -> h >= BlendModel.MIN_HALF).distinct().toArray();
        this.maxHalf = halfWidths.length == 0 ? 1 : halfWidths[halfWidths.length - 1];
        this.spill = Math.max(BlendModel.MIN_HALF, (int) Math.round(BlendModel.SPILL_SEC * fps));
        this.gradualLag = maxHalf + Math.max(maxHalf, spill);
        this.minShotFrames = Math.max(1, (int) Math.round(p.minShotSec() * fps));
        this.lookahead = Math.max(p.adaptiveWindow(), p.flashFrames());
        // A gradual boundary lands up to three half-widths before the centre that closes it.
        this.assemblyLag = Math.max(gradualLag + 3 * maxHalf + 2, minShotFrames + lookahead + 2);
        this.frameMs = Math.round(1000 / fps);
        this.firstPosition = s.firstPosition();
        this.frames = new ArrayList<>(s.frames());
        this.contents = new ArrayList<>(s.contents());
        this.pictures = new ArrayList<>(frames.size());
        this.halves = new ArrayList<>(frames.size());
        for (FrameFeatures f : frames) {
            addPicture(f, null);
        }
        this.nextDecide = s.nextDecide();
        this.nextAssemble = s.nextAssemble();
        for (Boundary b : s.pending()) {
            pending.put(b.position(), b);
        }
        this.inDark = s.inDark();
        this.seenLight = s.seenLight();
        this.darkStart = s.darkStart();
        this.gradual = s.gradual();
        this.lastKeptHash = s.lastKeptHash();
        this.lastSeenPtsMs = s.lastSeenPtsMs();
        this.lastSeenEventTimeMs = s.lastSeenEventTimeMs();
        this.assembler = new ShotAssembler(p, minShotFrames, frameMs, s.shot(), s.scene());
    }

    /** A tracker for a new stream sampled at {@code fps}. */
    public static ShotTracker start(ShotParams p, double fps) {
        return new ShotTracker(p, new ShotState(fps, 0, List.of(), List.of(), 0, 0, List.of(), false, false, -1, null,
                0, 0, 0, null, null));
    }

    /** A tracker continuing from saved state. */
    public static ShotTracker restore(ShotParams p, ShotState s) {
        return new ShotTracker(p, s);
    }

    public ShotState state() {
        return new ShotState(fps, firstPosition, List.copyOf(frames), List.copyOf(contents), nextDecide,
                nextAssemble, List.copyOf(pending.values()), inDark, seenLight, darkStart, gradual, lastKeptHash,
                lastSeenPtsMs, lastSeenEventTimeMs, assembler.shot(), assembler.scene());
    }

    /** Screen frames dropped as near-duplicates since this tracker was created or restored. */
    public long duplicatesDropped() {
        return duplicatesDropped;
    }

    /** Takes the next frame of the stream. */
    public void accept(FrameFeatures f, Output out) {
        accept(f, null, out);
    }

    /**
     * Takes the next frame of the stream with its picture already decoded ({@code bgr}: BGR,
     * {@code featureWidth x featureHeight}), which saves rebuilding it from the HSV image; null
     * rebuilds it.
     */
    public void accept(FrameFeatures f, byte[] bgr, Output out) {
        lastSeenPtsMs = f.ptsMs();
        lastSeenEventTimeMs = f.eventTimeMs();
        FrameFeatures prev = frames.isEmpty() ? null : frames.get(frames.size() - 1);
        if (f.sourceKind() == SourceKind.SCREEN && prev != null && lastKeptHash != 0
                && FrameDistance.hamming(f.dhash(), lastKeptHash) <= p.screenDuplicateBits() && !FrameDistance.anyPixelChanged(prev, f)) {
            duplicatesDropped++;
            return;
        }
        lastKeptHash = f.dhash() == 0 ? 1 : f.dhash();
        frames.add(f);
        addPicture(f, bgr);
        contents.add(prev == null ? 0.0 : FrameDistance.content(prev, f));
        long last = lastPosition();
        while (last - nextDecide >= lookahead) {
            decide(nextDecide++, out);
        }
        while (nextDecide - nextAssemble > assemblyLag) {
            assemble(nextAssemble++, out);
        }
        trim();
    }

    /** The stream ended (or went idle): decides and assembles what is left and closes the shot and scene. */
    public void finish(Output out) {
        long last = lastPosition();
        while (nextDecide <= last) {
            decide(nextDecide++, out);
        }
        if (gradualOn()) {
            for (long c = Math.max(firstPosition, last + 1 - gradualLag); c <= last; c++) {
                judgeGradual(c);
            }
            closeGradual();
        }
        long darkRun = last + 1 - darkStart;
        if (inDark && seenLight && darkStart >= 0 && darkRun < longDark()
                && (darkRun >= minShotFrames || darkStart - rampStart(darkStart) >= Math.round(0.3 * fps))) {
            // The stream ends on black after a fade out (or a while of black): a boundary of its own.
            addBoundary(fadeOut(darkStart));
        }
        while (nextAssemble <= last) {
            assemble(nextAssemble++, out);
        }
        assembler.finish(frames.isEmpty() ? null : frames.get(frames.size() - 1), lastSeenPtsMs, lastSeenEventTimeMs, out);
    }

    private void addPicture(FrameFeatures f, byte[] decoded) {
        byte[] bgr = decoded != null && decoded.length == f.hsv().length ? decoded : BlendModel.bgr(f);
        pictures.add(bgr);
        halves.add(BlendModel.half(bgr, f.featureWidth()));
    }

    private long lastPosition() {
        return firstPosition + frames.size() - 1;
    }

    private boolean has(long position) {
        return position >= firstPosition && position <= lastPosition();
    }

    private FrameFeatures at(long position) {
        return frames.get((int) (position - firstPosition));
    }

    private byte[] picture(long position) {
        return pictures.get((int) (position - firstPosition));
    }

    private double contentAt(long position) {
        return contents.get((int) (position - firstPosition));
    }

    private boolean dark(FrameFeatures f) {
        return f.luma() < p.fadeFloor();
    }

    private boolean screen() {
        return !frames.isEmpty() && frames.get(frames.size() - 1).sourceKind() == SourceKind.SCREEN;
    }

    /** Gradual transitions are looked for in video; screenshots a second apart have none. */
    private boolean gradualOn() {
        return p.uses(ShotParams.DISSOLVE) && !screen() && halfWidths.length > 0;
    }

    private void decide(long t, Output out) {
        FrameFeatures f = at(t);
        boolean dark = dark(f);
        if (p.uses(ShotParams.FADE)) {
            if (dark && !inDark) {
                inDark = true;
                darkStart = t;
            } else if (dark && seenLight && t - darkStart + 1 == longDark()) {
                // Black for a while: the fade out ends a shot now, and the picture that returns starts another.
                addBoundary(fadeOut(darkStart));
            } else if (!dark && inDark) {
                inDark = false;
                darkStart = -1;
                if (seenLight) {
                    addBoundary(new Boundary(t, ShotParams.FADE, ShotParams.FADE, f.luma()));
                }
            }
        }
        if (!dark) {
            seenLight = true;
        }
        if (has(t - 1)) {
            if (f.sourceKind() == SourceKind.SCREEN) {
                decideScreen(t);
            } else {
                decideCut(t);
            }
        }
        if (gradualOn() && has(t - gradualLag)) {
            judgeGradual(t - gradualLag);
        }
    }

    /** Frames of black after which a fade out is a boundary even before the picture returns (two seconds). */
    private long longDark() {
        return Math.max(minShotFrames, Math.round(2 * fps));
    }

    /**
     * The boundary of a fade out whose first black frame is {@code firstDark}: the middle of the
     * ramp down (as far back as brightness kept falling, up to two seconds).
     */
    private Boundary fadeOut(long firstDark) {
        long from = rampStart(firstDark);
        long at = Math.max(Math.max(nextAssemble, firstPosition + 1), (from + firstDark + 1) / 2);
        return new Boundary(at, ShotParams.FADE, ShotParams.FADE, at(at).luma());
    }

    /** The first frame of the ramp down into {@code firstDark}: as far back as brightness kept falling, up to two seconds. */
    private long rampStart(long firstDark) {
        long from = firstDark;
        long limit = Math.max(Math.max(firstPosition, nextAssemble), firstDark - Math.round(2 * fps));
        while (from - 1 >= limit && at(from - 1).luma() > at(from).luma()) {
            from--;
        }
        return from;
    }

    private void decideCut(long t) {
        double c = contentAt(t);
        String detector = null;
        if (p.uses(ShotParams.CONTENT) && c >= p.contentThreshold()) {
            detector = ShotParams.CONTENT;
        }
        if (p.uses(ShotParams.ADAPTIVE) && c >= p.adaptiveMinContent()) {
            double sum = 0;
            int n = 0;
            for (long k = t - p.adaptiveWindow(); k <= t + p.adaptiveWindow(); k++) {
                // A neighbour needs a predecessor to have a score at all.
                if (k != t && has(k) && has(k - 1)) {
                    sum += contentAt(k);
                    n++;
                }
            }
            double avg = n == 0 ? 0 : sum / n;
            if (avg <= 1e-6 || c / avg >= p.adaptiveRatio()) {
                detector = detector == null ? ShotParams.ADAPTIVE : detector;
            }
        }
        if (detector != null && !isFlash(t)) {
            addBoundary(new Boundary(t, "cut", detector, c));
        }
    }

    /**
     * Screens: a new shot when the application or task on screen changes ({@link ScreenChange}),
     * not when a page scrolls or a few words are typed; a screen that flips to something and back
     * within the flash window (a menu, a notification; {@code flashFrames} frame intervals) does
     * not cut either.
     */
    private void decideScreen(long t) {
        if (!p.uses(ShotParams.CONTENT) && !p.uses(ShotParams.ADAPTIVE)) {
            return;
        }
        int width = at(t).featureWidth();
        ScreenChange.Verdict v = ScreenChange.judge(picture(t - 1), picture(t), width);
        if (!v.changed()) {
            return;
        }
        // Near-duplicates are dropped, so the next frames kept may be long after: only those within
        // the flash window in time count (an app left idle and then left again is no flash).
        long until = at(t).ptsMs() + p.flashFrames() * frameMs;
        for (long k = t + 1; k <= t + p.flashFrames() && has(k) && at(k).ptsMs() <= until; k++) {
            if (!ScreenChange.judge(picture(t - 1), picture(k), width).changed()) {
                return;
            }
        }
        addBoundary(new Boundary(t, "cut", v.reason(), v.score()));
    }

    /**
     * A flash or a one-off glitch: within a few frames the picture is back to what it was
     * before, seen from either end (t starts the flash, or t is the first frame after it).
     */
    private boolean isFlash(long t) {
        FrameFeatures before = at(t - 1);
        for (long k = t + 1; k <= t + p.flashFrames() && has(k); k++) {
            if (FrameDistance.content(before, at(k)) < p.contentThreshold() / 2) {
                return true;
            }
        }
        FrameFeatures now = at(t);
        for (long k = t - 2; k >= t - 1 - p.flashFrames() && has(k); k--) {
            if (FrameDistance.content(at(k), now) < p.contentThreshold() / 2) {
                return true;
            }
        }
        return false;
    }

    /**
     * Fits the blend model centred on {@code c} at every half-width; overlapping fits are one
     * transition (the strongest is kept), which is judged once the stretch has passed.
     */
    private void judgeGradual(long c) {
        Gradual best = null;
        for (int h : halfWidths) {
            if (!has(c - h) || !has(c + h) || darkWithin(c - h - spill, c + h + spill)) {
                continue;
            }
            Gradual g = BlendModel.fit(window, c, h, Math.max(h, spill), p.dissolveThreshold(), p.dissolveMaxStep());
            if (g != null && (best == null || g.strength() > best.strength())) {
                best = g;
            }
            Gradual w = p.uses(ShotParams.WIPE) ? WipeModel.fit(window, c, h, Math.max(h, spill), p.dissolveThreshold(), p.dissolveMaxStep()) : null;
            if (w != null && (best == null || w.strength() > best.strength())) {
                best = w;
            }
        }
        if (gradual != null && (best != null ? best.centre() - best.half() > gradual.centre() + gradual.half()
                : c - maxHalf > gradual.centre() + gradual.half())) {
            closeGradual();
        }
        if (best != null && (gradual == null || best.strength() > gradual.strength())) {
            gradual = best;
        }
    }

    /** Whether a frame in [from, to] is black: fades through black are the fade detector's. */
    private boolean darkWithin(long from, long to) {
        for (long k = Math.max(from, firstPosition); k <= Math.min(to, lastPosition()); k++) {
            if (dark(at(k))) {
                return true;
            }
        }
        return false;
    }

    /** Decides the transition held in {@link #gradual}: it stands unless shifting blocks of one end frame explains the other. */
    private void closeGradual() {
        Gradual g = gradual;
        gradual = null;
        if (g == null || !has(g.centre() - g.half()) || !has(g.centre() + g.half())) {
            return;
        }
        byte[] a = picture(g.centre() - g.half());
        byte[] b = picture(g.centre() + g.half());
        if (a.length != b.length || !BlendModel.notMotion(a, b, at(g.centre()).featureWidth())) {
            return;
        }
        long at = Math.max(g.middle(), Math.max(nextAssemble, firstPosition + 1));
        // A cut the adaptive detector saw inside a mix was a fast part of it.
        pending.subMap(g.centre() - g.half(), true, g.centre() + g.half(), true).values()
                .removeIf(b2 -> "cut".equals(b2.transition()));
        addBoundary(new Boundary(at, ShotParams.DISSOLVE, ShotParams.DISSOLVE, g.change()));
    }

    /** Boundaries closer than the minimum shot length to one already found are dropped. */
    private void addBoundary(Boundary b) {
        Map.Entry<Long, Boundary> below = pending.floorEntry(b.position());
        Map.Entry<Long, Boundary> above = pending.ceilingEntry(b.position());
        if ((below != null && b.position() - below.getKey() < minShotFrames)
                || (above != null && above.getKey() - b.position() < minShotFrames)) {
            return;
        }
        pending.put(b.position(), b);
    }

    private void assemble(long a, Output out) {
        Boundary b = pending.remove(a);
        pending.headMap(a).clear();
        assembler.add(a, at(a), b, lastSeenPtsMs, lastSeenEventTimeMs, out);
    }

    /** Keeps only the frames later decisions can still look at, and drops JPEGs assembly is done with. */
    private void trim() {
        long keepFrom = Math.min(nextAssemble, nextDecide - Math.max(gradualLag + maxHalf + spill, p.adaptiveWindow() + p.flashFrames()) - 2);
        while (firstPosition < keepFrom && frames.size() > 1) {
            frames.remove(0);
            contents.remove(0);
            pictures.remove(0);
            halves.remove(0);
            firstPosition++;
        }
        for (long k = firstPosition; k < nextAssemble; k++) {
            FrameFeatures f = at(k);
            if (f.jpeg() != null && f.jpeg().length > 0) {
                frames.set((int) (k - firstPosition), stripJpeg(f));
            }
        }
    }

    private static FrameFeatures stripJpeg(FrameFeatures f) {
        return new FrameFeatures(f.streamId(), f.sourceKind(), f.sourceUri(), f.epochMs(), f.frameIndex(), f.ptsMs(),
                f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.featureWidth(), f.featureHeight(), f.hsv(), f.hist(), f.luma(),
                f.dhash(), new byte[0]);
    }
}
