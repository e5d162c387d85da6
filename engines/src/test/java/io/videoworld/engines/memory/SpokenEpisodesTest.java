package io.videoworld.engines.memory;

import static io.videoworld.testkit.MemoryFixtures.EPOCH;
import static io.videoworld.testkit.MemoryFixtures.screen;
import static io.videoworld.testkit.MemoryFixtures.shot;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Observation;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TranscriptDoc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What was said reaches the batches and the episodes: the batch holding a stretch's end takes it, a late one goes with the next. */
class SpokenEpisodesTest {
    private static final String DESK = "desk";
    private static final String PODCAST = "podcast";
    private static final long IDLE = 60_000;
    private final EpisodeBatching batching = new EpisodeBatching(20_000, IDLE, 5_000, true);
    private final EpisodeWriting writing = new EpisodeWriting(IDLE);

    static TranscriptDoc said(String stream, long startMs, long endMs, String text) {
        return new TranscriptDoc(stream, EPOCH, startMs, endMs, 0.9, -20, "silero-vad-v5", "sphinx4:en-us", TranscriptDoc.OK, text, List.of(), null);
    }

    static TranscriptDoc failed(String stream, long startMs, long endMs) {
        return new TranscriptDoc(stream, EPOCH, startMs, endMs, 0.8, -25, "silero-vad-v5", "sphinx4:en-us", TranscriptDoc.FAILED, null, List.of(),
                "recogniser crashed");
    }

    private EpisodeBatching.Step see(EpisodeBatching.Step step, Observation o, List<EpisodeBatch> out) {
        EpisodeBatching.Step next = batching.observe(step == null ? null : step.state(), o, Long.MIN_VALUE);
        out.addAll(next.batches());
        return next;
    }

    private static List<String> texts(EpisodeBatch b) {
        return b.said().stream().map(EpisodeBatch.Utterance::text).toList();
    }

    @Test
    void aStretchGoesToTheBatchHoldingItsEndALateOneToTheNextAndNothingIsLeftOrDropped() {
        List<EpisodeBatch> out = new ArrayList<>();
        EpisodeBatching.Step step = see(null, Observation.of(shot(DESK, 0, 10)), out);
        for (int s = 0; s < 9; s++) {
            step = see(step, Observation.of(screen(DESK, s, "Inbox - Mail", "Quarterly report due Friday", topic(0, 0.1))), out);
        }
        // Heard while its batch (0-10 s, one keyframe still unread) is open: that batch takes it.
        step = see(step, Observation.of(said(DESK, 3_000, 6_500, "the quarterly report is late")), out);
        assertThat(out).isEmpty();
        assertThat(step.state().said()).hasSize(1);
        step = see(step, Observation.of(screen(DESK, 9, "Inbox - Mail", "Quarterly report due Friday", topic(0, 0.1))), out);
        assertThat(out).singleElement().satisfies(b -> {
            assertThat(b.startPtsMs()).isZero();
            assertThat(b.endPtsMs()).isEqualTo(10_000);
            assertThat(texts(b)).containsExactly("the quarterly report is late");
        });
        assertThat(step.state().said()).isEmpty();

        step = see(step, Observation.of(shot(DESK, 10, 20)), out);
        for (int s = 10; s < 19; s++) {
            step = see(step, Observation.of(screen(DESK, s, "Inbox - Mail", "Quarterly report due Friday", topic(0, 0.1))), out);
        }
        // Everything it spans (1-2.5 s) was cut already, and 10-20 s waits: it goes with that next batch, after the one heard in it.
        step = see(step, Observation.of(said(DESK, 12_000, 15_000, "send it to Dana")), out);
        step = see(step, Observation.of(said(DESK, 1_000, 2_500, "good morning")), out);
        // Ends after 20 s: waits for a later batch.
        step = see(step, Observation.of(said(DESK, 19_000, 21_000, "and the slides")), out);
        step = see(step, Observation.of(screen(DESK, 19, "Inbox - Mail", "Quarterly report due Friday", topic(0, 0.1))), out);
        assertThat(out).hasSize(2);
        assertThat(texts(out.get(1))).containsExactly("good morning", "send it to Dana");
        assertThat(step.state().said()).extracting(TranscriptDoc::text).containsExactly("and the slides");

        // Late, and nothing of the stream waits to be cut: a batch of its own at once, continuing the latest event.
        step = see(step, Observation.of(failed(DESK, 16_000, 17_000)), out);
        assertThat(out).hasSize(3);
        EpisodeBatch late = out.get(2);
        assertThat(late.batchSeq()).isEqualTo(2);
        assertThat(late.relation()).isEqualTo(EpisodeBatch.CONTINUE);
        assertThat(late.said()).singleElement().satisfies(u -> assertThat(u.text()).as("a failure is not an empty text").isNull());
        assertThat(step.state().emittedUntilPts()).as("a late batch never moves the stream back").isEqualTo(20_000);

        // The idle timer settles the rest: the stretch past the last batch is the stream's last batch; no state is left.
        EpisodeBatching.Step done = batching.timer(step.state(), step.state().idleTimerAt());
        assertThat(done.state()).isNull();
        assertThat(done.batches()).singleElement().satisfies(b -> {
            assertThat(texts(b)).containsExactly("and the slides");
            assertThat(b.batchSeq()).isEqualTo(3);
        });
        out.addAll(done.batches());
        assertThat(out.stream().mapToInt(b -> b.said().size()).sum()).as("every stretch in exactly one batch").isEqualTo(5);

        WriterState state = null;
        List<EpisodeDoc> docs = new ArrayList<>();
        for (EpisodeBatch b : out) {
            EpisodeWriting.Step w = writing.write(state, b);
            state = w.state();
            docs.addAll(w.docs());
        }
        EpisodeDoc last = docs.get(docs.size() - 1);
        assertThat(docs).extracting(EpisodeDoc::seq).containsOnly(1L);
        assertThat(last.details()).contains("[00:00:03-00:00:06] \"the quarterly report is late\"")
                .contains("said: [00:00:01-00:00:02] \"good morning\" [00:00:12-00:00:15] \"send it to Dana\"")
                .contains("[00:00:16-00:00:17] (speech not recognised)").contains("\"and the slides\"");
        assertThat(last.endPtsMs()).isEqualTo(21_000);
        assertThat(last.startPtsMs()).isZero();
        assertThat(last.summary()).as("a screen with text is summarised by its text").doesNotContain("said");
    }

