package io.videoworld.operators.inference;

import io.videoworld.testkit.Screens;
import io.videoworld.engines.sampling.QueuedKeyframe;
import static io.videoworld.operators.inference.GatedPerceptionTest.EVENT;
import static io.videoworld.operators.inference.GatedPerceptionTest.IDLE;
import static io.videoworld.operators.inference.GatedPerceptionTest.drain;
import static io.videoworld.operators.inference.GatedPerceptionTest.harness;
import static io.videoworld.operators.inference.GatedPerceptionTest.jpeg;
import static io.videoworld.operators.inference.GatedPerceptionTest.keyframe;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

/**
 * Change-gated perception read off the task thread: the task thread takes keyframes without
 * waiting for their reads (until the queue is full), each stream's results come in its order, a
 * watermark waits behind the keyframes before it, and a checkpoint taken while keyframes are being
 * read restores to the outputs a run without the restart gives, each keyframe emitted once.
 */
class GatedPerceptionAsyncTest {

    @Test
    void readsOffTheTaskThreadInOrderPerStreamAndACheckpointMidReadRestoresToTheSameOutputs() throws Exception {
        List<String> doc = Screens.document(30, 11);
        List<String> typed = new ArrayList<>(doc);
        typed.set(6, doc.get(6) + " deadline friday");
        byte[] plain = jpeg(Screens.render("Notes - Editor", doc, 0).image());
        byte[] edited = jpeg(Screens.render("Notes - Editor", typed, 0).image());
        // Two streams interleaved; each one's second keyframe is read against its first (the gate's state).
        List<Keyframe> in = List.of(keyframe("a", 1, plain), keyframe("b", 1, edited), keyframe("a", 2, edited), keyframe("b", 2, plain));

        OperatorSubtaskState snapshot;
        List<PerceptionResult> beforeSnapshot;
        Map<String, List<TextLine>> uninterrupted;
        try (var h = harness(1, 3)) {
            h.open();
            for (Keyframe k : in.subList(0, 3)) {
                h.processElement1(new QueuedKeyframe(k, 0), k.eventTimeMs());
            }
            assertThat(h.extractOutputValues()).as("the task thread took three keyframes without waiting for a read").isEmpty();
            h.processBothWatermarks(new Watermark(EVENT));
            assertThat(h.getOutput()).as("the watermark waits behind the keyframes before it").noneMatch(o -> o instanceof Watermark);
            h.processElement1(new QueuedKeyframe(in.get(3), 0), in.get(3).eventTimeMs());
            assertThat(h.extractOutputValues()).as("the fourth waited for a place in the queue of three").hasSize(1);
            beforeSnapshot = new ArrayList<>(h.extractOutputValues());
            snapshot = h.snapshot(1, 1);
            drain(h, 4);
            List<PerceptionResult> all = h.extractOutputValues();
            assertThat(order(all)).as("each stream's keyframes in its order").containsExactly("a1", "a2", "b1", "b2");
            List<Object> output = new ArrayList<>(h.getOutput());
            int mark = output.indexOf(new Watermark(EVENT));
            assertThat(output.subList(0, Math.max(mark, 0)).stream().filter(o -> o instanceof StreamRecord)).as("the watermark after the three before it")
                    .hasSize(3);
            assertThat(all).allMatch(r -> r.value().status().equals(Perception.OK));
            uninterrupted = byFrame(all);
            assertThat(uninterrupted.get("a2")).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("deadlinefriday"));
            assertThat(uninterrupted.get("b2")).as("read against b1, the changed band read again")
                    .extracting(l -> l.text().replace(" ", "")).noneMatch(t -> t.contains("deadlinefriday"));
            h.processBothWatermarks(new Watermark(EVENT + 10_000 + IDLE));
            assertThat(h.numKeyedStateEntries()).as("no state left, pending keyframes included").isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
        try (var restored = harness(1, 3)) {
            restored.initializeState(snapshot);
            restored.open();
            drain(restored, 4 - beforeSnapshot.size());
            List<PerceptionResult> after = restored.extractOutputValues();
            List<PerceptionResult> once = new ArrayList<>(beforeSnapshot);
            once.addAll(after);
            assertThat(once).as("each keyframe emitted once over the restart").hasSize(4);
            assertThat(order(after)).as("in order per stream after the restore").isSorted();
            assertThat(byFrame(once)).as("the same lines as without the restart").isEqualTo(uninterrupted);
            restored.processBothWatermarks(new Watermark(EVENT + 10_000 + IDLE));
            assertThat(restored.numKeyedStateEntries()).isZero();
            assertThat(restored.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void pendingKeyframesAreCheckpointedWithoutGenericTypes() {
        // The ingest job turns generic (Kryo) types off: the pending list must have a serializer of its own.
        assertThat(TypeInformation.of(GatedPerception.Pending.class)).isNotInstanceOf(GenericTypeInfo.class);
    }

    /** "a1", "a2", ... sorted by stream, in each stream the order emitted. */
    private static List<String> order(List<PerceptionResult> out) {
        return out.stream().map(r -> r.value().streamId() + r.value().frameIndex()).sorted((x, y) -> x.charAt(0) - y.charAt(0)).toList();
    }

    private static Map<String, List<TextLine>> byFrame(List<PerceptionResult> out) {
        Map<String, List<TextLine>> m = new LinkedHashMap<>();
        out.forEach(r -> m.put(r.value().streamId() + r.value().frameIndex(), r.value().lines()));
        return new java.util.TreeMap<>(m);
    }
}
