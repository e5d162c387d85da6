package io.videoworld.operators.inference;

import io.videoworld.engines.perception.DetectorSettings;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.DetectedFrame;
import io.videoworld.core.DetectionResult;
import io.videoworld.core.SampledFrame;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.MalformedRecords;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real detector through Flink's ordered async operator: a live stream's samples that are stale
 * while a newer one waits are dropped (no size, no detections) and its newest is detected; a file's
 * samples are all detected however late; in stream order, and nothing is remembered afterwards;
 * the same with live batches limited (the first batch, before any measure, is not).
 */
class DetectionDropsTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLiveStreamBehindSkipsToItsNewestSampleWhileAFileIsDetectedWhole(boolean limitLiveBatches) throws Exception {
        byte[] jpeg = MalformedRecords.jpeg(320, 180, Color.GRAY);
        long behind = System.currentTimeMillis() - 20_000;
        List<SampledFrame> in = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            in.add(new SampledFrame("cam", 1L, i, i * 250L, behind + i * 250L, false, false, jpeg, true));
            in.add(new SampledFrame("file", 1L, i, i * 250L, behind + i * 250L, false, false, jpeg, false));
        }
        // A batch waits up to 5 s to fill, so every sample is queued when the detector starts: the drops do not depend on timing.
        DetectionFunction fn = new DetectionFunction(ModelDirectory.locate().toString(),
                new DetectorSettings("centernet", List.of(), 0, 0.1), 1, 16, 5_000, 0, 3_000, limitLiveBatches);
        List<DetectedFrame> out = detectAll(fn, in);
        assertThat(out).extracting(DetectedFrame::frameIndex).containsExactly(0L, 0L, 1L, 1L, 2L, 2L, 3L, 3L, 4L, 4L);
        List<DetectedFrame> cam = out.stream().filter(f -> f.streamId().equals("cam")).toList();
        List<DetectedFrame> file = out.stream().filter(f -> f.streamId().equals("file")).toList();
        assertThat(cam.subList(0, 4)).allMatch(DetectedFrame::wasDropped).allMatch(f -> f.width() == 0 && f.detections() == null);
        assertThat(cam.get(4).wasDropped()).isFalse();
        assertThat(cam.get(4).width()).isEqualTo(320);
        assertThat(cam.get(4).detections()).isNotNull();
        assertThat(file).noneMatch(DetectedFrame::wasDropped).allMatch(f -> f.width() == 320 && f.detections() != null);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void withLiveBatchesLimitedEachSampleIsCheckedAsItsOwnDetectionStarts(boolean limitLiveBatches) throws Exception {
        byte[] jpeg = MalformedRecords.jpeg(320, 180, Color.GRAY);
        long base = 1_000_000L;
        List<SampledFrame> in = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            in.add(new SampledFrame("cam", 1L, i, i * 250L, base + i * 250L, false, false, jpeg, true));
        }
        // A detector that takes a second a sample: the clock moves on by a second at each reading after the first.
        AtomicLong readings = new AtomicLong();
        DetectionFunction fn = new DetectionFunction(ModelDirectory.locate().toString(),
                new DetectorSettings("centernet", List.of(), 0, 0.1), 1, 16, 5_000, 0, 3_000, limitLiveBatches);
        fn.clock(() -> base + 2_000 + 1_000 * readings.getAndIncrement());
        List<DetectedFrame> out = detectAll(fn, in);
        assertThat(out).extracting(DetectedFrame::frameIndex).containsExactly(0L, 1L, 2L, 3L, 4L);
        if (limitLiveBatches) {
            // Frames 2 and 3 were 3.5 and 4.25 s old when their turn came, with frame 4 waiting; frame 4 is the newest.
            assertThat(out).extracting(DetectedFrame::wasDropped).containsExactly(false, false, true, true, false);
        } else {
            assertThat(out).as("checked once, as the batch started, when none was 3 s old").noneMatch(DetectedFrame::wasDropped);
        }
    }

    /** Every sample through the ordered async operator to the end of input; nothing is left in flight after. */
    private static List<DetectedFrame> detectAll(DetectionFunction fn, List<SampledFrame> in) throws Exception {
        try (OneInputStreamOperatorTestHarness<SampledFrame, DetectionResult> h = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(fn, 120_000, 16, AsyncDataStream.OutputMode.ORDERED),
                TypeInformation.of(SampledFrame.class).createSerializer(new ExecutionConfig().getSerializerConfig()))) {
            h.open();
            for (SampledFrame f : in) {
                h.processElement(f, f.eventTimeMs());
            }
            h.endInput();
            List<DetectedFrame> out = h.extractOutputValues().stream().map(DetectionResult::value).toList();
            assertThat(fn.streamsInFlight()).as("nothing remembered once the newest samples are done").isZero();
            return out;
        }
    }
}
