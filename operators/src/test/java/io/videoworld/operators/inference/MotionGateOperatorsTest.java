package io.videoworld.operators.inference;

import io.videoworld.engines.gates.MotionGate;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.SampledFrame;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The motion gate in front of the detector and the carrying after it, as keyed operators: output, restore, and no state left behind. */
class MotionGateOperatorsTest {
    private static final long EVENT = 1_700_000_000_000L;
    private static final long IDLE = 30_000;
    private static final long FORGET = 600_000;

    private static byte[] scene(int x) throws Exception {
        BufferedImage img = new BufferedImage(640, 360, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(120, 120, 110));
        g.fillRect(0, 0, 640, 360);
        g.setColor(new Color(200, 60, 40));
        g.fillRect(x, 150, 40, 110);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static SampledFrame sample(long i, byte[] jpeg, boolean last) {
        return new SampledFrame("cam", 5L, i, i * 250, EVENT + i * 250, last, false, jpeg);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, SampledFrame, SampledFrame> gate() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new MotionGateFunction(new MotionGate.Settings(true, 4, 0.002), IDLE, FORGET)),
                SampledFrame::streamId, Types.STRING);
    }

    @Test
    void stillSamplesAreCarriedUntilTheNthAndTheGateSurvivesARestore() throws Exception {
        byte[] still = scene(100);
        byte[] moved = scene(160);
        OperatorSubtaskState snapshot;
        try (var h = gate()) {
            h.open();
            h.processElement(sample(0, still, false), EVENT);
            h.processElement(sample(1, still, false), EVENT + 250);
            snapshot = h.snapshot(1, 1);
            h.processElement(sample(2, still, false), EVENT + 500);
            h.processElement(sample(3, still, false), EVENT + 750);
            h.processElement(sample(4, moved, false), EVENT + 1000);
            h.processElement(sample(5, moved, false), EVENT + 1250);
            assertThat(h.extractOutputValues()).extracting(SampledFrame::carry).containsExactly(false, true, true, true, false, true);
            h.processWatermark(EVENT + 1250 + IDLE);
            assertThat(h.numKeyedStateEntries()).as("the idle time alone clears nothing: a late sample is judged on its own clock").isPositive();
            h.processElement(sample(6, moved, false), EVENT + 1500);
            h.processElement(new SampledFrame("cam", 5L, 7, 1500 + IDLE, EVENT + 1500 + IDLE, false, false, moved), EVENT + 1500 + IDLE);
            assertThat(h.extractOutputValues()).extracting(SampledFrame::carry).as("overtaken by the watermark: still carried; after the idle time: detected")
                    .endsWith(true, false);
            h.processWatermark(EVENT + 1500 + IDLE + FORGET);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
        try (var restored = gate()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.processElement(sample(2, still, false), EVENT + 500);
            restored.processElement(sample(3, still, true), EVENT + 750);
            assertThat(restored.extractOutputValues()).extracting(SampledFrame::carry).as("as without the restart").containsExactly(true, true);
            assertThat(restored.numKeyedStateEntries()).as("the last sample clears").isZero();
            assertThat(restored.numEventTimeTimers()).isZero();
        }
    }

    private static DetectedFrame detected(long i, List<Detection> found, int width, boolean last) {
        return new DetectedFrame("cam", 5L, i, i * 250, EVENT + i * 250, width, width == 0 ? 0 : 360, last, found, new float[] {1}, "cpu");
    }

    @Test
    void carriedSamplesGetTheLastDetectionsOrFailWithTheirReference() throws Exception {
        List<Detection> boxes = List.of(new Detection("person", 0.9, 100, 150, 140, 260, null));
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new CarryDetections(FORGET)), DetectedFrame::streamId,
                Types.STRING)) {
            h.open();
            h.processElement(detected(0, boxes, 640, false), EVENT);
            h.processElement(detected(1, null, 640, false), EVENT + 250);
            h.processElement(detected(2, List.of(), 0, false), EVENT + 500);
            h.processElement(detected(3, null, 640, false), EVENT + 750);
            h.processElement(detected(4, List.of(), 640, false), EVENT + 1000);
            h.processElement(detected(5, null, 640, true), EVENT + 1250);
            List<DetectedFrame> out = h.extractOutputValues();
            assertThat(out).extracting(DetectedFrame::detections).containsExactly(boxes, boxes, List.of(), List.of(), List.of(), List.of());
            assertThat(out).extracting(DetectedFrame::width).as("carried from a failed detection: a failure").containsExactly(640, 640, 0, 0, 640, 640);
            assertThat(h.numKeyedStateEntries()).as("the last sample clears").isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            h.processElement(new DetectedFrame("cam2", 5L, 0, 0, EVENT, 640, 360, false, boxes, new float[] {1}, "cpu"), EVENT);
            h.processWatermark(EVENT + IDLE);
            h.processElement(new DetectedFrame("cam2", 5L, 1, 250, EVENT + 250, 640, 360, false, null, new float[] {1}, "cpu"), EVENT + 250);
            assertThat(h.extractOutputValues().get(h.extractOutputValues().size() - 1).detections())
                    .as("a sample the watermark overtook still gets its reference's boxes").isEqualTo(boxes);
            h.processWatermark(EVENT + 250 + FORGET);
            assertThat(h.numKeyedStateEntries()).as("the forget timer clears").isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }
}
