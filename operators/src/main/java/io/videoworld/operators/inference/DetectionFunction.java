package io.videoworld.operators.inference;

import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.DetectionResult;
import io.videoworld.core.Detection;
import io.videoworld.core.SampledFrame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * histogram, by which the tracker notices cuts. A frame that cannot be decoded is a dead letter;
 * one that does not decode, fails after the batcher's retries or times out yields a frame of width
 * 0 that the tracker skips and no detection document (a failure, not an empty result), is logged
 * at WARN and counted in {@code vwDetectFailures}; never a failed job. Metrics: {@code vwDetectGpu},
 * {@code vwDetectBatchSize}, {@code vwDetectBatchMs}, {@code vwDetectFramesPerSecond}.
 */
public final class DetectionFunction extends RichAsyncFunction<SampledFrame, DetectionResult> {
    private static final Logger LOG = LoggerFactory.getLogger(DetectionFunction.class);
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "detection";
    private final String models;
    private final DetectorSettings settings;
    private final int maxBatch;
    private final long maxWaitMs;
    private transient ObjectDetector detector;
    private transient MicroBatcher<SampledFrame, DetectionResult> batcher;
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
    public void asyncInvoke(SampledFrame f, ResultFuture<DetectionResult> result) {
        batcher.submit(f).whenComplete((d, e) -> {
            if (e != null) {
                result.complete(Collections.singletonList(failed(f, "detection failed after retries: " + e, null)));
            } else {
                result.complete(Collections.singletonList(d));
            }
        });
    }

    @Override
    public void timeout(SampledFrame f, ResultFuture<DetectionResult> result) {
        result.complete(Collections.singletonList(failed(f, "detection timed out (vw.detect.timeout); the job is overloaded", null)));
    }

    private DetectionResult failed(SampledFrame f, String reason, DeadLetter deadLetter) {
        failures.inc();
        LOG.warn("detection on {} frame {} failed: {}", f.streamId(), f.frameIndex(), reason);
        return new DetectionResult(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), 0, 0, f.last(),
                List.of(), null, detector.device()), deadLetter);
    }

    private List<DetectionResult> detect(List<SampledFrame> batch) {
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<Integer> decodable = new ArrayList<>(batch.size());
        DetectionResult[] out = new DetectionResult[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            SampledFrame f = batch.get(i);
            try {
                images.add(DecodedImage.decode(f.jpeg()));
                decodable.add(i);
            } catch (RuntimeException e) {
                String reason = "frame does not decode: " + e.getMessage();
                out[i] = failed(f, reason, DeadLetter.ofFrame(STAGE, reason, f.streamId(), f.frameIndex(), f.eventTimeMs(), f.jpeg()));
            }
        }
        List<List<Detection>> found = images.isEmpty() ? List.of() : detector.detect(images);
        for (int k = 0; k < decodable.size(); k++) {
            SampledFrame f = batch.get(decodable.get(k));
            DecodedImage img = images.get(k);
            out[decodable.get(k)] = new DetectionResult(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(),
                    img.width(), img.height(), f.last(), found.get(k), img.colourHistogram(), detector.device()), null);
        }
        return List.of(out);
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
