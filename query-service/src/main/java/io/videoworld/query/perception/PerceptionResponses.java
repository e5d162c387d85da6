package io.videoworld.query.perception;

import io.videoworld.query.api.TimeRange;
import java.util.List;

/**
 * The perception family's answers in the seeds' shape: records Jackson writes in snake_case with
 * their fields in this order, leaving out fields that are null (unknown, or not asked for).
 */
public final class PerceptionResponses {
    private PerceptionResponses() {}

    /**
     * describe_visual (seed 001: describe_segment, whose name for the text is {@code caption}); {@code source} is
     * {@code composed} (the description is the facts' statements) or {@code model} (the vision model's words, given the facts).
     */
    public record Description(String description, String caption, String source, TimeRange timeRange, List<String> framesAnalyzed,
            int numFramesAnalyzed, String model, List<VisualFacts.Fact> facts) {}

    /** detect_objects; {@code query_matching} says how a text query ranked the objects, when one was given. */
    public record Detections(double timestamp, double frameTimestamp, FrameInfo frameInfo, String detectionMethod, String detector,
            List<DetectedObject> objects, String queryMatching) {}

    /** The frame detections were read from. */
    public record FrameInfo(String frameId, long frameNumber) {}

    /** One detected object; {@code query_similarity} only when a text query was given and an embedder is loaded. */
    public record DetectedObject(String objectId, String category, double[] bbox, int[] bboxPixels, double confidence, String entityHint,
            Attributes attributes, Double querySimilarity) {}

    /** What was measured on an object's pixels. */
    public record Attributes(String dominantColor) {}

    /** recognize_activity; {@code reason} when nothing was tracked in the range. */
    public record Activities(List<Activity> activities, String primaryActivity, List<Moment> framesAnalyzed, String method, String reason) {}

    /**
     * One activity, its confidence and the tracks doing it; {@code frames} (the sampled frames it
     * rests on) when it came from body pose, and {@code source}: "pose" or "track_speed".
     */
    public record Activity(String label, double confidence, double startTime, double endTime, List<String> subjects, List<Long> frames,
            String source) {}

    /** A time looked at. */
    public record Moment(double timestamp) {}

    /** get_scene_attributes: only the attributes asked for (all by default), and what they were judged from. */
    public record SceneAttributes(double timestamp, String location, String lighting, String colorTemperature, String timeOfDay,
            String weather, String cameraAngle, String cameraMotion, SceneEvidence evidence, String method) {}

    /** The measurements behind the scene attributes. */
    public record SceneEvidence(long meanBrightness, long contrast, double skyFractionOfTopQuarter, double tallestPersonFraction) {}

    /** get_transcript: the cues in the range, where they came from, and why there are none when there are none. */
    public record Transcript(List<TranscriptLine> transcript, String source, String reason) {}

    /** One cue; {@code speaker_id} only when speaker info was asked for and is known. */
    public record TranscriptLine(double startTime, double endTime, String text, String speakerId, double confidence) {}

    /** detect_audio_events. */
    public record AudioEvents(List<AudioEvent> audioEvents, String source, String reason) {}

    /** One event measured on the audio track. */
    public record AudioEvent(String eventType, double startTime, double endTime, double confidence, double loudnessDb) {}
}
