package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import io.videoworld.core.KeyframeRef;
import java.util.List;

/**
 * What {@link ShotTracker} keeps of one stream between batches; Flink keyed state.
 *
 * @param fps the stream's sample rate, which turns durations into frame counts
 * @param firstPosition position of {@code frames.get(0)}; positions count the frames kept, which
 *     differ from producer frame numbers once screen near-duplicates are dropped
 * @param frames recent frames, oldest first (JPEGs dropped once no keyframe can need them)
 * @param contents content score of each kept frame against its predecessor
 * @param nextDecide next frame whose boundary decision is due
 * @param nextAssemble next frame to be added to a shot
 * @param pending boundaries decided but not yet reached by assembly
 * @param inDark whether the latest decided frames are black
 * @param seenLight whether a non-black frame has been decided (a fade needs light before the dark)
 * @param darkStart first frame of the current run of black frames, -1 when the picture is lit
 * @param gradual the strongest gradual transition fitted in the stretch being looked at, null for none
 * @param lastKeptHash screens: perceptual hash of the last frame kept, 0 before any
 * @param lastSeenPtsMs presentation time of the latest frame, kept or dropped
 * @param lastSeenEventTimeMs event time of the latest frame, kept or dropped
 * @param shot the open shot, null before the first frame
 * @param scene the open scene, null before the first shot closes
 */
public record ShotState(
        double fps,
        long firstPosition,
        List<FrameFeatures> frames,
        List<Double> contents,
        long nextDecide,
        long nextAssemble,
        List<Boundary> pending,
        boolean inDark,
        boolean seenLight,
        long darkStart,
        Gradual gradual,
        long lastKeptHash,
        long lastSeenPtsMs,
        long lastSeenEventTimeMs,
        OpenShot shot,
        OpenScene scene) {

    /**
     * A gradual transition that fits {@link BlendModel}: frames {@code centre - half} to
     * {@code centre + half}, mixing half way at {@code middle}; {@code change} is the RMS pixel
     * difference of its end frames and {@code residual} the worst misfit of a frame in between
     * (as a share of {@code change}).
     */
    public record Gradual(long centre, int half, long middle, double change, double residual) {
        double strength() {
            return change * (1 - residual);
        }
    }

    /** A boundary found at {@code position}: the first frame of a new shot. */
    public record Boundary(long position, String transition, String detector, double score) {}

    /** A keyframe candidate kept to pick the middle of a shot when it closes. */
    public record Candidate(long frameIndex, long ptsMs, long eventTimeMs, long batchSeq, int width, int height, float[] hist, byte[] jpeg) {}

    /**
     * The shot being assembled; {@code candidates} holds frames {@code stride} apart across the
     * whole shot (halved and the stride doubled when full), so the middle is known within a
     * sixteenth of the shot without keeping every frame.
     */
    public record OpenShot(long startPosition, long startFrame, long startPtsMs, long startEventTimeMs, String transitionIn, String detector,
            double score, long nextPeriodicPtsMs, int stride, List<Candidate> candidates, List<KeyframeRef> keyframes,
            FrameFeatures last) {}

    /** The scene being grown: its start and the representative histograms of its latest shots. */
    public record OpenScene(long startFrame, long startPtsMs, long startEventTimeMs, String transitionIn, String detector,
            double score, int shots, long representativeFrame, List<float[]> recentHists) {}
}
