package io.videoworld.operators.people;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imencode;

import io.videoworld.core.ActivityDoc;
import io.videoworld.core.SampledFrame;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import java.nio.file.Files;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The person operator on a real photo (Debian opencv-doc's basketball1.png: a man standing) moved
 * across the frame between samples: what it writes, and that it leaves no state or timers behind.
 */
class PersonActivitiesTest {
    private static final String STREAM = "people-op-test";
    /** The standing player's box (as MB3-CenterNet finds it, ObjectDetectorTest), frame pixels. */
    private static final double[] PLAYER = {21.12 * 640 / 512, 83.47 * 480 / 512, 138.99 * 640 / 512, 503.49 * 480 / 512};
    private KeyedOneInputStreamOperatorTestHarness<String, PersonInput, ActivityDoc> harness;
    private byte[][] jpegs;

    @BeforeEach
    void open() throws Exception {
        DecodedImage still = DecodedImage.decode(Files.readAllBytes(ModelDirectory.samples().resolve("basketball1.png")));
        // Sample 0 as photographed, samples 1 and 2 with the picture moved 80 px right (about 0.18 of the man's height).
        jpegs = new byte[][] {encode(still), encode(shiftRight(still, 80)), encode(shiftRight(still, 80))};
        harness = newHarness();
        harness.open();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, PersonInput, ActivityDoc> newHarness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new PersonActivities(ModelDirectory.locate().toString(), 10_000, 500, 8)), PersonInput::streamId, Types.STRING);
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void aPersonStandsThenWalksAndTheStreamLeavesNothingBehind() throws Exception {
        for (int i = 0; i < 3; i++) {
            SampledFrame f = new SampledFrame(STREAM, 1, i, i * 1000L, i * 1000L, i == 2, false, jpegs[i]);
            harness.processElement(new StreamRecord<>(PersonInput.of(f), f.eventTimeMs()));
        }
        // The tracker's documents: a car (ignored), the person at samples 0 and 1, then dead after sample 2.
        harness.processElement(new StreamRecord<>(PersonInput.of(track(2, "car", true, 0, 1)), 1000L));
        harness.processElement(new StreamRecord<>(PersonInput.of(track(1, "person", true, 0, 1)), 1000L));
        List<ActivityDoc> first = harness.extractOutputValues();
        assertThat(first).extracting(ActivityDoc::label).containsExactly("standing", "walking");
        assertThat(first.get(0).frames()).containsExactly(0L);
        assertThat(first.get(1).frames()).containsExactly(1L);
        assertThat(first.get(1).confidence()).isBetween(0.4, 1.0);
        assertThat(first.get(1).id()).isEqualTo(STREAM + ":t:000001:a:walking:1");

        // Through a checkpoint and a restore: the held frames and the person come back with their serializers.
        org.apache.flink.runtime.checkpoint.OperatorSubtaskState snapshot = harness.snapshot(1, 1500);
        harness.close();
        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();

        // The dead track's document names all three samples: only the new one is posed (the same place: standing again).
        harness.processElement(new StreamRecord<>(PersonInput.of(track(1, "person", false, 0, 1, 2)), 2000L));
        List<ActivityDoc> after = harness.extractOutputValues();
        assertThat(after).as("only sample 2: the restored person had posed 0 and 1, the restored frames hold 2").hasSize(1);
        assertThat(after.get(0).label()).as("measured from the restored sample 1: no move since").isEqualTo("standing");
        assertThat(after.get(0).frames()).containsExactly(2L);
        assertThat(after.get(0).fromMs()).isEqualTo(2000);
        assertThat(after.get(0).trackNumber()).isEqualTo(1);

        // The dead person is forgotten; the held frames and the timer go an idle timeout after the stream's latest input.
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        harness.processWatermark(new Watermark(2000 + 10_000));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void onlyTheNewestFramesAreHeldAndATrackNamingOlderOnesPosesNothing() throws Exception {
        for (int i = 0; i < 12; i++) {
            SampledFrame f = new SampledFrame(STREAM, 1, i, i * 1000L, i * 1000L, false, false, jpegs[0]);
            harness.processElement(new StreamRecord<>(PersonInput.of(f), f.eventTimeMs()));
        }
        harness.processElement(new StreamRecord<>(PersonInput.of(track(1, "person", true, 0, 1, 2, 3)), 12_000L));
        assertThat(harness.extractOutputValues()).as("frames 0-3 were let go: 8 are kept").isEmpty();
        harness.processElement(new StreamRecord<>(PersonInput.of(track(1, "person", true, 10, 11)), 12_000L));
        assertThat(harness.extractOutputValues()).extracting(ActivityDoc::label).containsExactly("standing", "standing");
        harness.processWatermark(new Watermark(11_000 + 10_000));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    /** The footballer's box in Debian opencv-doc's messi5.jpg (as MB3-CenterNet finds it, PoseEstimatorTest), frame pixels. */
    private static final double[] FOOTBALLER = {79.34 * 548 / 512, 92.58 * 342 / 512, 423.16 * 548 / 512, 507.49 * 342 / 512};

    private static KeyedOneInputStreamOperatorTestHarness<String, PersonInput, ActivityDoc> facesHarness(int facesPerTrack) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new PersonActivities(ModelDirectory.locate().toString(), 10_000, 500, 8, facesPerTrack)), PersonInput::streamId, Types.STRING);
        h.open();
        return h;
    }

    private static void footballerSamples(KeyedOneInputStreamOperatorTestHarness<String, PersonInput, ActivityDoc> h, int n) throws Exception {
        byte[] jpeg = Files.readAllBytes(ModelDirectory.samples().resolve("messi5.jpg"));
        for (int i = 0; i < n; i++) {
            SampledFrame f = new SampledFrame(STREAM, 1, i, i * 1000L, i * 1000L, false, false, jpeg);
            h.processElement(new StreamRecord<>(PersonInput.of(f), f.eventTimeMs()));
        }
    }

    private static TrackDoc footballer(boolean alive, long... frames) {
        List<TrackPoint> timeline = java.util.Arrays.stream(frames)
                .mapToObj(i -> new TrackPoint(i, i * 1000, FOOTBALLER[0], FOOTBALLER[1], FOOTBALLER[2], FOOTBALLER[3], 0.8)).toList();
        return new TrackDoc(STREAM, 1, 3, "person", 548, 342, timeline.get(0), timeline.get(timeline.size() - 1), timeline.size(), 0.8,
                alive, 0, timeline, null);
    }

    @Test
    void withFacesOnATracksFaceGoesOutOnceItHasEnoughFacesAndNothingStaysBehind() throws Exception {
        harness.close();
        harness = facesHarness(2);
        footballerSamples(harness, 3);
        harness.processElement(new StreamRecord<>(PersonInput.of(footballer(true, 0, 1)), 1000L));
        List<io.videoworld.core.TrackFace> faces = harness.getSideOutput(PersonActivities.FACES).stream().map(StreamRecord::getValue).toList();
        assertThat(faces).hasSize(1);
        io.videoworld.core.TrackFace f = faces.get(0);
        assertThat(f.trackId()).isEqualTo(STREAM + ":t:000003");
        assertThat(f.faces()).isEqualTo(2);
        assertThat(f.frames()).containsExactly(0L, 1L);
        assertThat(f.fromMs()).isZero();
        assertThat(f.toMs()).isEqualTo(1000);
        assertThat(f.personId()).isNull();
        assertThat(f.descriptor()).hasSize(io.videoworld.perception.FaceRecognizer.DIMENSIONS);
        double norm = 0;
        for (float v : f.descriptor()) {
            norm += v * v;
        }
        assertThat(norm).isCloseTo(1, org.assertj.core.api.Assertions.within(1e-4));
        assertThat(harness.extractOutputValues()).extracting(ActivityDoc::label).contains("standing");
        // the track ends: its face already went out, nothing more
        harness.processElement(new StreamRecord<>(PersonInput.of(footballer(false, 0, 1, 2)), 2000L));
        assertThat(harness.getSideOutput(PersonActivities.FACES)).hasSize(1);
        harness.processWatermark(new Watermark(2000 + 10_000));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aTrackThatEndsWithFewerFacesSendsWhatItHasAndFacesOffSendsNone() throws Exception {
        harness.close();
        harness = facesHarness(5);
        footballerSamples(harness, 3);
        harness.processElement(new StreamRecord<>(PersonInput.of(footballer(true, 0, 1)), 1000L));
        assertThat(harness.getSideOutput(PersonActivities.FACES)).isNull();
        harness.processElement(new StreamRecord<>(PersonInput.of(footballer(false, 0, 1, 2)), 2000L));
        List<io.videoworld.core.TrackFace> faces = harness.getSideOutput(PersonActivities.FACES).stream().map(StreamRecord::getValue).toList();
        assertThat(faces).extracting(io.videoworld.core.TrackFace::faces).containsExactly(3);
        assertThat(faces.get(0).frames()).containsExactly(0L, 1L, 2L);
        harness.close();
        harness = newHarness();
        harness.open();
        footballerSamples(harness, 2);
        harness.processElement(new StreamRecord<>(PersonInput.of(footballer(false, 0, 1)), 1000L));
        assertThat(harness.extractOutputValues()).isNotEmpty();
        assertThat(harness.getSideOutput(PersonActivities.FACES)).isNull();
    }

    @Test
    void itsStateAndRecordsHaveSerializersWithoutGenericTypes() {
        // The ingest job turns generic (Kryo) types off: each would throw here if it needed Kryo.
        org.apache.flink.api.common.serialization.SerializerConfigImpl config = new org.apache.flink.api.common.serialization.SerializerConfigImpl();
        config.setGenericTypes(false);
        for (Class<?> c : List.of(PersonState.class, PersonInput.class, ActivityDoc.class, io.videoworld.core.TrackFace.class,
                io.videoworld.engines.people.FaceLinks.Person.class)) {
            assertThat(org.apache.flink.api.common.typeinfo.TypeInformation.of(c).createSerializer(config)).as(c.getSimpleName()).isNotNull();
        }
    }

    private static TrackDoc track(long number, String category, boolean alive, long... frames) {
        List<TrackPoint> timeline = java.util.Arrays.stream(frames).mapToObj(i -> {
            double dx = i == 0 ? 0 : 80;
            return new TrackPoint(i, i * 1000, PLAYER[0] + dx, PLAYER[1], PLAYER[2] + dx, PLAYER[3], 0.8);
        }).toList();
        return new TrackDoc(STREAM, 1, number, category, 640, 480, timeline.get(0), timeline.get(timeline.size() - 1), timeline.size(), 0.8,
                alive, 0, timeline, null);
    }

    private static byte[] encode(DecodedImage img) {
        try (Mat m = new Mat(img.height(), img.width(), CV_8UC3); BytePointer buf = new BytePointer()) {
            m.data().put(img.bgr());
            imencode(".png", m, buf);
            byte[] out = new byte[(int) buf.limit()];
            buf.get(out);
            return out;
        }
    }

    private static DecodedImage shiftRight(DecodedImage img, int dx) {
        int w = img.width();
        byte[] out = new byte[img.bgr().length];
        for (int y = 0; y < img.height(); y++) {
            System.arraycopy(img.bgr(), y * w * 3, out, (y * w + dx) * 3, (w - dx) * 3);
        }
        return new DecodedImage(w, img.height(), out);
    }
}