    @Test
    void anAudioOnlyStreamMakesEpisodesFromSpeechAlone() {
        List<EpisodeBatch> out = new ArrayList<>();
        EpisodeBatching.Step step = see(null, Observation.of(said(PODCAST, 500, 4_000, "welcome to the show about \"rivers\"")), out);
        step = see(step, Observation.of(said(PODCAST, 5_000, 9_000, "today the Danube")), out);
        step = see(step, Observation.of(failed(PODCAST, 9_500, 11_000)), out);
        // Forty seconds of silence: another episode.
        step = see(step, Observation.of(said(PODCAST, 51_000, 55_000, "after the break the Rhine")), out);
        assertThat(out).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.CONTINUE, EpisodeBatch.CONTINUE,
                EpisodeBatch.NEW);
        assertThat(out).extracting(EpisodeBatch::sourceKind).containsOnlyNulls();
        assertThat(out).extracting(EpisodeBatch::startPtsMs).containsExactly(500L, 5_000L, 9_500L, 51_000L);
        assertThat(step.state().said()).isEmpty();
        assertThat(step.state().idleTimerAt()).isEqualTo(EPOCH + 55_000 + IDLE);
        assertThat(batching.timer(step.state(), step.state().idleTimerAt()).state()).isNull();

        WriterState state = null;
        List<EpisodeDoc> docs = new ArrayList<>();
        for (EpisodeBatch b : out) {
            EpisodeWriting.Step w = writing.write(state, b);
            state = w.state();
            docs.addAll(w.docs());
        }
        EpisodeDoc first = docs.stream().filter(d -> d.seq() == 1).reduce((a, b) -> b).orElseThrow();
        EpisodeDoc second = docs.stream().filter(d -> d.seq() == 2).reduce((a, b) -> b).orElseThrow();
        assertThat(first.eventType()).isEqualTo("speech_activity");
        assertThat(first.summary()).isEqualTo("Speech: \"welcome to the show about 'rivers'\"");
        assertThat(first.details()).contains("today the Danube").contains("(speech not recognised)");
        assertThat(first.startPtsMs()).isEqualTo(500);
        assertThat(first.endPtsMs()).isEqualTo(11_000);
        assertThat(second.summary()).isEqualTo("Speech: \"after the break the Rhine\"");
        assertThat(second.occurredAtMs()).isEqualTo(EPOCH + 51_000);
    }

    @Test
    void aCameraEpisodeQuotesWhatWasSaidInItsSummary() {
        EpisodeBatch b = new EpisodeBatch("porch", EPOCH, 0, SourceKind.VIDEO, 0, 10_000, EPOCH, EPOCH + 10_000, 10, "s", "sc", null, null,
                List.of(), List.of("person"), List.of(), null, EpisodeBatch.NEW, -1, -1, List.of(), List.of(), "rules",
                List.of(new EpisodeBatch.Utterance(2_000, 4_000, "the parcel is by the door and it is raining so please take it in soon because the "
                        + "cardboard will not last long out here in the rain tonight", "sphinx4:en-us")));
        EpisodeDoc doc = writing.write(null, b).docs().get(0);
        assertThat(doc.summary()).startsWith("Camera scene with person; said: \"the parcel is by the door").endsWith("...\"");
        assertThat(doc.summary().length()).isLessThan(200);
        assertThat(doc.details()).isEqualTo("[00:00:00-00:00:10] ; objects: person; said: [00:00:02-00:00:04] \"" + b.said().get(0).text() + "\"");
        assertThat(b).isNotEqualTo(b.withSaid(List.of())).isEqualTo(b.withSaid(b.said()));
    }
}
