package io.videoworld.media.video;

/**
 * A sampled frame before batching: already resized and JPEG-encoded.
 *
 * @param ptsMs presentation time from stream start
 * @param captureTimeMs wall-clock capture time for screenshots, null for video
 * @param width encoded width
 * @param height encoded height
 * @param jpeg encoded image
 * @param thumb the same picture {@link io.videoworld.core.Frame#THUMB_WIDTH} pixels wide, JPEG
 */
public record SourceFrame(long ptsMs, Long captureTimeMs, int width, int height, byte[] jpeg, byte[] thumb) {}
