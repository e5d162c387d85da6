package io.videoworld.operators.inference;

import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ImageDescriptor;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.TextEmbedder;
import ai.djl.engine.Engine;
import io.videoworld.core.Detection;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.operators.shots.FeatureExtractor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inference on keyframes: OCR lines, objects (when a detector is configured), a text embedding
 * of what was read and which objects are there, and an image
 * descriptor. Runs as Flink async I/O so keyframes from every stream on this subtask are
 * micro-batched ({@code maxBatch}, {@code maxWaitMs}) into one worker that owns the models: one
 * OCR engine and one embedder per subtask, created in {@code open()} and closed in
 * {@code close()}. The device is chosen by the engine (a GPU when DJL sees one), logged, and
 * shown as the gauge {@code vwInferenceGpu}. Nothing is ever silently empty: a keyframe whose
 * JPEG does not decode is a dead letter and a failed perception; one whose inference fails after
 * the batcher's retries, or times out, is indexed as failed with the reason (never as a blank
 * screen), logged at WARN and counted in {@code vwPerceptionFailures}.
 */
public final class PerceptionFunction extends RichAsyncFunction<Keyframe, PerceptionResult> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "perception";
    private static final Logger LOG = LoggerFactory.getLogger(PerceptionFunction.class);

    private final String models;
    private final int maxBatch;
    private final long maxWaitMs;
    private final DetectionFunction.DetectorSettings detection;
    private transient OcrEngine ocr;
    private transient ObjectDetector detector;
    private transient TextEmbedder embedder;
    private transient MicroBatcher<Keyframe, PerceptionResult> batcher;
    private transient String device;
    private transient Counter timeouts;
    private transient Counter failures;

    /** {@code detection} null runs no detector on keyframes. */
    public PerceptionFunction(String models, DetectionFunction.DetectorSettings detection, int maxBatch, long maxWaitMs) {
        this.models = models;
        this.detection = detection;
        this.maxBatch = maxBatch;
        this.maxWaitMs = maxWaitMs;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        ocr = OcrEngine.load(Path.of(models));
        embedder = TextEmbedder.load(Path.of(models));
        if (detection != null) {
            detector = ObjectDetector.load(Path.of(models), detection.model(), detection.labels(), detection.inputSize(), detection.minScore());
        }
        boolean gpu = Engine.getEngine("OnnxRuntime").getGpuCount() > 0;
        device = gpu ? "gpu" : "cpu";
        LOG.info("perception models from {} on {}", models, device);
        var metrics = getRuntimeContext().getMetricGroup();
        metrics.gauge("vwInferenceGpu", () -> gpu ? 1 : 0);
        Histogram batchSize = metrics.histogram("vwInferenceBatchSize", new DescriptiveStatisticsHistogram(500));
        Histogram batchMs = metrics.histogram("vwInferenceBatchMs", new DescriptiveStatisticsHistogram(500));
        Meter frames = metrics.meter("vwInferenceFramesPerSecond", new MeterView(30));
        timeouts = metrics.counter("vwInferenceTimeouts");
        failures = metrics.counter("vwPerceptionFailures");
        batcher = new MicroBatcher<>("perception-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), maxBatch, maxWaitMs,
                this::perceive, (size, nanos) -> {
                    batchSize.update(size);
                    batchMs.update(nanos / 1_000_000);
                    frames.markEvent(size);
                });
    }

    @Override
    public void asyncInvoke(Keyframe k, ResultFuture<PerceptionResult> result) {
        batcher.submit(k).whenComplete((p, e) -> {
            if (e != null) {
                result.complete(Collections.singletonList(failed(k, "inference failed after retries: " + rootMessage(e), null)));
            } else {
                result.complete(Collections.singletonList(p));
            }
        });
    }

    @Override
    public void timeout(Keyframe k, ResultFuture<PerceptionResult> result) {
        timeouts.inc();
        result.complete(Collections.singletonList(failed(k, "inference timed out (vw.perception.timeout); the job is overloaded", null)));
    }

    private PerceptionResult failed(Keyframe k, String reason, DeadLetter deadLetter) {
        failures.inc();
        LOG.warn("perception of {} frame {} failed: {}", k.streamId(), k.frameIndex(), reason);
        JpegInfo info = JpegInfo.parse(k.jpeg());
        return new PerceptionResult(Perception.failed(k, device, info == null ? 0 : info.width(), info == null ? 0 : info.height(), reason),
                deadLetter);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private List<PerceptionResult> perceive(List<Keyframe> batch) {
        // Decode first, one by one: a keyframe that does not decode is set aside, the rest are perceived together.
        List<Keyframe> good = new ArrayList<>(batch.size());
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<float[]> descriptors = new ArrayList<>(batch.size());
        PerceptionResult[] out = new PerceptionResult[batch.size()];
        int[] slot = new int[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            Keyframe k = batch.get(i);
            try {
                images.add(DecodedImage.decode(k.jpeg()));
                descriptors.add(descriptor(k));
                good.add(k);
                slot[good.size() - 1] = i;
            } catch (RuntimeException e) {
                if (images.size() > good.size()) {
                    images.remove(images.size() - 1);
                }
                String reason = "keyframe does not decode: " + e.getMessage();
                out[i] = failed(k, reason, DeadLetter.ofFrame(STAGE, reason, k.streamId(), k.frameIndex(), k.eventTimeMs(), k.jpeg()));
            }
        }
        if (!good.isEmpty()) {
            List<List<Detection>> objects = detector == null ? null : detector.detect(images);
            List<List<TextLine>> read = ocr.readAll(good.stream().map(Keyframe::jpeg).toList());
            for (int g = 0; g < good.size(); g++) {
                Keyframe k = good.get(g);
                List<TextLine> lines = read.get(g);
                StringBuilder text = new StringBuilder();
                lines.forEach(l -> text.append(l.text()).append('\n'));
                String joined = text.toString().trim();
                List<Detection> found = objects == null ? List.of() : withoutAppearance(objects.get(g));
                // The embedding reads what is written and what is there, so "a person at a desk" finds frames without text too.
                String described = (joined + "\n" + labelsLine(found)).trim();
                out[slot[g]] = new PerceptionResult(new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                        described.isEmpty() ? null : embedder.embed(described), descriptors.get(g), device, images.get(g).width(),
                        images.get(g).height(), found, k.eventTimeMs()), null);
            }
        }
        return List.of(out);
    }

    /** "objects: 2 person, car" for the labels a frame's detections carry (score 0.3 and up). */
    static String labelsLine(List<Detection> found) {
        java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
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

    private static List<Detection> withoutAppearance(List<Detection> in) {
        List<Detection> out = new ArrayList<>(in.size());
        for (Detection d : in) {
            out.add(new Detection(d.category(), d.score(), d.x1(), d.y1(), d.x2(), d.y2(), null));
        }
        return out;
    }

    private static float[] descriptor(Keyframe k) {
        JpegInfo info = JpegInfo.parse(k.jpeg());
        Frame f = new Frame(k.frameIndex(), k.ptsMs(), null, info.width(), info.height(), k.jpeg());
        FrameBatch b = new FrameBatch(k.streamId(), SourceKind.VIDEO, "", 0, k.epochMs(), null, List.of(f));
        return ImageDescriptor.of(FeatureExtractor.extract(b, f));
    }

    @Override
    public void close() throws Exception {
        if (batcher != null) {
            batcher.close();
        }
        if (ocr != null) {
            ocr.close();
        }
        if (embedder != null) {
            embedder.close();
        }
        if (detector != null) {
            detector.close();
        }
    }
}
