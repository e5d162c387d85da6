package io.videoworld.engines.tracking;

import io.videoworld.core.TrackPoint;
import java.util.List;

/**
 * What {@link ByteTracker} keeps of one stream between samples; Flink keyed state.
 *
 * @param epochMs the push being tracked
 * @param samples samples seen in this push
 * @param nextTrack number the next new track gets
 * @param lastPtsMs presentation time of the latest sample
 * @param lastEventTimeMs event time of the latest sample
 * @param lastFrameHistogram whole-frame histogram of the latest sample, to see cuts
 * @param width frame width
 * @param height frame height
 * @param tracks live tracks: tracked, lost (still matched by box) and dormant (by appearance only)
 */
public record TrackerState(long epochMs, long samples, long nextTrack, long lastPtsMs, long lastEventTimeMs,
        float[] lastFrameHistogram, int width, int height, List<Track> tracks) {

    /**
     * One track.
     *
     * @param number per-stream number
     * @param category label its detections carry
     * @param mean Kalman mean (cx, cy, aspect, h and velocities)
     * @param cov Kalman covariance, row-major 8x8
     * @param status tracked, lost or dormant
     * @param activated confirmed (matched on two samples, or born on the first)
     * @param lastSample sample number it was last matched in
     * @param hits samples matched
     * @param scoreSum sum of matched detection scores
     * @param reidentified re-identifications by appearance
     * @param appearance smoothed colour histogram of its boxes
     * @param first first observed point
     * @param timeline observed points, thinned when long
     */
    public record Track(long number, String category, double[] mean, double[] cov, String status, boolean activated,
            long lastSample, int hits, double scoreSum, int reidentified, float[] appearance, TrackPoint first,
            List<TrackPoint> timeline) {}
}
