package io.videoworld.operators.memory;

import static io.videoworld.testkit.MemoryFixtures.EPOCH;
import static io.videoworld.testkit.MemoryFixtures.screen;
import static io.videoworld.testkit.MemoryFixtures.shot;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Observation;
import io.videoworld.core.TranscriptDoc;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Transcripts through the batcher and the writer as keyed operators: batches carry what was said, and no speech or timer is left behind. */
class SpokenEpisodesOperatorTest {
    private static final long IDLE = 600_000;

    private static TranscriptDoc said(String stream, long startMs, long endMs, String text) {
        return new TranscriptDoc(stream, EPOCH, startMs, endMs, 0.9, -20, "silero-vad-v5", "sphinx4:en-us", TranscriptDoc.OK, text, List.of(), null);
    }

    @Test
    void aNewPushSettlesTheSpeechStillWaitingFromTheOldOne() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeBatcher(20_000, IDLE, 5_000, true)),
                Observation::streamId, Types.STRING);
        h.open();
        h.processElement(new StreamRecord<>(Observation.of(shot("desk", 0, 4)), EPOCH + 4_000));
        for (int s = 0; s < 4; s++) {
            h.processElement(new StreamRecord<>(Observation.of(screen("desk", s, "Inbox - Mail", "Lunch with Dana at noon", topic(0, 0.1))),
                    EPOCH + s * 1000L));
        }
        h.processElement(new StreamRecord<>(Observation.of(said("desk", 3_000, 5_000, "see you at noon")), EPOCH + 6_000));
        assertThat(h.extractOutputValues()).hasSize(1);
        // The stream is pushed again: the old push's waiting speech is its last batch, then the new push starts clean.
        TranscriptDoc next = new TranscriptDoc("desk", EPOCH + 60_000, 0, 2_000, 0.9, -20, "silero-vad-v5", "sphinx4:en-us", TranscriptDoc.OK,
                "hello again", List.of(), null);
        h.processElement(new StreamRecord<>(Observation.of(next), EPOCH + 62_000));
        List<EpisodeBatch> out = h.extractOutputValues();
        assertThat(out).hasSize(3);
        assertThat(out.get(1).epochMs()).isEqualTo(EPOCH);
        assertThat(out.get(1).said()).extracting(EpisodeBatch.Utterance::text).containsExactly("see you at noon");
        assertThat(out.get(2).epochMs()).isEqualTo(EPOCH + 60_000);
        assertThat(out.get(2).said()).extracting(EpisodeBatch.Utterance::text).containsExactly("hello again");
        assertThat(out.get(2).batchSeq()).isZero();
        h.processWatermark(new Watermark(EPOCH + 62_000 + IDLE));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
    }

    @Test
    void aScreenAndAPodcastGetWhatWasSaidAndTheIdleTimerClearsEverything() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeBatcher(20_000, IDLE, 5_000, true)),
                Observation::streamId, Types.STRING);
        h.open();
        h.processElement(new StreamRecord<>(Observation.of(shot("desk", 0, 8)), EPOCH + 8_000));
        for (int s = 0; s < 8; s++) {
            h.processElement(new StreamRecord<>(Observation.of(screen("desk", s, "Inbox - Mail", "Lunch with Dana at noon", topic(0, 0.1))),
                    EPOCH + s * 1000L));
            if (s == 4) {
                h.processElement(new StreamRecord<>(Observation.of(said("desk", 1_000, 3_000, "shall we have lunch")), EPOCH + 4_000));
            }
        }
        // Heard after the last batch was cut, and past its end: waits for the next batch or the idle timer.
        h.processElement(new StreamRecord<>(Observation.of(said("desk", 7_000, 9_000, "at noon then")), EPOCH + 10_000));
        h.processElement(new StreamRecord<>(Observation.of(said("podcast", 0, 4_000, "welcome to the river show")), EPOCH + 5_000));
        h.processElement(new StreamRecord<>(Observation.of(said("podcast", 4_500, 8_000, "today the Danube")), EPOCH + 9_000));
        List<EpisodeBatch> out = new ArrayList<>(h.extractOutputValues());
        assertThat(out).hasSize(3);
        assertThat(out.get(0).streamId()).isEqualTo("desk");
        assertThat(out.get(0).said()).extracting(EpisodeBatch.Utterance::text).containsExactly("shall we have lunch");
        assertThat(out.stream().filter(b -> b.streamId().equals("podcast")).map(b -> b.said().get(0).text()).toList())
                .containsExactly("welcome to the river show", "today the Danube");
        assertThat(h.numEventTimeTimers()).as("one idle timer a stream").isEqualTo(2);

        h.processWatermark(new Watermark(EPOCH + 10_000 + IDLE));
        List<EpisodeBatch> all = h.extractOutputValues();
        assertThat(all).hasSize(4);
        assertThat(all.get(3).streamId()).isEqualTo("desk");
        assertThat(all.get(3).said()).extracting(EpisodeBatch.Utterance::text).containsExactly("at noon then");
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();

        var w = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeWriter(IDLE)), EpisodeBatch::streamId,
                Types.STRING);
        w.open();
        for (EpisodeBatch b : all) {
            w.processElement(new StreamRecord<>(b, b.endEventTimeMs()));
        }
        List<EpisodeDoc> docs = w.extractOutputValues();
        EpisodeDoc desk = docs.stream().filter(d -> d.streamId().equals("desk")).reduce((a, b) -> b).orElseThrow();
        EpisodeDoc podcast = docs.stream().filter(d -> d.streamId().equals("podcast")).reduce((a, b) -> b).orElseThrow();
        assertThat(desk.details()).contains("\"shall we have lunch\"").contains("\"at noon then\"");
        assertThat(desk.endPtsMs()).isEqualTo(9_000);
        assertThat(podcast.summary()).isEqualTo("Speech: \"welcome to the river show\"");
        assertThat(podcast.details()).contains("today the Danube");
        w.processWatermark(new Watermark(EPOCH + 20_000 + IDLE));
        assertThat(w.numKeyedStateEntries()).isZero();
        assertThat(w.numEventTimeTimers()).isZero();
        w.close();
    }
}
