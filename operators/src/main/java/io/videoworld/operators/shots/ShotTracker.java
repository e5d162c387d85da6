package io.videoworld.operators.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.operators.shots.ShotState.Boundary;
import io.videoworld.operators.shots.ShotState.Candidate;
import io.videoworld.operators.shots.ShotState.OpenScene;
import io.videoworld.operators.shots.ShotState.OpenShot;
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
 * <p>Assembly: frames join shots a further {@code 2 x dissolve window} behind the decisions,
 * because a dissolve is only recognised after it has passed and its boundary lies in the middle
 * of it. Closing a shot picks its keyframes (first, middle, last, periodic) and its scene: a shot
 * whose middle frame's colours are close to one of the scene's last three shots joins that scene.
 */
public final class ShotTracker {
    private static final int CANDIDATES = 16;

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
    private OpenShot shot;
    private OpenScene scene;
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
        this.shot = s.shot();
        this.scene = s.scene();
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
                lastSeenPtsMs, lastSeenEventTimeMs, shot, scene);
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
                && FrameDistance.hamming(f.dhash(), lastKeptHash) <= p.screenDuplicateBits()) {
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
        if (shot != null) {
            closeShot(null, out);
        }
        if (scene != null) {
            out.segment(sceneSegment(scene, shotEndFrame, lastSeenPtsMs + frameMs, lastSeenEventTimeMs + frameMs, true));
        }
        shot = null;
        scene = null;
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
        FrameFeatures f = at(a);
        Boundary b = pending.remove(a);
        pending.headMap(a).clear();
        if (shot == null) {
            startShot(a, f, b, out);
        } else if (b != null && a - shot.startPosition() >= minShotFrames) {
            closeShot(f, out);
            startShot(a, f, b, out);
        } else {
            extendShot(a, f, out);
        }
    }

    private void startShot(long a, FrameFeatures f, Boundary b, Output out) {
        String transition = b == null ? "start" : b.transition();
        String detector = b == null ? "none" : b.detector();
        double score = b == null ? 0 : b.score();
        List<KeyframeRef> refs = new ArrayList<>();
        refs.add(ref(f, KeyframeRef.FIRST));
        out.keyframe(keyframe(f, KeyframeRef.FIRST));
        long every = Math.round(p.keyframeEverySec() * 1000);
        shot = new OpenShot(a, f.frameIndex(), f.ptsMs(), f.eventTimeMs(), transition, detector, score,
                every > 0 ? f.ptsMs() + every : Long.MAX_VALUE, 1, List.of(candidate(f)), refs, f);
    }

    private void extendShot(long a, FrameFeatures f, Output out) {
        List<KeyframeRef> refs = shot.keyframes();
        long nextPeriodic = shot.nextPeriodicPtsMs();
        if (f.ptsMs() >= nextPeriodic) {
            refs = new ArrayList<>(refs);
            refs.add(ref(f, KeyframeRef.PERIODIC));
            out.keyframe(keyframe(f, KeyframeRef.PERIODIC));
            long every = Math.round(p.keyframeEverySec() * 1000);
            while (nextPeriodic <= f.ptsMs()) {
                nextPeriodic += every;
            }
        }
        List<Candidate> cands = shot.candidates();
        int stride = shot.stride();
        if ((a - shot.startPosition()) % stride == 0) {
            cands = new ArrayList<>(cands);
            cands.add(candidate(f));
            if (cands.size() > CANDIDATES) {
                List<Candidate> halved = new ArrayList<>();
                for (int i = 0; i < cands.size(); i += 2) {
                    halved.add(cands.get(i));
                }
                cands = halved;
                stride *= 2;
            }
        }
        shot = new OpenShot(shot.startPosition(), shot.startFrame(), shot.startPtsMs(), shot.startEventTimeMs(),
                shot.transitionIn(), shot.detector(), shot.score(), nextPeriodic, stride, cands, refs, f);
    }

    private long shotEndFrame;

    /** Closes the open shot before {@code next} (null at the end of the stream). */
    private void closeShot(FrameFeatures next, Output out) {
        FrameFeatures last = shot.last();
        long midIndex = (shot.startFrame() + last.frameIndex()) / 2;
        Candidate mid = shot.candidates().get(0);
        for (Candidate c : shot.candidates()) {
            if (Math.abs(c.frameIndex() - midIndex) < Math.abs(mid.frameIndex() - midIndex)) {
                mid = c;
            }
        }
        List<KeyframeRef> refs = new ArrayList<>(shot.keyframes());
        if (mid.frameIndex() != shot.startFrame()) {
            refs.add(new KeyframeRef(mid.frameIndex(), mid.ptsMs(), mid.eventTimeMs(), mid.batchSeq(), mid.width(), mid.height(),
                    mid.jpeg().length, KeyframeRef.MIDDLE));
            out.keyframe(new Keyframe(last.streamId(), last.epochMs(), mid.frameIndex(), mid.ptsMs(), KeyframeRef.MIDDLE, mid.jpeg()));
        }
        if (last.frameIndex() != shot.startFrame() && last.frameIndex() != mid.frameIndex()) {
            refs.add(ref(last, KeyframeRef.LAST));
            out.keyframe(keyframe(last, KeyframeRef.LAST));
        }
        long endFrame = next != null ? next.frameIndex() : last.frameIndex() + 1;
        long endPts = next != null ? next.ptsMs() : lastSeenPtsMs + frameMs;
        long endEvent = next != null ? next.eventTimeMs() : lastSeenEventTimeMs + frameMs;
        shotEndFrame = endFrame;

        if (scene == null) {
            scene = new OpenScene(shot.startFrame(), shot.startPtsMs(), shot.startEventTimeMs(), shot.transitionIn(),
                    shot.detector(), shot.score(), 0, mid.frameIndex(), List.of());
        } else {
            double nearest = Double.MAX_VALUE;
            for (float[] h : scene.recentHists()) {
                nearest = Math.min(nearest, FrameDistance.histogram(h, mid.hist()));
            }
            if (nearest >= p.sceneThreshold()) {
                out.segment(sceneSegment(scene, shot.startFrame(), shot.startPtsMs(), shot.startEventTimeMs(), true));
                scene = new OpenScene(shot.startFrame(), shot.startPtsMs(), shot.startEventTimeMs(), shot.transitionIn(),
                        shot.detector(), shot.score(), 0, mid.frameIndex(), List.of());
            }
        }
        List<float[]> hists = new ArrayList<>(scene.recentHists());
        hists.add(mid.hist());
        if (hists.size() > 3) {
            hists.remove(0);
        }
        scene = new OpenScene(scene.startFrame(), scene.startPtsMs(), scene.startEventTimeMs(), scene.transitionIn(),
                scene.detector(), scene.score(), scene.shots() + 1, scene.representativeFrame(), hists);

        out.segment(new Segment(last.streamId(), Segment.SHOT, last.epochMs(), last.sourceKind(), shot.startFrame(), endFrame, shot.startPtsMs(),
                endPts, shot.startEventTimeMs(), endEvent, shot.transitionIn(), shot.detector(), shot.score(),
                scene.startFrame(), 1, mid.frameIndex(), List.copyOf(refs), true));
        if (next != null) {
            out.segment(sceneSegment(scene, endFrame, endPts, endEvent, false));
        }
        shot = null;
    }

    private Segment sceneSegment(OpenScene s, long endFrame, long endPts, long endEvent, boolean closed) {
        FrameFeatures any = frames.isEmpty() ? null : frames.get(frames.size() - 1);
        String stream = any != null ? any.streamId() : "";
        long epoch = any != null ? any.epochMs() : 0;
        SourceKind kind = any != null ? any.sourceKind() : SourceKind.VIDEO;
        return new Segment(stream, Segment.SCENE, epoch, kind, s.startFrame(), endFrame, s.startPtsMs(), endPts,
                s.startEventTimeMs(), endEvent, s.transitionIn(), s.detector(), s.score(), s.startFrame(), s.shots(),
                s.representativeFrame(), List.of(), closed);
    }

    private static KeyframeRef ref(FrameFeatures f, String role) {
        return new KeyframeRef(f.frameIndex(), f.ptsMs(), f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.jpeg().length, role);
    }

    private static Keyframe keyframe(FrameFeatures f, String role) {
        return new Keyframe(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), role, f.jpeg());
    }

    private static Candidate candidate(FrameFeatures f) {
        return new Candidate(f.frameIndex(), f.ptsMs(), f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.hist(), f.jpeg());
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
