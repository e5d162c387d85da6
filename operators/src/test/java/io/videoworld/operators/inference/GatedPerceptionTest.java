package io.videoworld.operators.inference;

import io.videoworld.testkit.Screens;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.sampling.QueuedKeyframe;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import io.videoworld.testkit.Screens.Screen;
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
import io.videoworld.core.Perception;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import java.util.Optional;
import org.apache.flink.streaming.runtime.tasks.mailbox.Mail;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The change-gated perception as a keyed operator on the real models: a stream's last keyframe is
 * checkpointed state, so a job restored from a checkpoint reads the next keyframe exactly as one
 * that never stopped; a keyframe that does not decode is a dead letter; nothing is left behind
 * once the stream has been idle.
 */
class GatedPerceptionTest {
    static final long EVENT = 1_700_000_000_000L;
    static final long IDLE = 60_000;

    private static final long MAX_QUEUE = 3_000;

    static KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> harness(int workers, int capacity)
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(new GatedPerception(ModelDirectory.locate().toString(),
                null, new ScreenGate.Settings(true, 20, 0.5), IDLE, new LiveShedding(MAX_QUEUE, 0), workers, capacity),
                QueuedKeyframe::streamId, VideoDoc::streamId, Types.STRING);
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> harness() throws Exception {
        return harness(1, 16);
    }

