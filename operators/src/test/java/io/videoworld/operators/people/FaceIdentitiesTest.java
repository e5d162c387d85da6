package io.videoworld.operators.people;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.TrackFace;
import io.videoworld.engines.people.FaceLinks;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Tracks' faces from two streams linked to people under one key; the people are forgotten after the memory and bounded in number. */
class FaceIdentitiesTest {
    static float[] at(double degrees) {
        float[] v = new float[8];
        v[0] = (float) Math.cos(Math.toRadians(degrees));
        v[1] = (float) Math.sin(Math.toRadians(degrees));
        return v;
    }

    static TrackFace face(String stream, long track, double degrees, long ms) {
        return new TrackFace(stream, 1, track, at(degrees), 2, ms - 500, ms, List.of(ms / 100), null);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, TrackFace, TrackFace> harness(int maxPeople) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, TrackFace, TrackFace> h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new FaceIdentities(0.9, 60_000, maxPeople)), f -> FaceIdentities.KEY, Types.STRING);
        h.open();
        return h;
    }

    @Test
    void theSameFaceInTwoStreamsIsOnePersonAnotherFaceAnotherAndTheyAreForgottenAfterTheMemory() throws Exception {
        try (var h = harness(100)) {
            h.processElement(new StreamRecord<>(face("cam-a", 1, 0, 1000), 1000));
            h.processElement(new StreamRecord<>(face("cam-b", 7, 10, 2000), 2000));
            h.processElement(new StreamRecord<>(face("cam-b", 8, 90, 3000), 3000));
            List<TrackFace> out = h.extractOutputValues();
            assertThat(out).extracting(TrackFace::personId).containsExactly(FaceLinks.idOf("cam-a:t:000001"), FaceLinks.idOf("cam-a:t:000001"),
                    FaceLinks.idOf("cam-b:t:000008"));
            assertThat(out.get(1).trackId()).isEqualTo("cam-b:t:000007");
            assertThat(out.get(1).descriptor()).isEqualTo(at(10));
            assertThat(h.numEventTimeTimers()).isEqualTo(1);
            h.processWatermark(new Watermark(3000 + 60_000));
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            // after the memory the same face starts a person again, from its own track
            h.processElement(new StreamRecord<>(face("cam-a", 9, 0, 70_000), 70_000));
            assertThat(h.extractOutputValues().get(3).personId()).isEqualTo(FaceLinks.idOf("cam-a:t:000009"));
        }
    }

    @Test
    void atMostMaxPeopleAreKeptTheOneSeenLongestAgoGoesFirst() throws Exception {
        try (var h = harness(2)) {
            h.processElement(new StreamRecord<>(face("s", 1, 0, 1000), 1000));
            h.processElement(new StreamRecord<>(face("s", 2, 90, 2000), 2000));
            h.processElement(new StreamRecord<>(face("s", 3, 5, 3000), 3000)); // person 1 seen again: person 2 is now the oldest
            h.processElement(new StreamRecord<>(face("s", 4, 180, 4000), 4000)); // a third person: person 2 goes
            h.processElement(new StreamRecord<>(face("s", 5, 88, 5000), 5000)); // like person 2, who is gone: a new person
            h.processElement(new StreamRecord<>(face("s", 6, 2, 6000), 6000)); // person 1 stayed? no: 4 and 5 are the two newest
            assertThat(h.extractOutputValues()).extracting(TrackFace::personId).containsExactly(FaceLinks.idOf("s:t:000001"),
                    FaceLinks.idOf("s:t:000002"), FaceLinks.idOf("s:t:000001"), FaceLinks.idOf("s:t:000004"), FaceLinks.idOf("s:t:000005"),
                    FaceLinks.idOf("s:t:000006"));
        }
    }
}
