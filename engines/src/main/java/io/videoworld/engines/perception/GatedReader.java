package io.videoworld.engines.perception;

import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.gates.ScreenMemory;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Detection;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker of change-gated perception: its models and gate, and the read of one keyframe against
 * its stream's last perceived one, with no Flink state touched (no Flink at all), so that
 * {@code GatedPerception} can run it off the task thread and apply what it returns there. Used by
 * one thread at a time.
 */
public final class GatedReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatedReader.class);
    /** Inference that fails (a model runtime hiccup) is tried twice more, after 200 ms and then 400 ms. */
    private static final RetryPolicy<Inferred> INFERENCE_RETRIES = RetryPolicy.<Inferred>builder().handle(RuntimeException.class)
            .withMaxRetries(2).withBackoff(Duration.ofMillis(200), Duration.ofMillis(400)).build();

    /** One successful inference: the gate's read, the objects, whether detection was skipped, the perception. */
    private record Inferred(ScreenGate.Read read, List<Detection> objects, boolean skipped, Perception perception) {}

    final Perceiver perceiver;
    private final ScreenGate gate;

    GatedReader(Perceiver perceiver, ScreenGate.Settings settings) {
        this.perceiver = perceiver;
        this.gate = new ScreenGate(settings);
    }

    /**
     * What reading a keyframe gave: {@code kept} null when it failed (then {@code result} says how, with a dead
     * letter when it did not decode), else the stream's new memory and what the metrics count.
     */
    public record Outcome(PerceptionResult result, ScreenMemory kept, GreyFrame grey, ScreenGate.Plan plan, long pixels, boolean detectSkipped,
            long ms) {}

    /**
     * Reads {@code k} against {@code prev} (null: read whole), whose luma is {@code prevGrey} when the caller still has
     * it decoded (else decoded here); inference is tried three times.
     */
    public Outcome read(Keyframe k, ScreenMemory prev, GreyFrame prevGrey) throws InterruptedException {
        return read(k, prev, prevGrey, false);
    }

    /** As {@link #read(Keyframe, ScreenMemory, GreyFrame)}; {@code sliced}: a whole read is split over keyframes (a live stream). */
    public Outcome read(Keyframe k, ScreenMemory prev, GreyFrame prevGrey, boolean sliced) throws InterruptedException {
        long start = System.nanoTime();
        DecodedImage image;
        float[] descriptor;
        try {
            image = DecodedImage.decode(k.jpeg());
            descriptor = Perceiver.descriptor(k);
        } catch (RuntimeException e) {
            String reason = "keyframe does not decode: " + e.getMessage();
            return new Outcome(new PerceptionResult(perceiver.failed(k, reason),
                    DeadLetter.ofFrame(Perceiver.STAGE, reason, k.streamId(), k.frameIndex(), k.eventTimeMs(), k.jpeg())),
                    null, null, null, 0, false, 0);
        }
        ScreenGate.Last last = prev == null ? null
                : new ScreenGate.Last(prevGrey != null ? prevGrey : GreyFrame.of(DecodedImage.decode(prev.jpeg())), prev.lines(), prev.sinceFull(),
                        prev.unreadFrom());
        GreyFrame grey = GreyFrame.of(image);
        Inferred got;
        try {
            got = Failsafe.with(INFERENCE_RETRIES).get(() -> {
                ScreenGate.Read read = gate.read(last, image, grey, perceiver.ocr, sliced);
                List<Detection> lastObjects = last == null ? null : prev.objects();
                boolean skipped = perceiver.detector != null && lastObjects != null && !ScreenGate.detectAgain(read.plan());
                List<Detection> objects = perceiver.detector == null ? null
                        : skipped ? lastObjects : perceiver.detector.detect(List.of(image)).get(0);
                return new Inferred(read, objects, skipped, perceiver.perception(k, image, descriptor, read.lines(), objects));
            });
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException ie) {
                throw ie;
            }
            throw e;
        } catch (RuntimeException failure) {
            LOG.warn("perception of {} frame {} failed: {}", k.streamId(), k.frameIndex(), failure.toString());
            return new Outcome(new PerceptionResult(perceiver.failed(k, "inference failed after retries: " + failure), null),
                    null, null, null, 0, false, 0);
        }
        ScreenGate.Read read = got.read();
        List<Detection> objects = got.objects();
        boolean skipped = got.skipped();
        Perception perception = got.perception();
        // What the stream remembers (keyed state, checkpointed) is the redacted reading, the same as what was indexed.
        ScreenGate.Last next = ScreenGate.remember(last, grey, read.plan(), perception.lines());
        ScreenMemory kept = new ScreenMemory(k.epochMs(), k.frameIndex(), k.eventTimeMs(), k.jpeg(), next.lines(), next.sinceFull(),
                objects == null ? null : Perceiver.withoutAppearance(objects), next.unreadFrom());
        return new Outcome(new PerceptionResult(perception, null), kept, grey, read.plan(), (long) image.width() * image.height(), skipped,
                (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void close() {
        perceiver.close();
    }
}
