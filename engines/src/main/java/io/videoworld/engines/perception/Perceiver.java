package io.videoworld.engines.perception;

import ai.djl.engine.Engine;
import io.videoworld.core.Detection;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.engines.privacy.Redactor;
import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ImageDescriptor;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.TextEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The models perception runs on a subtask (OCR, text embedder, detector when configured) and how
 * their outputs make a {@link Perception}; no Flink, shared by the batched
 * {@code PerceptionFunction} and the change-gated {@code GatedPerception}.
 */
public final class Perceiver implements AutoCloseable {
    /** The stage a keyframe perception could not read is dead-lettered under. */
    public static final String STAGE = "perception";

    /** The OCR model. */
    public final OcrEngine ocr;
    final TextEmbedder embedder;
    /** The detector, or null when none is configured. */
    public final ObjectDetector detector;
    /** Where the models run. */
    public final String device;
    private Redactor redactor = Redactor.NONE;

    private Perceiver(OcrEngine ocr, TextEmbedder embedder, ObjectDetector detector, String device) {
        this.ocr = ocr;
        this.embedder = embedder;
        this.detector = detector;
        this.device = device;
    }

    /** {@code detection} null runs no detector. */
    public static Perceiver load(String models, DetectorSettings detection) throws Exception {
        OcrEngine ocr = OcrEngine.load(Path.of(models));
        TextEmbedder embedder = TextEmbedder.load(Path.of(models));
        ObjectDetector detector = detection == null ? null
                : ObjectDetector.load(Path.of(models), detection.model(), detection.labels(), detection.inputSize(), detection.minScore());
        return new Perceiver(ocr, embedder, detector, device());
    }

    /** Redacts the text read with {@code r} before it is joined, embedded and returned; {@link Redactor#NONE} by default. */
    public Perceiver redacting(Redactor r) {
        this.redactor = r == null ? Redactor.NONE : r;
        return this;
    }

    /** The device the models of this process run on: "gpu" where ONNX Runtime sees one, else "cpu". */
    public static String device() {
        return Engine.getEngine("OnnxRuntime").getGpuCount() > 0 ? "gpu" : "cpu";
    }

    /** A keyframe's perception from what was read and found on it. */
    public Perception perception(Keyframe k, DecodedImage image, float[] descriptor, List<TextLine> read, List<Detection> objects) {
        // Secrets leave before the text is joined and embedded, so neither the index nor the vector holds them.
        List<TextLine> lines = redactor.redactLines(read);
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l.text()).append('\n'));
        String joined = text.toString().trim();
        List<Detection> found = objects == null ? List.of() : withoutAppearance(objects);
        // The embedding reads what is written and what is there, so "a person at a desk" finds frames without text too.
        String described = (joined + "\n" + labelsLine(found)).trim();
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                described.isEmpty() ? null : embedder.embed(described), descriptor, device, image.width(), image.height(), found, k.eventTimeMs());
    }

    /** The perception that records a keyframe as failed, with the reason. */
    public Perception failed(Keyframe k, String reason) {
        JpegInfo info = JpegInfo.parse(k.jpeg());
        return Perception.failed(k, device, info == null ? 0 : info.width(), info == null ? 0 : info.height(), reason);
    }

    /** "objects: 2 person, car" for the labels a frame's detections carry (score 0.3 and up). */
    static String labelsLine(List<Detection> found) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Detection d : found) {
            if (d.score() >= 0.3) {
                counts.merge(d.category(), 1, Integer::sum);
            }
        }
        if (counts.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("objects:");
        counts.forEach((c, n) -> sb.append(' ').append(n > 1 ? n + " " : "").append(c).append(','));
        return sb.substring(0, sb.length() - 1);
    }

    static List<Detection> withoutAppearance(List<Detection> in) {
        List<Detection> out = new ArrayList<>(in.size());
        for (Detection d : in) {
            out.add(new Detection(d.category(), d.score(), d.x1(), d.y1(), d.x2(), d.y2(), null));
        }
        return out;
    }

    /** The colour/layout descriptor of a keyframe; throws when its JPEG has no readable header. */
    public static float[] descriptor(Keyframe k) {
        JpegInfo info = JpegInfo.parse(k.jpeg());
        Frame f = new Frame(k.frameIndex(), k.ptsMs(), null, info.width(), info.height(), k.jpeg());
        FrameBatch b = new FrameBatch(k.streamId(), SourceKind.VIDEO, "", 0, k.epochMs(), null, List.of(f));
        return ImageDescriptor.of(FeatureExtractor.extract(b, f));
    }

    @Override
    public void close() {
        ocr.close();
        embedder.close();
        if (detector != null) {
            detector.close();
        }
    }
}
