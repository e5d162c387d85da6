package io.videoworld.operators.inference;

import ai.djl.engine.Engine;
import io.videoworld.core.Detection;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
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
 * shown as the gauge {@code vwInferenceGpu}. A keyframe whose inference times out yields an
 * empty perception and a count, not a failed job.
 */
public final class PerceptionFunction extends RichAsyncFunction<Keyframe, Perception> {
    private static final Logger LOG = LoggerFactory.getLogger(PerceptionFunction.class);

    private final String models;
    private final int maxBatch;
    private final long maxWaitMs;
    private final DetectionFunction.DetectorSettings detection;
    private transient OcrEngine ocr;
    private transient ObjectDetector detector;
    private transient TextEmbedder embedder;
    private transient MicroBatcher<Keyframe, Perception> batcher;
    private transient String device;
    private transient Counter timeouts;

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
        batcher = new MicroBatcher<>("perception-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), maxBatch, maxWaitMs,
                this::perceive, (size, nanos) -> {
                    batchSize.update(size);
                    batchMs.update(nanos / 1_000_000);
                    frames.markEvent(size);
                });
    }

    @Override
    public void asyncInvoke(Keyframe k, ResultFuture<Perception> result) {
        batcher.submit(k).whenComplete((p, e) -> {
            if (e != null) {
                result.completeExceptionally(e instanceof Exception ex ? ex : new RuntimeException(e));
            } else {
                result.complete(Collections.singletonList(p));
            }
        });
    }

    @Override
    public void timeout(Keyframe k, ResultFuture<Perception> result) {
        timeouts.inc();
        result.complete(Collections.singletonList(empty(k)));
    }

    private List<Perception> perceive(List<Keyframe> batch) {
        List<DecodedImage> images = new ArrayList<>(batch.size());
        for (Keyframe k : batch) {
            images.add(DecodedImage.decode(k.jpeg()));
        }
        List<List<Detection>> objects = detector == null ? null : detector.detect(images);
        List<List<TextLine>> read = ocr.readAll(batch.stream().map(Keyframe::jpeg).toList());
        List<Perception> out = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Keyframe k = batch.get(i);
            List<TextLine> lines = read.get(i);
            StringBuilder text = new StringBuilder();
            lines.forEach(l -> text.append(l.text()).append('\n'));
            String joined = text.toString().trim();
            List<Detection> found = objects == null ? List.of() : withoutAppearance(objects.get(i));
            // The embedding reads what is written and what is there, so "a person at a desk" finds frames without text too.
            String described = (joined + "\n" + labelsLine(found)).trim();
            out.add(new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                    described.isEmpty() ? null : embedder.embed(described), descriptor(k), device, images.get(i).width(),
                    images.get(i).height(), found, k.eventTimeMs()));
        }
        return out;
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

    private Perception empty(Keyframe k) {
        JpegInfo info = JpegInfo.parse(k.jpeg());
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), List.of(), "", null,
                descriptor(k), device, info.width(), info.height(), List.of(), k.eventTimeMs());
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
