package io.videoworld.operators.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.operators.shots.ShotState.Boundary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Shot and scene detection for one stream, one frame at a time, in two stages.
 *
 * <p>Decision: frame t is judged once {@code lookahead} later frames are in, which the adaptive
 * detector (neighbours on both sides) and the flash check (does the picture come back?) need.
 * Cuts come from the content and adaptive detectors, fades from runs of black frames, and
 * dissolves from the colour histogram changing a lot across a one-second window while never
 * jumping between two frames (which would be a cut) and never going black (a fade).
 *
 * <p>Assembly ({@link ShotAssembler}): frames join shots a further {@code 2 x dissolve window}
 * behind the decisions, because a dissolve is only recognised after it has passed and its
 * boundary lies in the middle of it.
 */
public final class ShotTracker {

    /** Where results go. */
    public interface Output {
        void keyframe(Keyframe keyframe);

        void segment(Segment segment);
    }

    private final ShotParams p;
    private final double fps;
    private final int dissolveFrames;
    private final int minShotFrames;
    private final int lookahead;
    private final int assemblyLag;
    private final long frameMs;

    private long firstPosition;
    private final ArrayList<FrameFeatures> frames;
    private final ArrayList<Double> contents;
    private final ArrayList<Double> steps;
    private long nextDecide;
    private long nextAssemble;
    private final TreeMap<Long, Boundary> pending = new TreeMap<>();
    private boolean inDark;
    private boolean seenLight;
    private long dissolveRunStart;
    private long lastKeptHash;
    private long lastSeenPtsMs;
    private long lastSeenEventTimeMs;
    private final ShotAssembler assembler;
    private long duplicatesDropped;

    private ShotTracker(ShotParams p, ShotState s) {
        this.p = p;
        this.fps = s.fps() > 0 ? s.fps() : 25;
        this.dissolveFrames = Math.max(2, (int) Math.round(p.dissolveWindowSec() * fps));
        this.minShotFrames = Math.max(1, (int) Math.round(p.minShotSec() * fps));
        this.lookahead = Math.max(p.adaptiveWindow(), p.flashFrames());
        this.assemblyLag = 2 * dissolveFrames + 2;
        this.frameMs = Math.round(1000 / fps);
        this.firstPosition = s.firstPosition();
        this.frames = new ArrayList<>(s.frames());
        this.contents = new ArrayList<>(s.contents());
        this.steps = new ArrayList<>(s.steps());
        this.nextDecide = s.nextDecide();
        this.nextAssemble = s.nextAssemble();
        for (Boundary b : s.pending()) {
            pending.put(b.position(), b);
        }
        this.inDark = s.inDark();
        this.seenLight = s.seenLight();
        this.dissolveRunStart = s.dissolveRunStart();
        this.lastKeptHash = s.lastKeptHash();
        this.lastSeenPtsMs = s.lastSeenPtsMs();
        this.lastSeenEventTimeMs = s.lastSeenEventTimeMs();
        this.assembler = new ShotAssembler(p, minShotFrames, frameMs, s.shot(), s.scene());
    }

    /** A tracker for a new stream sampled at {@code fps}. */
    public static ShotTracker start(ShotParams p, double fps) {
        return new ShotTracker(p, new ShotState(fps, 0, List.of(), List.of(), List.of(), 0, 0, List.of(), false, false, -1,
                0, 0, 0, null, null));
    }

    /** A tracker continuing from saved state. */
    public static ShotTracker restore(ShotParams p, ShotState s) {
        return new ShotTracker(p, s);
    }

    public ShotState state() {
        return new ShotState(fps, firstPosition, List.copyOf(frames), List.copyOf(contents), List.copyOf(steps), nextDecide,
                nextAssemble, List.copyOf(pending.values()), inDark, seenLight, dissolveRunStart, lastKeptHash,
                lastSeenPtsMs, lastSeenEventTimeMs, assembler.shot(), assembler.scene());
    }

