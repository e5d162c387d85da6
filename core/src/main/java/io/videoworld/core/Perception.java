package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What inference saw in one keyframe; one document in {@code vw-perception}.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param role the keyframe's role in its shot
 * @param lines OCR text lines with boxes
 * @param text all OCR text, line by line (what BM25 search reads)
 * @param textEmbedding unit-length MiniLM embedding of {@code text}; null when there is no text
 * @param imageDescriptor unit-length colour/layout descriptor for visual similarity
 * @param device where the models ran: "cpu" or "gpu"
 * @param width frame width in pixels
 * @param height frame height in pixels
 * @param objects what the detector found (empty when detection is off)
 * @param eventTimeMs event time of the frame
 * @param status {@link #OK}, or {@link #FAILED} when inference gave up on this keyframe: its text is
 *     then unknown, not empty, and memory and search must not read it as a blank screen; or {@link #SHED}
 *     when a live stream's keyframe was not perceived so that newer ones could be (its lines and
 *     objects are then the stream's last perceived keyframe's, carried, and it has no embedding)
 * @param failure why inference failed or was skipped; null when it did not
 */
public record Perception(String streamId, long epochMs, long frameIndex, long ptsMs, String role, List<TextLine> lines,
        String text, float[] textEmbedding, float[] imageDescriptor, String device, int width, int height, List<Detection> objects,
        long eventTimeMs, String status, String failure) implements StreamRecord {
    @Override
    public String position() {
        return "frame " + frameIndex;
    }

    public static final String OK = "ok";
    public static final String FAILED = "failed";
    public static final String SHED = "shed";

    /** A successful perception. */
    public Perception(String streamId, long epochMs, long frameIndex, long ptsMs, String role, List<TextLine> lines, String text,
            float[] textEmbedding, float[] imageDescriptor, String device, int width, int height, List<Detection> objects, long eventTimeMs) {
        this(streamId, epochMs, frameIndex, ptsMs, role, lines, text, textEmbedding, imageDescriptor, device, width, height, objects,
                eventTimeMs, OK, null);
    }

    /** A keyframe whose inference failed, with the reason; nothing is claimed about what it shows. */
    public static Perception failed(Keyframe k, String device, int width, int height, String reason) {
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), List.of(), null, null, null, device,
                width, height, List.of(), k.eventTimeMs(), FAILED, reason);
    }

    /**
     * A live stream's keyframe skipped because perception was behind and newer keyframes of the
     * stream waited: it carries the last perceived keyframe's lines and objects (empty when there
     * was none), says so in {@code reason}, and has neither embedding nor descriptor.
     */
    public static Perception shed(Keyframe k, String device, int width, int height, List<TextLine> carried, List<Detection> objects,
            String reason) {
        StringBuilder text = new StringBuilder();
        carried.forEach(l -> text.append(l.text()).append('\n'));
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), carried, text.toString().trim(), null, null,
                device, width, height, objects, k.eventTimeMs(), SHED, reason);
    }

    /** Whether this keyframe was skipped to keep up, its text carried from the last perceived one. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isShed() {
        return SHED.equals(status);
    }

    /** Whether inference failed, so the text is unknown. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isFailed() {
        return FAILED.equals(status);
    }

    public String id() {
        return Ids.frame(streamId, frameIndex);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Perception p && streamId.equals(p.streamId) && epochMs == p.epochMs && frameIndex == p.frameIndex
                && Objects.equals(lines, p.lines) && Objects.equals(text, p.text) && Arrays.equals(textEmbedding, p.textEmbedding)
                && Arrays.equals(imageDescriptor, p.imageDescriptor) && Objects.equals(objects, p.objects)
                && Objects.equals(status, p.status) && Objects.equals(failure, p.failure);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, frameIndex, text);
    }

    @Override
    public String toString() {
        return "Perception[" + id() + (isFailed() ? " failed: " + failure : " " + lines.size() + " lines, " + objects.size() + " objects") + "]";
    }
}
