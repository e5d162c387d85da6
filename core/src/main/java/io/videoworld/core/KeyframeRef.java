package io.videoworld.core;

/**
 * A keyframe as a shot lists it: enough to write its {@code vw-frames} document.
 *
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param eventTimeMs event time
 * @param batchSeq the batch it arrived in
 * @param width encoded width
 * @param height encoded height
 * @param jpegBytes encoded size
 * @param role first, middle, last or periodic
 */
public record KeyframeRef(long frameIndex, long ptsMs, long eventTimeMs, long batchSeq, int width, int height, int jpegBytes, String role) {
    public static final String FIRST = "first";
    public static final String MIDDLE = "middle";
    public static final String LAST = "last";
    public static final String PERIODIC = "periodic";
}
