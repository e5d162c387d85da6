package io.videoworld.operators.inference;

import io.videoworld.engines.perception.DetectorSettings;

import io.videoworld.engines.perception.Perceiver;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Detection;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import io.videoworld.engines.privacy.KeyframePixels;
import io.videoworld.perception.DecodedImage;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inference on keyframes, each read whole: OCR lines, objects (when a detector is configured), a
 * text embedding of what was read and which objects are there, and an image descriptor
 * ({@link Perceiver}); keyframes of all streams on a subtask share a batch (see
 * {@link BatchedInference} for batching and metrics, prefix {@code vwPerception}). Nothing is ever
 * silently empty: a keyframe whose JPEG does not decode is a dead letter and a failed perception;
 * one whose inference fails after the batcher's retries, or times out, is indexed as failed with
 * the reason (never as a blank screen), logged at WARN and counted in {@code vwPerceptionFailures}.
 * With the change gate on, the job runs {@link GatedPerception} instead.
 */
public final class PerceptionFunction extends BatchedInference<Keyframe, PerceptionResult> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = Perceiver.STAGE;
    private static final Logger LOG = LoggerFactory.getLogger(PerceptionFunction.class);

    private final String models;
    private final DetectorSettings detection;
    private transient Perceiver perceiver;
    private io.videoworld.engines.privacy.Redactor redactor = io.videoworld.engines.privacy.Redactor.NONE;
    private boolean storing;

    /** {@code detection} null runs no detector on keyframes. */
    public PerceptionFunction(String models, DetectorSettings detection, int maxBatch, long maxWaitMs) {
        super(STAGE, "vwPerception", maxBatch, maxWaitMs);
        this.models = models;
        this.detection = detection;
    }

    /** Redacts what is read with {@code r} before it is indexed; set before the job starts. */
    public PerceptionFunction redacting(io.videoworld.engines.privacy.Redactor r) {
        this.redactor = r == null ? io.videoworld.engines.privacy.Redactor.NONE : r;
        return this;
    }

    /**
     * With {@code on}, each result carries the keyframe for the frame store, its redacted lines blacked out
     * ({@link KeyframePixels}); a keyframe whose perception failed carries none. Set before the job starts.
     */
    public PerceptionFunction storingKeyframes(boolean on) {
        this.storing = on;
        return this;
    }

    @Override
    protected boolean openModels() throws Exception {
        perceiver = Perceiver.load(models, detection).redacting(redactor);
        LOG.info("perception models from {} on {}", models, perceiver.device);
        return "gpu".equals(perceiver.device);
    }

    @Override
    protected PerceptionResult deadLettered(Keyframe k, DeadLetter deadLetter) {
        return new PerceptionResult(null, deadLetter);
    }

    @Override
    protected long eventTimeMs(Keyframe k) {
        return k.eventTimeMs();
    }

    @Override
    protected PerceptionResult failed(Keyframe k, String reason) {
        LOG.warn("perception of {} frame {} failed: {}", k.streamId(), k.frameIndex(), reason);
        return new PerceptionResult(perceiver.failed(k, reason), null);
    }

    @Override
    protected List<PerceptionResult> infer(List<Keyframe> batch) {
        // Decode first, one by one: a keyframe that does not decode is set aside, the rest are perceived together.
        List<Keyframe> good = new ArrayList<>(batch.size());
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<float[]> descriptors = new ArrayList<>(batch.size());
        PerceptionResult[] out = new PerceptionResult[batch.size()];
        int[] slot = new int[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            Keyframe k = batch.get(i);
            try {
                DecodedImage image = DecodedImage.decode(k.jpeg());
                descriptors.add(Perceiver.descriptor(k));
                images.add(image);
                good.add(k);
                slot[good.size() - 1] = i;
            } catch (RuntimeException e) {
                out[i] = undecodable(k, e);
            }
        }
        if (!good.isEmpty()) {
            List<List<Detection>> objects = perceiver.detector == null ? null : perceiver.detector.detect(images);
            List<List<TextLine>> read = perceiver.ocr.readAll(good.stream().map(Keyframe::jpeg).toList());
            for (int g = 0; g < good.size(); g++) {
                Perception p = perceiver.perception(good.get(g), images.get(g), descriptors.get(g), read.get(g),
                        objects == null ? null : objects.get(g));
                out[slot[g]] = new PerceptionResult(p, null, storing ? KeyframePixels.toStore(good.get(g), p) : null);
            }
        }
        return List.of(out);
    }

    /** A failed perception with a dead letter, for a keyframe whose JPEG does not decode. */
    private PerceptionResult undecodable(Keyframe k, RuntimeException e) {
        String reason = "keyframe does not decode: " + e.getMessage();
        return new PerceptionResult(failure(k, reason).value(),
                DeadLetter.ofFrame(STAGE, reason, k.streamId(), k.frameIndex(), k.eventTimeMs(), k.jpeg()));
    }

    @Override
    protected void closeModels() {
        if (perceiver != null) {
            perceiver.close();
        }
    }
}
