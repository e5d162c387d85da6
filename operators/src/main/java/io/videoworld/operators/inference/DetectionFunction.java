package io.videoworld.operators.inference;

import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.SampledFrame;
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

/**
 * Object detection on sampled frames as Flink async I/O: frames of every stream on this subtask
 * are micro-batched into one tensor batch for the detector, which is opened once per subtask in
 * {@code open()} and closed in {@code close()}. Each frame also gets its whole-frame colour
 * histogram, by which the tracker notices cuts. A frame that cannot be decoded or times out
 * yields no objects (and a count), not a failed job. Metrics: {@code vwDetectGpu},
 * {@code vwDetectBatchSize}, {@code vwDetectBatchMs}, {@code vwDetectFramesPerSecond}.
 */
public final class DetectionFunction extends RichAsyncFunction<SampledFrame, DetectedFrame> {
    private final String models;
    private final DetectorSettings settings;
    private final int maxBatch;
    private final long maxWaitMs;
    private transient ObjectDetector detector;
    private transient MicroBatcher<SampledFrame, DetectedFrame> batcher;
    private transient Counter failures;

    /** Which detector and how to read it; serializable so the job graph can carry it. */
    public record DetectorSettings(String model, List<String> labels, int inputSize, double minScore) implements java.io.Serializable {}

    public DetectionFunction(String models, DetectorSettings settings, int maxBatch, long maxWaitMs) {
        this.models = models;
        this.settings = settings;
        this.maxBatch = maxBatch;
        this.maxWaitMs = maxWaitMs;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        detector = ObjectDetector.load(Path.of(models), settings.model(), settings.labels(), settings.inputSize(), settings.minScore());
        var metrics = getRuntimeContext().getMetricGroup();
        boolean gpu = "gpu".equals(detector.device());
        metrics.gauge("vwDetectGpu", () -> gpu ? 1 : 0);
        Histogram batchSize = metrics.histogram("vwDetectBatchSize", new DescriptiveStatisticsHistogram(500));
        Histogram batchMs = metrics.histogram("vwDetectBatchMs", new DescriptiveStatisticsHistogram(500));
        Meter frames = metrics.meter("vwDetectFramesPerSecond", new MeterView(30));
        failures = metrics.counter("vwDetectFailures");
        batcher = new MicroBatcher<>("detect-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), maxBatch, maxWaitMs,
                this::detect, (size, nanos) -> {
                    batchSize.update(size);
                    batchMs.update(nanos / 1_000_000);
                    frames.markEvent(size);
                });
    }

    @Override
    public void asyncInvoke(SampledFrame f, ResultFuture<DetectedFrame> result) {
        batcher.submit(f).whenComplete((d, e) -> {
            if (e != null) {
                result.completeExceptionally(e instanceof Exception ex ? ex : new RuntimeException(e));
            } else {
                result.complete(Collections.singletonList(d));
            }
        });
    }

    @Override
    public void timeout(SampledFrame f, ResultFuture<DetectedFrame> result) {
        failures.inc();
        result.complete(Collections.singletonList(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(),
                f.eventTimeMs(), 0, 0, f.last(), List.of(), null, detector.device())));
    }

    private List<DetectedFrame> detect(List<SampledFrame> batch) {
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<Integer> decodable = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            try {
                images.add(DecodedImage.decode(batch.get(i).jpeg()));
                decodable.add(i);
            } catch (IllegalArgumentException e) {
                failures.inc();
            }
        }
        List<List<Detection>> found = images.isEmpty() ? List.of() : detector.detect(images);
        List<DetectedFrame> out = new ArrayList<>(batch.size());
        int k = 0;
        for (int i = 0; i < batch.size(); i++) {
            SampledFrame f = batch.get(i);
            if (k < decodable.size() && decodable.get(k) == i) {
                DecodedImage img = images.get(k);
                out.add(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), img.width(), img.height(),
                        f.last(), found.get(k), img.colourHistogram(), detector.device()));
                k++;
            } else {
                out.add(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), 0, 0, f.last(), List.of(),
                        null, detector.device()));
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        if (batcher != null) {
            batcher.close();
        }
        if (detector != null) {
            detector.close();
        }
    }
}
