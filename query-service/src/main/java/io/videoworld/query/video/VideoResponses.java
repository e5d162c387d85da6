package io.videoworld.query.video;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * The video family's answers in the seeds' shape: records Jackson writes in snake_case with their
 * fields in this order, leaving out fields that are null (unknown, or not asked for).
 */
public final class VideoResponses {
    private VideoResponses() {}

    /** A width and height in pixels. */
    public record Resolution(long width, long height) {}

    /** get_video_info: seed 000's fields, then where the stream came from and how much of it is indexed. */
    public record VideoInfo(String videoId, double duration, double fps, Resolution resolution, String aspectRatio, boolean hasAudio,
            int audioChannels, int audioSampleRate, long numFrames, Double fileSizeMb, String codec, Long bitrateKbps, String sourceKind,
            String sourceUri, Indexed indexed) {}

    /** How much of a stream is indexed, and at what rate and size. */
    public record Indexed(long frames, double sampleFps, Resolution resolution, String firstEventTime, String lastEventTime, String status) {}

    /** get_temporal_structure: {@code segments} holds {@link Shot}s, {@link Scene}s, an {@link Open} one, or one whole-stream {@link Span}. */
    public record TemporalStructure(String videoId, String granularity, List<Object> segments, int totalSegments, String source, String note) {}

    /** What every segment has: its id, bounds in seconds and in source frames, and its type (scene or shot). */
    public record Span(String segmentId, double startTime, double endTime, long startFrame, long endFrame, double duration, long numFrames,
            String type) {}

    /** A closed shot; {@code transition_type} is left out for the stream's first shot. */
    public record Shot(@JsonUnwrapped Span span, String transitionType, double keyframeTimestamp,
            String sceneId, List<KeyframeAt> keyframes) {}

    /** A closed scene. */
    public record Scene(@JsonUnwrapped Span span, String transitionType, double keyframeTimestamp, int shots) {}

    /** The last segment of a live stream, still growing. */
    public record Open(@JsonUnwrapped Span span, boolean open) {}

    /** One keyframe of a shot. */
    public record KeyframeAt(String frameId, double timestamp, String role) {}

    /** get_segment: the shot a time range falls in most, and every shot it touches. */
    public record SegmentAt(String segmentId, String sceneId, double actualStart, double actualEnd, double duration, long numFrames,
            String transitionType, List<String> overlappingSegments) {}

    /** sample_frames. */
    public record SampledFrames(String videoId, List<SampledFrame> frames, int totalFrames, String sampleMethod, double actualInterval,
            String frameSource) {}

    /** One sampled frame: {@code image_data} or {@code image_url} by the format asked for; {@code offset_ms} when it is a nearby keyframe. */
    public record SampledFrame(String frameId, double timestamp, long frameNumber, Resolution resolution, String imageData, String imageUrl,
            Double fileSizeKb, String origin, Long offsetMs) {}

    /** crop_region. */
    public record Crops(String videoId, CropSource sourceInfo, List<Crop> croppedRegions, int totalRegions) {}

    /** The picture crops were cut from; an uploaded image has no frame id, time or origin. */
    public record CropSource(String frameId, Double timestamp, String origin, Resolution originalResolution) {}

    /** One crop: {@code image_url} or {@code image_data} by the format asked for. */
    public record Crop(String regionId, String label, double[] bbox, int[] bboxPixels, Resolution resolution, String imageUrl,
            String imageData, double fileSizeKb) {}
}
