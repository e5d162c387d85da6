package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * One sampled frame as it travels on Kafka.
 *
 * @param index the producer's running frame number within the stream (0-based, gap-free)
 * @param ptsMs presentation time from the start of the stream, in milliseconds
 * @param captureTimeMs wall-clock capture time (epoch ms) for screenshots; null for video
 * @param width encoded width in pixels
 * @param height encoded height in pixels
 * @param jpeg the JPEG-encoded image
 * @param thumb optional: a JPEG of the same picture {@link #THUMB_WIDTH} pixels wide, made by the
 *     producer from the decoded pixels it already has, so shot detection needs no full JPEG decode
 */
public record Frame(long index, long ptsMs, Long captureTimeMs, int width, int height, byte[] jpeg, byte[] thumb) {
    /** Width of {@code thumb}; the height keeps the aspect ratio. */
    public static final int THUMB_WIDTH = 80;

    /** A frame without a thumbnail (older producers, tests). */
    public Frame(long index, long ptsMs, Long captureTimeMs, int width, int height, byte[] jpeg) {
        this(index, ptsMs, captureTimeMs, width, height, jpeg, null);
    }

    // Records compare arrays by identity; frames are compared by content in tests and dedup.
    @Override
    public boolean equals(Object o) {
        return o instanceof Frame f
                && index == f.index
                && ptsMs == f.ptsMs
                && Objects.equals(captureTimeMs, f.captureTimeMs)
                && width == f.width
                && height == f.height
                && Arrays.equals(jpeg, f.jpeg)
                && Arrays.equals(thumb, f.thumb);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, ptsMs, captureTimeMs, width, height) * 31 + Arrays.hashCode(jpeg);
    }

    @Override
    public String toString() {
        return "Frame[index=" + index + ", ptsMs=" + ptsMs + ", " + width + "x" + height + ", "
                + (jpeg == null ? 0 : jpeg.length) + " bytes]";
    }
}
