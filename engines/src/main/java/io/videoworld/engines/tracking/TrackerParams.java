package io.videoworld.engines.tracking;

import java.io.Serializable;

/**
 * Tracker thresholds. The first six are ByteTrack's (its defaults for MOT17); the rest are ours.
 *
 * @param trackThresh detections at or above this are "high" and matched first
 * @param lowThresh detections between this and {@code trackThresh} are matched second
 * @param matchThresh IoU-distance limit for the first association
 * @param secondMatchThresh IoU-distance limit for the low-score association
 * @param unconfirmedMatchThresh IoU-distance limit for tracks born on the previous sample
 * @param lostSamples samples a lost track is still matched by box (ByteTrack's track buffer)
 * @param reidSamples samples a lost track can still be picked up by appearance (after a cut or a
 *     long occlusion); then it dies. 0 turns re-identification off (plain ByteTrack).
 * @param reidMinSimilarity least cosine similarity of colour histograms for a re-identification
 * @param appearanceGate high-score box matches whose colour histograms are further apart than
 *     this cosine distance are refused, which stops identities swapping where people cross; 1
 *     turns the gate off (plain ByteTrack)
 * @param cutDistance whole-frame histogram distance above which a sample starts a new shot (tracks stop being
 *     matched by position); infinite never reads the histogram
 * @param timelineCap points kept per track before the timeline is thinned to every other point
 */
public record TrackerParams(double trackThresh, double lowThresh, double matchThresh, double secondMatchThresh,
        double unconfirmedMatchThresh, int lostSamples, int reidSamples, double reidMinSimilarity, double appearanceGate, double cutDistance,
        int timelineCap) implements Serializable {

    /** ByteTrack's MOT17 settings plus re-identification and the appearance gate. */
    public static TrackerParams defaults(int lostSamples, int reidSamples) {
        return new TrackerParams(0.5, 0.1, 0.8, 0.5, 0.7, lostSamples, reidSamples, 0.85, 0.5, 0.6, 512);
    }

    /**
     * ByteTrack exactly: boxes and scores only, no appearance at all, not even the whole-frame
     * histogram that tells a cut (its cut distance is beyond any histogram distance).
     */
    public static TrackerParams byteTrack(int lostSamples) {
        return new TrackerParams(0.5, 0.1, 0.8, 0.5, 0.7, lostSamples, 0, 0.85, 1, Double.POSITIVE_INFINITY, 512);
    }
}
