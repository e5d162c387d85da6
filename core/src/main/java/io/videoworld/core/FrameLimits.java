package io.videoworld.core;

/**
 * The bounds a frame batch must keep to be ingested. Checked at the edge, before any pixel is
 * decoded, so a record that declares a 60000x60000 picture is a dead letter and never an OpenCV
 * failure inside the job. This is the one place the edge's numeric ranges are set, and each is
 * one every later computation holds: {@code docs/wire-format.md} lists them.
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

    /**
     * The largest frame index accepted: 185 days of one push at 25 fps. Document versions count
     * progress as twice a frame index plus one below {@link #MAX_PROGRESS}, so this bound keeps
     * them exact.
     */
    public static final long MAX_FRAME_INDEX = 400_000_000L;

    /** The largest batch sequence number accepted: 2^53, the largest integer a JSON client reading doubles keeps exact. */
    public static final long MAX_SEQ = 1L << 53;

    /**
     * A push's progress (frames indexed, a frame index) fits below this in a document version, which
     * is the push's epoch second times this plus the progress: exact up to {@link #MAX_TIME_MS}.
     */
    public static final long MAX_PROGRESS = 1_000_000_000L;

    public FrameLimits {
        if (maxSide < 1 || maxPixels < 1 || maxFrames < 1 || maxTextLength < 1) {
            throw new IllegalArgumentException("frame limits must be positive");
        }
    }
}
