package io.videoworld.operators.inference;

import io.videoworld.engines.sampling.QueuedKeyframe;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** A keyframe's wait counts from the capture of the batch that let it go when the job was behind, else from its emission. */
class StampKeyframesTest {

    private static Keyframe keyframe(long frame, long eventMs) {
        return new Keyframe("s", 5L, frame, frame * 1000, KeyframeRef.PERIODIC, new byte[] {1}, eventMs);
    }

    @Test
    void aLateTriggerCountsItsBacklogAndAFreshOneCountsFromNow() throws Exception {
        try (OneInputStreamOperatorTestHarness<Keyframe, QueuedKeyframe> h = ProcessFunctionTestHarnesses.forProcessFunction(new StampKeyframes(true))) {
            long before = System.currentTimeMillis();
            // Emitted on a batch captured 20 s ago: the job is 20 s behind, and the wait says so.
            h.processElement(keyframe(1, before - 25_000), before - 20_000);
            // Emitted on a batch captured in the future of this clock (a file's event time, or clock skew): counted from now.
            h.processElement(keyframe(2, before - 1_000), before + 3_600_000);
            long after = System.currentTimeMillis();
            List<QueuedKeyframe> out = h.extractOutputValues();
            assertThat(out).hasSize(2);
            assertThat(out.get(0).emittedMs()).isEqualTo(before - 20_000);
            assertThat(out.get(0).keyframe().frameIndex()).isEqualTo(1);
            assertThat(out.get(1).emittedMs()).isBetween(before, after);
        }
    }

    @Test
    void offCountsFromEmissionOnly() throws Exception {
        try (OneInputStreamOperatorTestHarness<Keyframe, QueuedKeyframe> h = ProcessFunctionTestHarnesses.forProcessFunction(new StampKeyframes(false))) {
            long before = System.currentTimeMillis();
            h.processElement(keyframe(1, before - 25_000), before - 20_000);
            assertThat(h.extractOutputValues().get(0).emittedMs()).isBetween(before, System.currentTimeMillis());
        }
    }
}
