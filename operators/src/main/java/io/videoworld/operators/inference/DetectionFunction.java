package io.videoworld.operators.inference;

import io.videoworld.engines.perception.DetectorSettings;
import io.videoworld.engines.sampling.StaleSamples;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.DetectionResult;
import io.videoworld.core.SampledFrame;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.ThreadNice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Object detection on sampled frames: frames of every stream on this subtask share one tensor
 * batch, one detector per subtask (see {@link BatchedInference} for batching and metrics, prefix
 * {@code vwDetect}). Each frame also gets its whole-frame colour histogram, by which the tracker
 * notices cuts. A frame that cannot be decoded is a dead letter; one that does not decode, fails
 * after the batcher's retries or times out yields a frame of width 0 that the tracker skips and no
 * detection document (a failure, not an empty result), is logged at WARN and counted in
 * {@code vwDetectFailures}; never a failed job. A sample the motion gate marked
 * {@link SampledFrame#carry()} is decoded (for its histogram) but not detected: its detections
 * are left null for {@link CarryDetections} to fill in. A live stream's sample that fell more than
 * {@code maxLiveLagMs} behind while a newer one of its stream waits is dropped undecoded
 * ({@link StaleSamples}, {@link DetectedFrame#dropped}; counted in {@code vwDetectDropped}); while
 * live samples are in flight, a batch takes only what the detector can do in half that lag, and
 * (with that limit on) its samples are detected one at a time, each checked as its own detection
 * starts: the detector can slow down within a batch (OCR took the cores), and a sample checked only
 * as the batch started was then detected 11 s after capture.
 */
public final class DetectionFunction extends BatchedInference<SampledFrame, DetectionResult> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "detection";
    private static final Logger LOG = LoggerFactory.getLogger(DetectionFunction.class);

    private final String models;
    private final DetectorSettings settings;
    private final int nice;
    private final long maxLiveLagMs;
    private final boolean limitLiveBatches;
    private transient ObjectDetector detector;
    private transient StaleSamples stale;
    private transient Counter dropped;
    /** Wall-clock milliseconds (a test sets its own before the function opens). */
    private transient java.util.function.LongSupplier clock;

    public DetectionFunction(String models, DetectorSettings settings, int maxBatch, long maxWaitMs) {
        this(models, settings, 1, maxBatch, maxWaitMs);
    }

    /** @param workers detector calls at once per subtask (one session, a predictor per worker) */
    public DetectionFunction(String models, DetectorSettings settings, int workers, int maxBatch, long maxWaitMs) {
        this(models, settings, workers, maxBatch, maxWaitMs, 0);
    }

    /**
     * @param nice added to the nice value of the task thread that opens the detector, and so of the
     *     detector's threads created after it; only for a task that runs nothing else that must not lag
     */
    public DetectionFunction(String models, DetectorSettings settings, int workers, int maxBatch, long maxWaitMs, int nice) {
        this(models, settings, workers, maxBatch, maxWaitMs, nice, 0);
    }

    /** @param maxLiveLagMs a live sample further behind than this is skipped when a newer one of its stream waits; 0 never */
    public DetectionFunction(String models, DetectorSettings settings, int workers, int maxBatch, long maxWaitMs, int nice, long maxLiveLagMs) {
        this(models, settings, workers, maxBatch, maxWaitMs, nice, maxLiveLagMs, false);
    }

    /** @param limitLiveBatches while live samples are in flight, a batch takes only what the detector does in half of maxLiveLagMs */
    public DetectionFunction(String models, DetectorSettings settings, int workers, int maxBatch, long maxWaitMs, int nice, long maxLiveLagMs,
            boolean limitLiveBatches) {
        super(STAGE, "vwDetect", workers, maxBatch, maxWaitMs);
        this.models = models;
        this.settings = settings;
        this.nice = nice;
        this.maxLiveLagMs = maxLiveLagMs;
        this.limitLiveBatches = limitLiveBatches;
    }

    @Override
    protected boolean openModels() throws Exception {
        // Before the session starts: its worker threads, and the batcher's thread started after this, inherit the nice value.
        int niceNow = ThreadNice.lowerCurrentThread(nice);
        if (niceNow != Integer.MIN_VALUE) {
            LOG.info("detection threads of this subtask run at nice {}", niceNow);
        }
        stale = new StaleSamples(maxLiveLagMs, limitLiveBatches);
        if (clock == null) {
            clock = System::currentTimeMillis;
        }
        dropped = getRuntimeContext().getMetricGroup().counter("vwDetectDropped");
        detector = ObjectDetector.load(Path.of(models), settings.model(), settings.labels(), settings.inputSize(), settings.minScore());
        return "gpu".equals(detector.device());
    }

    @Override
    protected DetectionResult deadLettered(SampledFrame f, DeadLetter deadLetter) {
        return new DetectionResult(null, deadLetter);
    }

    @Override
    protected long eventTimeMs(SampledFrame f) {
        return f.eventTimeMs();
    }

    @Override
    protected DetectionResult failed(SampledFrame f, String reason) {
        LOG.warn("detection on {} frame {} failed: {}", f.streamId(), f.frameIndex(), reason);
        return new DetectionResult(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), 0, 0, f.last(),
                List.of(), null, detector.device()), null);
    }

    /** Live streams with samples in flight on this subtask (for tests: none once every sample is done; -1 before it opens). */
    int streamsInFlight() {
        return stale == null ? -1 : stale.streams();
    }

    /** Reads the wall clock from {@code wallMs} instead (tests; before the function opens). */
    void clock(java.util.function.LongSupplier wallMs) {
        this.clock = wallMs;
    }

    @Override
    protected int batchLimit() {
        return stale.batchLimit(super.batchLimit());
    }

    @Override
    protected void submitted(SampledFrame f) {
        stale.arrived(f);
    }

    @Override
    protected List<DetectionResult> infer(List<SampledFrame> batch) {
        // While live samples are in flight with the limit on, each sample is checked and detected on its own.
        boolean oneByOne = stale.limiting();
        long now = clock.getAsLong();
        long start = System.nanoTime();
        List<List<Detection>> detected = new ArrayList<>(batch.size());
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<Integer> decodable = new ArrayList<>(batch.size());
        List<DecodedImage> toDetect = new ArrayList<>(batch.size());
        DetectionResult[] out = new DetectionResult[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            SampledFrame f = batch.get(i);
            if (oneByOne && i > 0) {
                now = clock.getAsLong();
            }
            if (stale.drop(f, now)) {
                // Behind with a newer sample waiting: skipped undecoded, so the stream catches up to its newest sample.
                dropped.inc();
                out[i] = new DetectionResult(DetectedFrame.dropped(f, detector.device()), null);
                continue;
            }
            DecodedImage img;
            try {
                img = DecodedImage.decode(f.jpeg());
            } catch (RuntimeException e) {
                String reason = "frame does not decode: " + e.getMessage();
                out[i] = new DetectionResult(failure(f, reason).value(),
                        DeadLetter.ofFrame(STAGE, reason, f.streamId(), f.frameIndex(), f.eventTimeMs(), f.jpeg()));
                continue;
            }
            images.add(img);
            decodable.add(i);
            if (!f.carry()) {
                toDetect.add(img);
                if (oneByOne) {
                    detected.addAll(detector.detect(List.of(img)));
                }
            }
        }
        if (!oneByOne && !toDetect.isEmpty()) {
            detected = detector.detect(toDetect);
        }
        stale.detected(toDetect.size(), (System.nanoTime() - start) / 1_000_000);
        for (SampledFrame f : batch) {
            stale.done(f);
        }
        int next = 0;
        for (int k = 0; k < decodable.size(); k++) {
            SampledFrame f = batch.get(decodable.get(k));
            DecodedImage img = images.get(k);
            // A carried sample's detections stay null here; CarryDetections fills them in stream order.
            List<Detection> found = f.carry() ? null : detected.get(next++);
            out[decodable.get(k)] = new DetectionResult(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(),
                    img.width(), img.height(), f.last(), found, img.colourHistogram(), detector.device()), null);
        }
        return List.of(out);
    }

    @Override
    protected void closeModels() {
        if (detector != null) {
            detector.close();
        }
    }
}
