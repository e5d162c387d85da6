package io.videoworld.core;

/**
 * The bounds a frame batch must keep to be ingested. Checked at the edge, before any pixel is
 * decoded, so a record that declares a 60000x60000 picture is a dead letter and never an OpenCV
 * failure inside the job.
 *
 * @param maxSide largest width or height of a frame, in pixels
 * @param maxPixels largest width x height of a frame
 * @param maxFrames most frames in one batch
 * @param maxTextLength longest string field (source URI, codec name)
 */
public record FrameLimits(int maxSide, long maxPixels, int maxFrames, int maxTextLength) implements java.io.Serializable {
    /** 8K UHD (7680x4320) fits; anything larger is refused unless configured. */
    public static final FrameLimits DEFAULT = new FrameLimits(8192, 7680L * 4320L, 1000, 4096);

    /** The latest wall-clock or presentation time accepted, in ms: the year 2200, far from overflow. */
    public static final long MAX_TIME_MS = 7_258_118_400_000L;

    public FrameLimits {
        if (maxSide < 1 || maxPixels < 1 || maxFrames < 1 || maxTextLength < 1) {
            throw new IllegalArgumentException("frame limits must be positive");
        }
    }
}
