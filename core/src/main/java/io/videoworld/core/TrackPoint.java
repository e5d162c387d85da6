package io.videoworld.core;

/**
 * Where a track's object was in one sampled frame (pixels), as the detector saw it.
 *
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param x1 left edge
 * @param y1 top edge
 * @param x2 right edge
 * @param y2 bottom edge
 * @param score detector confidence of the matched detection
 */
public record TrackPoint(long frameIndex, long ptsMs, double x1, double y1, double x2, double y2, double score) {}
