package io.videoworld.operators.inference;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import io.videoworld.operators.inference.Screens.Screen;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.MalformedRecords;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The change-gated perception as a keyed operator on the real models: a stream's last keyframe is
 * checkpointed state, so a job restored from a checkpoint reads the next keyframe exactly as one
 * that never stopped; a keyframe that does not decode is a dead letter; nothing is left behind
 * once the stream has been idle.
 */
class GatedPerceptionTest {
    private static final long EVENT = 1_700_000_000_000L;
    private static final long IDLE = 60_000;

    private static KeyedOneInputStreamOperatorTestHarness<String, Keyframe, PerceptionResult> harness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new GatedPerception(ModelDirectory.locate().toString(),
                null, new ScreenGate.Settings(true, 20, 0.5), IDLE)), Keyframe::streamId, Types.STRING);
    }

    private static Keyframe keyframe(String stream, long frame, byte[] jpeg) {
        return new Keyframe(stream, 5L, frame, frame * 1000, KeyframeRef.PERIODIC, jpeg, EVENT + frame * 1000);
    }

    private static byte[] jpeg(DecodedImage image) throws Exception {
        BufferedImage img = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_3BYTE_BGR);
        System.arraycopy(image.bgr(), 0, ((DataBufferByte) img.getRaster().getDataBuffer()).getData(), 0, image.bgr().length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static List<TextLine> lines(KeyedOneInputStreamOperatorTestHarness<String, Keyframe, PerceptionResult> h, int i) {
        return h.extractOutputValues().get(i).value().lines();
    }

    @Test
    void aRestoredJobReadsTheNextKeyframeAsOneThatNeverStoppedAndLeavesNothingBehind() throws Exception {
        List<String> doc = Screens.document(30, 11);
        List<String> typed = new ArrayList<>(doc);
        typed.set(6, doc.get(6) + " deadline friday");
        Screen before = Screens.render("Notes - Editor", doc, 0);
        Screen after = Screens.render("Notes - Editor", typed, 0);
        List<String> scrolledDoc = new ArrayList<>(typed);
        Screen scrolled = Screens.render("Notes - Editor", scrolledDoc, 2 * Screens.PITCH);
        Keyframe k1 = keyframe("desk", 1, jpeg(before.image()));
        Keyframe k2 = keyframe("desk", 2, jpeg(after.image()));
        Keyframe k3 = keyframe("desk", 3, jpeg(scrolled.image()));

        OperatorSubtaskState snapshot;
        List<TextLine> uninterrupted;
        try (var h = harness()) {
            h.open();
            h.processElement(k1, k1.eventTimeMs());
            h.processElement(k2, k2.eventTimeMs());
            assertThat(h.numKeyedStateEntries()).as("the last keyframe and its timer").isEqualTo(2);
            assertThat(lines(h, 1)).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("deadlinefriday"));
            snapshot = h.snapshot(1, 1);
            // One stream's checkpointed memory is its last keyframe's JPEG and lines, not the 1 MB of luma the gate compares.
            assertThat(snapshot.getStateSize()).as("checkpointed bytes for one 1280x800 stream").isLessThan(k2.jpeg().length + 20_000L);
            System.out.printf("gated perception: %d bytes checkpointed for one stream (its keyframe's JPEG: %d)%n", snapshot.getStateSize(), k2.jpeg().length);
            h.processElement(k3, k3.eventTimeMs());
            uninterrupted = lines(h, 2);

            h.processElement(keyframe("broken", 1, MalformedRecords.headerOnly(1280, 800)), EVENT);
            PerceptionResult broken = h.extractOutputValues().get(3);
            assertThat(broken.value().isFailed()).isTrue();
            assertThat(broken.deadLetter().stage()).isEqualTo(PerceptionFunction.STAGE);
            assertThat(h.numKeyedStateEntries()).as("nothing kept for a keyframe that does not decode").isEqualTo(2);

            h.processWatermark(k3.eventTimeMs() + IDLE);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            assertThat(restored.numKeyedStateEntries()).isEqualTo(2);
            restored.processElement(k3, k3.eventTimeMs());
            assertThat(lines(restored, 0)).as("the same lines as without the restart").isEqualTo(uninterrupted);
        }
        try (var fresh = harness()) {
            fresh.open();
            fresh.processElement(k3, k3.eventTimeMs());
            List<String> whole = new ArrayList<>(lines(fresh, 0).stream().map(l -> l.text().replace(" ", "")).toList());
            long found = uninterrupted.stream().filter(l -> whole.remove(l.text().replace(" ", ""))).count();
            assertThat((double) found / uninterrupted.size()).as("a whole read without the state finds the same text").isGreaterThanOrEqualTo(0.9);
        }
    }
}
