package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.ShotState.Boundary;
import io.videoworld.engines.shots.ShotState.Candidate;
import io.videoworld.engines.shots.ShotState.OpenScene;
import io.videoworld.engines.shots.ShotState.OpenShot;
import io.videoworld.engines.shots.ShotTracker.Output;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns decided frames into shots and scenes. Closing a shot picks its keyframes (first, middle,
 * last, periodic) and its scene: a shot whose middle frame's colours are close to one of the
 * scene's last three shots joins that scene, otherwise the scene closes and a new one begins.
 */
final class ShotAssembler {
    private static final int CANDIDATES = 16;
    /** Screens: share of the feature image's pixels whose brightness changed by more than 24 levels that takes a keyframe at once. */
    static final double SCREEN_CHANGE = 0.07;
    /** Screens: keyframes taken at a change are at least this far apart (and only where periodic ones are sparser). */
    static final long SCREEN_CHANGE_GAP_MS = 1000;

    private final ShotParams p;
    private final int minShotFrames;
    private final long frameMs;
    private OpenShot shot;
    private OpenScene scene;
    private long shotEndFrame;
    private long lastSeenPtsMs;
    private long lastSeenEventTimeMs;
    private FrameFeatures anyFrame;

    ShotAssembler(ShotParams p, int minShotFrames, long frameMs, OpenShot shot, OpenScene scene) {
        this.p = p;
        this.minShotFrames = minShotFrames;
        this.frameMs = frameMs;
        this.shot = shot;
        this.scene = scene;
        this.anyFrame = shot != null ? shot.last() : null;
    }

    OpenShot shot() {
        return shot;
    }

    OpenScene scene() {
        return scene;
    }