    /** Screen frames dropped as near-duplicates since this tracker was created or restored. */
    public long duplicatesDropped() {
        return duplicatesDropped;
    }

    /** Takes the next frame of the stream. */
    public void accept(FrameFeatures f, Output out) {
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
        contents.add(prev == null ? 0.0 : FrameDistance.content(prev, f));
        steps.add(prev == null ? 0.0 : FrameDistance.histogram(prev.hist(), f.hist()));
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
        if (dissolveRunStart >= 0) {
            closeDissolve(last + 1);
        }
        while (nextAssemble <= last) {
            assemble(nextAssemble++, out);
        }
        assembler.finish(frames.isEmpty() ? null : frames.get(frames.size() - 1), lastSeenPtsMs, lastSeenEventTimeMs, out);
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

    private double contentAt(long position) {
        return contents.get((int) (position - firstPosition));
    }

    private double stepAt(long position) {
        return steps.get((int) (position - firstPosition));
    }

    private boolean dark(FrameFeatures f) {
        return f.luma() < p.fadeFloor();
    }

    private void decide(long t, Output out) {
        FrameFeatures f = at(t);
        boolean dark = dark(f);
        if (p.uses(ShotParams.FADE)) {
            if (dark && !inDark) {
                inDark = true;
            } else if (!dark && inDark) {
                inDark = false;
                if (seenLight) {
                    addBoundary(new Boundary(t, ShotParams.FADE, ShotParams.FADE, f.luma()));
                }
            }
        }
        if (!dark) {
            seenLight = true;
        }
        if (has(t - 1)) {
            decideCut(t);
        }
        if (p.uses(ShotParams.DISSOLVE)) {
            decideDissolve(t);
        }
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

    private void decideDissolve(long t) {
        boolean evidence = false;
        boolean darkNear = false;
        for (long k = t; k >= t - 2L * dissolveFrames && has(k); k--) {
            darkNear |= dark(at(k));
        }
        long from = t - dissolveFrames;
        if (has(from) && !darkNear) {
            double change = FrameDistance.histogram(at(from).hist(), at(t).hist());
            if (change >= p.dissolveThreshold()) {
                evidence = true;
                // Blending moves pixels across histogram bins unevenly, so one step may be a
                // sizeable share of the change; a cut is nearly all of it in one step.
                for (long k = from + 1; k <= t && evidence; k++) {
                    evidence = stepAt(k) < p.dissolveMaxStep() * change;
                }
                for (Boundary b : pending.subMap(from, true, t, true).values()) {
                    evidence &= ShotParams.DISSOLVE.equals(b.transition());
                }
            }
        }
        if (darkNear) {
            // Colours draining to black and back are a fade, which the fade detector reports.
            dissolveRunStart = -1;
        } else if (evidence && dissolveRunStart < 0) {
            dissolveRunStart = t;
        } else if (evidence && t - dissolveRunStart >= 2L * dissolveFrames) {
            closeDissolve(t);
        } else if (!evidence && dissolveRunStart >= 0) {
            closeDissolve(t);
        }
    }

    /** The run of evidence [start, end) is centred half a window after the dissolve's middle. */
    private void closeDissolve(long end) {
        long start = dissolveRunStart;
        dissolveRunStart = -1;
        long at = Math.round((start + end - 1) / 2.0 - dissolveFrames / 2.0);
        at = Math.max(at, Math.max(nextAssemble, firstPosition + 1));
        if (has(at)) {
            addBoundary(new Boundary(at, ShotParams.DISSOLVE, ShotParams.DISSOLVE, FrameDistance.histogram(
                    at(Math.max(firstPosition, start - dissolveFrames)).hist(), at(Math.min(lastPosition(), end - 1)).hist())));
        }
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
        long keepFrom = Math.min(nextAssemble, nextDecide - Math.max(dissolveFrames, p.adaptiveWindow()) - 2);
        while (firstPosition < keepFrom && frames.size() > 1) {
            frames.remove(0);
            contents.remove(0);
            steps.remove(0);
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
