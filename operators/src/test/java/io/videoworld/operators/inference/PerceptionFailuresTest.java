package io.videoworld.operators.inference;

import io.videoworld.perception.ModelDirectory;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.PerceptionResult;
import io.videoworld.testkit.MalformedRecords;
import java.awt.Color;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.functions.async.AsyncFunction;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Perception on the real models through Flink's async operator: failures are recorded as failures, never as blank text. */
class PerceptionFailuresTest {
    private static final long EVENT = 1_700_000_000_000L;

    private static Keyframe keyframe(long frame, byte[] jpeg) {
        return new Keyframe("desk", 5L, frame, frame * 1000, KeyframeRef.FIRST, jpeg, EVENT + frame * 1000);
    }

    private static List<PerceptionResult> run(AsyncFunction<Keyframe, PerceptionResult> fn, long timeoutMs, Keyframe... in) throws Exception {
        try (OneInputStreamOperatorTestHarness<Keyframe, PerceptionResult> h = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(fn, timeoutMs, 8, AsyncDataStream.OutputMode.UNORDERED),
                TypeInformation.of(Keyframe.class).createSerializer(new ExecutionConfig().getSerializerConfig()))) {
            h.open();
            for (Keyframe k : in) {
                h.processElement(k, k.eventTimeMs());
            }
            // The harness's clock moves only when told: past the timeout, before real inference can finish.
            if (timeoutMs < 1000) {
                h.setProcessingTime(h.getProcessingTime() + timeoutMs + 1);
            }
            h.endInput();
            return h.extractOutputValues().stream().sorted(Comparator.comparingLong(r -> r.value().frameIndex())).toList();
        }
    }

    @Test
    void aKeyframeThatDoesNotDecodeIsAFailedPerceptionAndADeadLetterWhileItsBatchIsPerceived() throws Exception {
        PerceptionFunction fn = new PerceptionFunction(ModelDirectory.locate().toString(), null, 8, 200);
        List<PerceptionResult> out = run(fn, 120_000, keyframe(1, MalformedRecords.jpeg(320, 180, Color.WHITE)),
                keyframe(2, MalformedRecords.headerOnly(320, 180)));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).value().isFailed()).isFalse();
        assertThat(out.get(0).value().text()).isNotNull();
        assertThat(out.get(0).deadLetter()).isNull();
        assertThat(out.get(1).value().isFailed()).isTrue();
        assertThat(out.get(1).value().text()).as("unknown, not empty").isNull();
        assertThat(out.get(1).value().failure()).contains("does not decode");
        assertThat(out.get(1).deadLetter().stage()).isEqualTo(PerceptionFunction.STAGE);
        assertThat(out.get(1).deadLetter().origin()).isEqualTo("desk#2");
    }

    @Test
    void aKeyframeNotPerceivedInTimeIsIndexedAsFailedWithTheReason() throws Exception {
        PerceptionFunction fn = new PerceptionFunction(ModelDirectory.locate().toString(), null, 8, 200);
        List<PerceptionResult> out = run(fn, 1, keyframe(1, MalformedRecords.jpeg(1280, 720, Color.WHITE)));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).value().isFailed()).isTrue();
        assertThat(out.get(0).value().failure()).contains("timed out");
        assertThat(out.get(0).deadLetter()).as("a timeout is no bad input").isNull();
    }
}