    /** The stream ended: closes the open shot and the open scene. */
    void finish(FrameFeatures lastFrame, long lastSeenPtsMs, long lastSeenEventTimeMs, Output out) {
        this.lastSeenPtsMs = lastSeenPtsMs;
        this.lastSeenEventTimeMs = lastSeenEventTimeMs;
        if (lastFrame != null) {
            anyFrame = lastFrame;
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

    /** Adds the frame at position {@code a}; {@code b} is the boundary found there, if any. */
    void add(long a, FrameFeatures f, Boundary b, long lastSeenPtsMs, long lastSeenEventTimeMs, Output out) {
        this.lastSeenPtsMs = lastSeenPtsMs;
        this.lastSeenEventTimeMs = lastSeenEventTimeMs;
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
        if (!waitsForLight(f)) {
            refs.add(ref(f, KeyframeRef.FIRST));
            out.keyframe(keyframe(f, KeyframeRef.FIRST));
        }
        long every = p.keyframeEveryMs(f.sourceKind());
        shot = new OpenShot(a, f.frameIndex(), f.ptsMs(), f.eventTimeMs(), transition, detector, score,
                every > 0 ? f.ptsMs() + every : Long.MAX_VALUE, 1, List.of(candidate(f)), refs, f);
    }

    private void extendShot(long a, FrameFeatures f, Output out) {
        List<KeyframeRef> refs = shot.keyframes();
        long nextPeriodic = shot.nextPeriodicPtsMs();
        boolean due = f.ptsMs() >= nextPeriodic;
        if (first(refs) == null) {
            // The shot began in black (the middle of a fade): its first keyframe is its first lit frame.
            if (!waitsForLight(f)) {
                refs = new ArrayList<>(refs);
                refs.add(0, ref(f, KeyframeRef.FIRST));
                out.keyframe(keyframe(f, KeyframeRef.FIRST));
                long every = p.keyframeEveryMs(f.sourceKind());
                nextPeriodic = every > 0 ? f.ptsMs() + every : Long.MAX_VALUE;
            }
        } else if (due || screenChanged(shot, f)) {
            refs = new ArrayList<>(refs);
            refs.add(ref(f, KeyframeRef.PERIODIC));
            out.keyframe(keyframe(f, KeyframeRef.PERIODIC));
            long every = p.keyframeEveryMs(f.sourceKind());
            while (nextPeriodic <= f.ptsMs()) {
                nextPeriodic += every;
            }
            if (!due) {
                nextPeriodic = f.ptsMs() + every; // a keyframe taken at a change restarts the period
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
            cands = dropPastJpegs(cands, (shot.startFrame() + f.frameIndex()) / 2);
        }
        shot = new OpenShot(shot.startPosition(), shot.startFrame(), shot.startPtsMs(), shot.startEventTimeMs(),
                shot.transitionIn(), shot.detector(), shot.score(), nextPeriodic, stride, cands, refs, f);
    }

    /**
     * Screens: whether {@code f} changed so much of the picture from the frame before it
     * ({@link #SCREEN_CHANGE} of its pixels) that it is read now rather than at the next periodic
     * keyframe: another window or page came up inside one shot, and the screen may then stay
     * still (near-duplicates are dropped, so no later frame would bring the periodic keyframe
     * until something moves). Typing, a new message or a scrolled line change far less.
     */
    private boolean screenChanged(OpenShot shot, FrameFeatures f) {
        if (f.sourceKind() != SourceKind.SCREEN || p.keyframeEveryMs(f.sourceKind()) <= SCREEN_CHANGE_GAP_MS) {
            return false;
        }
        List<KeyframeRef> refs = shot.keyframes();
        long lastKeyframe = refs.isEmpty() ? Long.MIN_VALUE : refs.get(refs.size() - 1).ptsMs();
        return f.ptsMs() - lastKeyframe >= SCREEN_CHANGE_GAP_MS && FrameDistance.changedShare(shot.last(), f) >= SCREEN_CHANGE;
    }

    /** Closes the open shot before {@code next} (null at the end of the stream). */
    private void closeShot(FrameFeatures next, Output out) {
        FrameFeatures last = shot.last();
        anyFrame = last;
        long midIndex = (shot.startFrame() + last.frameIndex()) / 2;
        // The nearest candidate that still has its picture: one whose JPEG was dropped is never the
        // nearest, unless a halving since then took the one that was.
        Candidate mid = shot.candidates().get(0);
        for (Candidate c : shot.candidates()) {
            if (farther(mid, c, midIndex)) {
                mid = c;
            }
        }
        List<KeyframeRef> refs = new ArrayList<>(shot.keyframes());
        if (first(refs) == null) {
            // Black to its end: its middle frame is all there is to show.
            Candidate c = mid;
            refs.add(0, new KeyframeRef(c.frameIndex(), c.ptsMs(), c.eventTimeMs(), c.batchSeq(), c.width(), c.height(), c.jpeg().length,
                    KeyframeRef.FIRST));
            out.keyframe(new Keyframe(last.streamId(), last.epochMs(), c.frameIndex(), c.ptsMs(), KeyframeRef.FIRST, c.jpeg(), c.eventTimeMs()));
        }
        long firstFrame = first(refs).frameIndex();
        // A middle or last frame already sent as a periodic keyframe (on screens, every kept frame is one) is named in the
        // shot but not sent again: perception would read the same frame twice, and a live stream's second copy, shed,
        // would overwrite the frame's perceived document with carried text.
        boolean midSent = sent(refs, mid.frameIndex());
        boolean lastSent = sent(refs, last.frameIndex());
        if (mid.frameIndex() != firstFrame) {
            refs.add(new KeyframeRef(mid.frameIndex(), mid.ptsMs(), mid.eventTimeMs(), mid.batchSeq(), mid.width(), mid.height(),
                    mid.jpeg().length, KeyframeRef.MIDDLE));
            if (!midSent) {
                out.keyframe(new Keyframe(last.streamId(), last.epochMs(), mid.frameIndex(), mid.ptsMs(), KeyframeRef.MIDDLE, mid.jpeg(),
                        mid.eventTimeMs()));
            }
        }
        if (last.frameIndex() != firstFrame && last.frameIndex() != mid.frameIndex()) {
            refs.add(ref(last, KeyframeRef.LAST));
            if (!lastSent) {
                out.keyframe(keyframe(last, KeyframeRef.LAST));
            }
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
        FrameFeatures any = anyFrame;
        String stream = any != null ? any.streamId() : "";
        long epoch = any != null ? any.epochMs() : 0;
        SourceKind kind = any != null ? any.sourceKind() : SourceKind.VIDEO;
        return new Segment(stream, Segment.SCENE, epoch, kind, s.startFrame(), endFrame, s.startPtsMs(), endPts,
                s.startEventTimeMs(), endEvent, s.transitionIn(), s.detector(), s.score(), s.startFrame(), s.shots(),
                s.representativeFrame(), List.of(), closed);
    }

    private static boolean farther(Candidate a, Candidate b, long midIndex) {
        boolean aBare = a.jpeg().length == 0;
        boolean bBare = b.jpeg().length == 0;
        return aBare != bBare ? aBare : Math.abs(b.frameIndex() - midIndex) < Math.abs(a.frameIndex() - midIndex);
    }

    /**
     * State: the middle of a shot only moves forward as it grows, so a candidate before the last one
     * at or before today's middle can no longer be the nearest; its JPEG is dropped (about half of
     * them, the largest part of this operator's checkpoint).
     */
    private static List<Candidate> dropPastJpegs(List<Candidate> cands, long midIndex) {
        int keepFrom = 0;
        for (int i = 0; i < cands.size(); i++) {
            if (cands.get(i).frameIndex() <= midIndex) {
                keepFrom = i;
            }
        }
        List<Candidate> out = new ArrayList<>(cands);
        for (int i = 0; i < keepFrom; i++) {
            Candidate c = out.get(i);
            if (c.jpeg().length > 0) {
                out.set(i, new Candidate(c.frameIndex(), c.ptsMs(), c.eventTimeMs(), c.batchSeq(), c.width(), c.height(), c.hist(), new byte[0]));
            }
        }
        return out;
    }

    /** Video: a black frame (the middle of a fade) is no first keyframe; the shot's first lit frame is. Screens are read as they are. */
    private boolean waitsForLight(FrameFeatures f) {
        return f.sourceKind() != SourceKind.SCREEN && p.uses(ShotParams.FADE) && f.luma() < p.fadeFloor();
    }

    private static KeyframeRef first(List<KeyframeRef> refs) {
        for (KeyframeRef r : refs) {
            if (KeyframeRef.FIRST.equals(r.role())) {
                return r;
            }
        }
        return null;
    }

    /** Whether frame {@code index} was already sent as one of the shot's keyframes. */
    private static boolean sent(List<KeyframeRef> refs, long index) {
        for (KeyframeRef r : refs) {
            if (r.frameIndex() == index) {
                return true;
            }
        }
        return false;
    }

    private static KeyframeRef ref(FrameFeatures f, String role) {
        return new KeyframeRef(f.frameIndex(), f.ptsMs(), f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.jpeg().length, role);
    }

    private static Keyframe keyframe(FrameFeatures f, String role) {
        return new Keyframe(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), role, f.jpeg(), f.eventTimeMs());
    }

    private static Candidate candidate(FrameFeatures f) {
        return new Candidate(f.frameIndex(), f.ptsMs(), f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.hist(), f.jpeg());
    }
}
