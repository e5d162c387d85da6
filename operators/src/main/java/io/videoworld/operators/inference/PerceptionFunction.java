package io.videoworld.operators.inference;

import ai.djl.engine.Engine;
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
 * Inference on keyframes: OCR lines, a text embedding of what was read, and an image
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
    private transient OcrEngine ocr;
    private transient TextEmbedder embedder;
    private transient MicroBatcher<Keyframe, Perception> batcher;
    private transient String device;
    private transient Counter timeouts;

    public PerceptionFunction(String models, int maxBatch, long maxWaitMs) {
        this.models = models;
        this.maxBatch = maxBatch;
        this.maxWaitMs = maxWaitMs;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        ocr = OcrEngine.load(Path.of(models));
        embedder = TextEmbedder.load(Path.of(models));
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
        List<Perception> out = new ArrayList<>(batch.size());
        for (Keyframe k : batch) {
            List<TextLine> lines = ocr.read(k.jpeg());
            StringBuilder text = new StringBuilder();
            lines.forEach(l -> text.append(l.text()).append('\n'));
            String joined = text.toString().trim();
            out.add(new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                    joined.isEmpty() ? null : embedder.embed(joined), descriptor(k), device));
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
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), List.of(), "", null,
                descriptor(k), device);
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
    }
}
