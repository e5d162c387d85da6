package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.ShotState.Boundary;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Shot and scene detection for one stream, one frame at a time, in two stages.
 *
 * <p>Decision: frame t is judged once {@code lookahead} later frames are in, which the adaptive
 * detector (neighbours on both sides) and the flash check (does the picture come back?) need.
 * Cuts come from {@link CutChecks} (content and adaptive detectors; on screens {@link ScreenChange}:
 * the application's chrome or the layout changed, not a scroll or a few typed words). Fades come
 * from runs of black frames ({@link FadeWatch}). Gradual transitions ({@link GradualJudge}) are
 * judged a few frames behind, centred on a frame with the window around it in hand
 * ({@link FrameWindow}).
 *
 * <p>Assembly ({@link ShotAssembler}): frames join shots behind the gradual decisions, because a
 * transition is only recognised once it has passed and its boundary lies in the middle of it.
 * Screens have no gradual transitions: a screen frame is decided and assembled as soon as its
 * flash window has passed, in kept frames or in the stream's time ({@code advanceScreen}).
 */
public final class ShotTracker {

    /** Where results go. */
    public interface Output {
        void keyframe(Keyframe keyframe);

        void segment(Segment segment);

        /** An output that hands each shot segment to {@code onShot} and ignores keyframes and scenes. */
        static Output shots(java.util.function.Consumer<Segment> onShot) {
            return new Output() {
                @Override
                public void keyframe(Keyframe keyframe) {}

                @Override
                public void segment(Segment segment) {
                    if (Segment.SHOT.equals(segment.kind())) {
                        onShot.accept(segment);
                    }
                }
            };
        }
    }

    private final ShotParams p;
    private final double fps;
    private final int minShotFrames;
    private final int lookahead;
    private final int assemblyLag;
    private final long frameMs;

    private final FrameWindow window;
    private final FadeWatch fades;
    private final GradualJudge graduals;
    private long nextDecide;
    private long nextAssemble;
    private final TreeMap<Long, Boundary> pending = new TreeMap<>();
    private long lastKeptHash;
    private long lastSeenPtsMs;
    private long lastSeenEventTimeMs;
    private final ShotAssembler assembler;
    private long duplicatesDropped;

    private ShotTracker(ShotParams p, ShotState s) {
        this.p = p;
        this.fps = s.fps() > 0 ? s.fps() : 25;
        this.minShotFrames = Math.max(1, (int) Math.round(p.minShotSec() * fps));
        this.lookahead = Math.max(p.adaptiveWindow(), p.flashFrames());
        this.graduals = new GradualJudge(p, fps, s.gradual());
        // A gradual boundary lands up to three half-widths before the centre that closes it.
        this.assemblyLag = Math.max(graduals.lag() + 3 * graduals.maxHalf() + 2, minShotFrames + lookahead + 2);
        this.frameMs = Math.round(1000 / fps);
        this.window = new FrameWindow(s.firstPosition(), s.frames(), s.contents());
        this.fades = new FadeWatch(p, fps, minShotFrames, s.inDark(), s.seenLight(), s.darkStart());
        this.nextDecide = s.nextDecide();
        this.nextAssemble = s.nextAssemble();
        for (Boundary b : s.pending()) {
            pending.put(b.position(), b);
        }
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
        return new ShotState(fps, window.firstPosition(), window.frames(), window.contents(), nextDecide,
                nextAssemble, List.copyOf(pending.values()), fades.inDark(), fades.seenLight(), fades.darkStart(), graduals.open(),
                lastKeptHash, lastSeenPtsMs, lastSeenEventTimeMs, assembler.shot(), assembler.scene());
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
        FrameFeatures prev = window.last();
        if (f.sourceKind() == SourceKind.SCREEN && prev != null && lastKeptHash != 0
                && FrameDistance.hamming(f.dhash(), lastKeptHash) <= p.screenDuplicateBits() && !FrameDistance.anyPixelChanged(prev, f)) {
            duplicatesDropped++;
            // A still screen sends no more kept frames, but its time passing still settles the frames before it.
            advanceScreen(out);
            return;
        }
        lastKeptHash = f.dhash() == 0 ? 1 : f.dhash();
        window.add(f, bgr);
        if (f.sourceKind() == SourceKind.SCREEN) {
            advanceScreen(out);
        } else {
            long last = window.lastPosition();
            while (last - nextDecide >= lookahead) {
                decide(nextDecide++, out);
            }
            while (nextDecide - nextAssemble > assemblyLag) {
                assemble(nextAssemble++, out);
            }
        }
        trim();
    }

    /**
     * Screens cut (they do not dissolve: no gradual look-back), and a screen cut at t needs only
     * the frame before t and the flash window after it, which ends after {@code flashFrames} more
     * kept frames or once the stream's clock ({@code lastSeenPtsMs}, advanced by duplicates too)
     * has passed it: no frame kept later can fall inside it. So a screen frame is decided and
     * assembled (its keyframe let go) as soon as that holds, not ~11 changed frames later. A frame
     * that shows no change from the one before cannot be a cut whatever follows, so it goes at once
     * (typing, scrolling: most of a screen's frames); only a change waits out its flash window, and
     * black frames wait too, since a fade's boundary lands inside the black.
     */
    private void advanceScreen(Output out) {
        if (window.isEmpty()) {
            return;
        }
        long last = window.lastPosition();
        while (nextDecide <= last && (window.has(nextDecide + p.flashFrames())
                || lastSeenPtsMs >= window.at(nextDecide).ptsMs() + p.flashFrames() * frameMs
                || !fades.inDark() && !fades.dark(window.at(nextDecide)) && CutChecks.screenCannotCut(window, p, nextDecide))) {
            decide(nextDecide++, out);
        }
        while (nextAssemble < nextDecide) {
            assemble(nextAssemble++, out);
        }
    }

    private void trim() {
        // Keeps only the frames later decisions can still look at, and drops JPEGs assembly is done with.
        window.trim(Math.min(nextAssemble, nextDecide - Math.max(graduals.reach(), p.adaptiveWindow() + p.flashFrames()) - 2),
                nextAssemble);
    }

    /** The stream ended (or went idle): decides and assembles what is left and closes the shot and scene. */
    public void finish(Output out) {
        long last = window.lastPosition();
        while (nextDecide <= last) {
            decide(nextDecide++, out);
        }
        if (gradualOn()) {
            for (long c = Math.max(window.firstPosition(), last + 1 - graduals.lag()); c <= last; c++) {
                addGradual(graduals.judge(window, fades, c, nextAssemble));
            }
            addGradual(graduals.close(window, nextAssemble));
        }
        addBoundary(fades.finish(window, nextAssemble));
        while (nextAssemble <= last) {
            assemble(nextAssemble++, out);
        }
        assembler.finish(window.last(), lastSeenPtsMs, lastSeenEventTimeMs, out);
    }

    private boolean screen() {
        return !window.isEmpty() && window.last().sourceKind() == SourceKind.SCREEN;
    }

    /** Gradual transitions are looked for in video; screenshots a second apart have none. */
    private boolean gradualOn() {
        return p.uses(ShotParams.DISSOLVE) && !screen() && graduals.possible();
    }

    private void decide(long t, Output out) {
        long darkFrom = fades.darkStart();
        Boundary fade = fades.decide(window, t, nextAssemble);
        // The picture came back after a short black and the boundary went to its middle: a cut into the
        // black or out of it is part of that one fade.
        boolean throughBlack = fade != null && darkFrom >= 0 && fade.position() < t;
        if (throughBlack) {
            pending.subMap(darkFrom, true, t, true).values().removeIf(b -> "cut".equals(b.transition()));
        }
        addBoundary(fade);
        if (window.has(t - 1) && !throughBlack) {
            addBoundary(window.at(t).sourceKind() == SourceKind.SCREEN ? CutChecks.screen(window, p, frameMs, t)
                    : CutChecks.video(window, p, t));
        }
        if (gradualOn() && window.has(t - graduals.lag())) {
            addGradual(graduals.judge(window, fades, t - graduals.lag(), nextAssemble));
        }
    }

    private void addGradual(GradualJudge.Found g) {
        if (g == null) {
            return;
        }
        // A cut the adaptive detector saw inside a mix was a fast part of it.
        pending.subMap(g.from(), true, g.to(), true).values().removeIf(b -> "cut".equals(b.transition()));
        addBoundary(g.boundary());
    }

    /** Boundaries closer than the minimum shot length to one already found are dropped. */
    private void addBoundary(Boundary b) {
        if (b == null) {
            return;
        }
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
        assembler.add(a, window.at(a), b, lastSeenPtsMs, lastSeenEventTimeMs, out);
    }
}
