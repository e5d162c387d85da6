package io.videoworld.operators.inference;

import io.videoworld.engines.sampling.StreamTurns;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.junit.jupiter.api.Test;

/** Whose turn it is in change-gated perception: one keyframe per stream at a time, in order, none past a held watermark. */
class StreamTurnsTest {

    private static List<String> due(StreamTurns<String> turns) {
        return turns.due().stream().map(t -> t.item).toList();
    }

    @Test
    void aStreamsNextKeyframeWaitsForItsPreviousOneAndNothingPassesAHeldWatermark() {
        StreamTurns<String> turns = new StreamTurns<>();
        assertThat(turns.hold(new Watermark(1))).as("nothing queued: the watermark passes at once").isFalse();
        StreamTurns.Turn<String> a1 = turns.add("a", "a1");
        turns.add("a", "a2");
        StreamTurns.Turn<String> b1 = turns.add("b", "b1");
        assertThat(turns.hold(new Watermark(5))).isTrue();
        StreamTurns.Turn<String> c1 = turns.add("c", "c1");
        assertThat(due(turns)).as("each stream's first; nothing after the watermark").containsExactly("a1", "b1");

        a1.started = true;
        assertThat(due(turns)).as("a2 waits while a1 is read").containsExactly("b1");
        turns.done(a1);
        assertThat(due(turns)).containsExactly("a2", "b1");
        assertThat(turns.releasable()).as("a2 and b1 came before it").isNull();
        turns.done(b1);
        turns.done(turns.due().get(0));
        assertThat(turns.releasable()).isEqualTo(new Watermark(5));
        assertThat(due(turns)).containsExactly("c1");
        assertThat(turns.size()).isEqualTo(1);
        turns.done(c1);
        assertThat(turns.size()).isZero();
        assertThat(turns.releasable()).isNull();
    }
}