    /** Runs the results the worker hands to the task thread (the harness's mailbox) until {@code outputs} have been emitted. */
    static void drain(KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> h, int outputs)
            throws Exception {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (h.extractOutputValues().size() < outputs) {
            Optional<Mail> mail = h.getTaskMailbox().tryTake(TaskMailbox.MIN_PRIORITY);
            if (mail.isPresent()) {
                mail.get().run();
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + h.extractOutputValues().size() + " of " + outputs + " results in 300 s");
            } else {
                Thread.sleep(5);
            }
        }
    }

    /** Opens the operator and runs its mailbox until a reader has loaded its models (they load off the task thread). */
    static void openReady(KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> h) throws Exception {
        h.open();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!((GatedPerception) h.getOperator()).ready()) {
            Optional<Mail> mail = h.getTaskMailbox().tryTake(TaskMailbox.MIN_PRIORITY);
            if (mail.isPresent()) {
                mail.get().run();
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("the models did not load in 120 s");
            } else {
                Thread.sleep(5);
            }
        }
    }

    /** A keyframe emitted at processing time 0 (the harness's clock starts there), read to the end. */
    private static void process(KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> h, Keyframe k)
            throws Exception {
        int before = h.extractOutputValues().size();
        h.processElement1(new QueuedKeyframe(k, 0), k.eventTimeMs());
        drain(h, before + 1);
    }

    /** The stream document of a push of {@code stream}: live (neither duration nor frame count) or a folder of 60 screenshots. */
    private static VideoDoc stream(String stream, boolean live) {
        SourceInfo info = new SourceInfo(1, null, live ? null : 60L, "jpeg", false, 0, 0, null, null, 1280, 800, 1);
        return new VideoDoc(stream, SourceKind.SCREEN, "test", info, 5L, EVENT, EVENT, 0, 1, 1, 0, 0, 1280, 800, VideoDoc.LIVE);
    }

    static Keyframe keyframe(String stream, long frame, byte[] jpeg) {
        return new Keyframe(stream, 5L, frame, frame * 1000, KeyframeRef.PERIODIC, jpeg, EVENT + frame * 1000);
    }

    static byte[] jpeg(DecodedImage image) throws Exception {
        BufferedImage img = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_3BYTE_BGR);
        System.arraycopy(image.bgr(), 0, ((DataBufferByte) img.getRaster().getDataBuffer()).getData(), 0, image.bgr().length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static List<TextLine> lines(KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> h, int i) {
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
            process(h, k1);
            process(h, k2);
            assertThat(h.numKeyedStateEntries()).as("the last keyframe and its timer").isEqualTo(2);
            assertThat(lines(h, 1)).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("deadlinefriday"));
            snapshot = h.snapshot(1, 1);
            // One stream's checkpointed memory is its last keyframe's JPEG and lines, not the 1 MB of luma the gate compares.
            assertThat(snapshot.getStateSize()).as("checkpointed bytes for one 1280x800 stream").isLessThan(k2.jpeg().length + 20_000L);
            System.out.printf("gated perception: %d bytes checkpointed for one stream (its keyframe's JPEG: %d)%n", snapshot.getStateSize(), k2.jpeg().length);
            process(h, k3);
            uninterrupted = lines(h, 2);

            process(h, keyframe("broken", 1, MalformedRecords.headerOnly(1280, 800)));
            PerceptionResult broken = h.extractOutputValues().get(3);
            assertThat(broken.value().isFailed()).isTrue();
            assertThat(broken.deadLetter().stage()).isEqualTo(PerceptionFunction.STAGE);
            assertThat(h.numKeyedStateEntries()).as("nothing kept for a keyframe that does not decode").isEqualTo(2);

            h.processBothWatermarks(new org.apache.flink.streaming.api.watermark.Watermark(k3.eventTimeMs() + IDLE));
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            assertThat(restored.numKeyedStateEntries()).isEqualTo(2);
            process(restored, k3);
            assertThat(lines(restored, 0)).as("the same lines as without the restart").isEqualTo(uninterrupted);
        }
        try (var fresh = harness()) {
            fresh.open();
            process(fresh, k3);
            List<String> whole = new ArrayList<>(lines(fresh, 0).stream().map(l -> l.text().replace(" ", "")).toList());
            long found = uninterrupted.stream().filter(l -> whole.remove(l.text().replace(" ", ""))).count();
            assertThat((double) found / uninterrupted.size()).as("a whole read without the state finds the same text").isGreaterThanOrEqualTo(0.9);
        }
    }

    @Test
    void aLiveStreamShedsWhatQueuedTooLongCarryingItsTextAndAFolderIsReadWhole() throws Exception {
        List<String> doc = Screens.document(30, 11);
        List<String> typed = new ArrayList<>(doc);
        typed.set(6, doc.get(6) + " deadline friday");
        Keyframe k1 = keyframe("live", 1, jpeg(Screens.render("Notes - Editor", doc, 0).image()));
        Keyframe k2 = keyframe("live", 2, jpeg(Screens.render("Notes - Editor", typed, 0).image()));
        Keyframe k3 = keyframe("live", 3, k2.jpeg());
        try (var h = harness()) {
            h.open();
            h.processElement2(stream("live", true), EVENT);
            h.processElement2(stream("folder", false), EVENT);
            h.setProcessingTime(1_000);
            process(h, k1);
            h.setProcessingTime(10_000);
            process(h, k2);
            Perception read = h.extractOutputValues().get(0).value();
            Perception shed = h.extractOutputValues().get(1).value();
            assertThat(read.status()).isEqualTo(Perception.OK);
            assertThat(shed.isShed()).as("queued 10 s, over the 3 s limit").isTrue();
            assertThat(shed.isFailed()).isFalse();
            assertThat(shed.lines()).as("the last perceived lines, carried").isEqualTo(read.lines()).isNotEmpty();
            assertThat(shed.failure()).contains("shed").contains("carried from frame 1");
            assertThat(shed.width()).isEqualTo(1280);
            h.processElement1(new QueuedKeyframe(k3, 9_000), k3.eventTimeMs());
            drain(h, 3);
            Perception fresh = h.extractOutputValues().get(2).value();
            assertThat(fresh.status()).as("queued 1 s: read").isEqualTo(Perception.OK);
            assertThat(fresh.lines()).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("deadlinefriday"));

            process(h, keyframe("folder", 1, k2.jpeg()));
            assertThat(h.extractOutputValues().get(3).value().status()).as("a screenshot folder is read however long it queued")
                    .isEqualTo(Perception.OK);
            h.processBothWatermarks(new org.apache.flink.streaming.api.watermark.Watermark(k3.eventTimeMs() + IDLE));
            assertThat(h.numKeyedStateEntries()).as("nothing left behind, liveness included").isZero();
        }
    }
}
