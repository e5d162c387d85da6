package io.videoworld.engines.memory;

import static io.videoworld.testkit.MemoryFixtures.EPOCH;
import static io.videoworld.testkit.MemoryFixtures.screen;
import static io.videoworld.testkit.MemoryFixtures.shot;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Observation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The batching and writing engines without Flink: state in, state and output out. */
class EpisodeEnginesTest {
    private static final String DESK = "desk";
    private static final long IDLE = 60_000;
    private final EpisodeBatching batching = new EpisodeBatching(20_000, IDLE, 5_000, true);
    private final EpisodeWriting writing = new EpisodeWriting(IDLE);

    @Test
    void aShotIsBatchedOnlyOnceEveryTimelyKeyframeIsPerceivedAndTheIdleTimerFollowsTheLatestObservation() {
        EpisodeBatching.Step step = batching.observe(null, Observation.of(shot(DESK, 0, 3)), Long.MIN_VALUE);
        assertThat(step.batches()).isEmpty();
        for (int s = 0; s < 3; s++) {
            step = batching.observe(step.state(), Observation.of(screen(DESK, s, "Inbox - Mail", "Lunch at noon", topic(0, 0.1))),
                    Long.MIN_VALUE);
            assertThat(step.batches()).hasSize(s < 2 ? 0 : 1);
        }
        assertThat(step.batches().get(0).app()).isEqualTo("mail");
        assertThat(step.state().idleTimerAt()).isEqualTo(EPOCH + 3_000 + IDLE);
        EpisodeBatching.Step idle = batching.timer(step.state(), step.state().idleTimerAt());
        assertThat(idle.state()).as("the idle timer clears the stream").isNull();
    }

    @Test
    void finishingEmitsWhatIsStillHeldAndLeavesNoState() {
        EpisodeBatching.Step step = batching.observe(null, Observation.of(shot(DESK, 0, 4)), Long.MIN_VALUE);
        step = batching.observe(step.state(), Observation.of(screen(DESK, 0, "Inbox - Mail", "Lunch at noon", topic(0, 0.1))), Long.MIN_VALUE);
        assertThat(step.batches()).as("three keyframes still unread").isEmpty();
        EpisodeBatching.Step done = batching.finish(step.state());
        assertThat(done.state()).isNull();
        assertThat(done.batches()).hasSize(1);
    }

    @Test
    void writingMergesContinuationsInsertsChangesAndLinksReturns() {
        List<EpisodeBatch> batches = new ArrayList<>();
        EpisodeBatching.Step step = null;
        int[][] shots = {{0, 6}, {6, 12}, {12, 18}};
        String[] titles = {"Inbox - Mail", "billing.py - Code Editor", "Inbox - Mail"};
        for (int i = 0; i < shots.length; i++) {
            step = batching.observe(step == null ? null : step.state(), Observation.of(shot(DESK, shots[i][0], shots[i][1])), Long.MIN_VALUE);
            batches.addAll(step.batches());
            for (int s = shots[i][0]; s < shots[i][1]; s++) {
                step = batching.observe(step.state(), Observation.of(screen(DESK, s, titles[i], "line " + i, topic(i == 1 ? 10 : 0, 0.1))),
                        Long.MIN_VALUE);
                batches.addAll(step.batches());
            }
        }
        batches.addAll(batching.finish(step.state()).batches());
        assertThat(batches).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.NEW, EpisodeBatch.RETURN);

        WriterState state = null;
        List<String> decisions = new ArrayList<>();
        List<EpisodeDoc> docs = new ArrayList<>();
        for (EpisodeBatch b : batches) {
            EpisodeWriting.Step w = writing.write(state, b);
            state = w.state();
            decisions.add(w.decision());
            docs.addAll(w.docs());
        }
        assertThat(decisions).containsExactly("insert", "insert", "insert");
        EpisodeDoc back = docs.get(docs.size() - 1);
        assertThat(back.linkedEventIds()).containsExactly(EpisodeDoc.id(DESK, 1));
        assertThat(state.timerAt()).isEqualTo(batches.get(2).endEventTimeMs() + IDLE);
        WriterState newerPush = new WriterState(EPOCH + 1, 1, List.of(), Long.MIN_VALUE, -1);
        assertThat(writing.write(newerPush, batches.get(0))).as("a batch of an older push is ignored").isNull();
    }

    @Test
    void withoutAShotCutAnotherWindowStillCutsANotificationDoesNotAndTheReturnFindsItsTask() {
        EpisodeBatching.Step step = batching.observe(null, Observation.of(shot(DESK, 0, 24)), Long.MIN_VALUE);
        List<EpisodeBatch> batches = new ArrayList<>();
        for (int s = 0; s < 24; s++) {
            boolean files = s >= 8 && s < 16;
            io.videoworld.core.Perception p = files ? screen(DESK, s, "Home / Pictures", "holiday-photos-2023   792 kB   Folder", topic(10, 0.1))
                    : screen(DESK, s, "report.txt", "quarterly figures for the board meeting", topic(0, 0.1));
            if (s == 3) {
                List<io.videoworld.core.TextLine> lines = new ArrayList<>(p.lines());
                lines.add(new io.videoworld.core.TextLine("New message from bob", 920, 40, 220, 18, 0.9));
                p = new io.videoworld.core.Perception(DESK, EPOCH, s, s * 1000L, "periodic", lines, p.text(), p.textEmbedding(),
                        p.imageDescriptor(), "cpu", 1280, 800, List.of(), p.eventTimeMs());
            }
            step = batching.observe(step.state(), Observation.of(p), Long.MIN_VALUE);
            batches.addAll(step.batches());
        }
        batches.addAll(batching.finish(step.state()).batches());
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 8_000L, 16_000L);
        assertThat(batches).extracting(EpisodeBatch::app).containsExactly("editor", "files", "editor");
        assertThat(batches).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.NEW, EpisodeBatch.RETURN);
        assertThat(batches.get(2).relatedBatch()).isEqualTo(batches.get(0).batchSeq());
    }
    @Test
    void aWindowChangeReadOnlyAtTheNextPeriodicKeyframeStartsHalfwayOneReadAtTheChangeStartsThere() {
        // Screens read every 4 s: keyframes 0, 4, 8 show the report, 12 the files (a period after 8: the change was in between),
        // 14 the report again (2 s after 12, sooner than the period: read at the change).
        EpisodeBatching every4 = new EpisodeBatching(20_000, IDLE, 5_000, true, 4_000);
        EpisodeBatching.Step step = every4.observe(null, Observation.of(shot(DESK, 0, 18)), Long.MIN_VALUE);
        List<EpisodeBatch> batches = new ArrayList<>();
        for (int s : new int[] {0, 4, 8, 12, 14, 17}) {
            boolean files = s == 12;
            io.videoworld.core.Perception p = files ? screen(DESK, s, "Home / Pictures", "holiday-photos-2023   792 kB   Folder", topic(10, 0.1))
                    : screen(DESK, s, "report.txt", "quarterly figures for the board meeting", topic(0, 0.1));
            step = every4.observe(step.state(), Observation.of(p), Long.MIN_VALUE);
            batches.addAll(step.batches());
        }
        batches.addAll(every4.finish(step.state()).batches());
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 10_000L, 14_000L);
        assertThat(batches).extracting(EpisodeBatch::app).containsExactly("editor", "files", "editor");
        // Where the period is not known, a change is placed at the keyframe that showed it.
        EpisodeBatching.Step plain = batching.observe(null, Observation.of(shot(DESK, 0, 18)), Long.MIN_VALUE);
        List<EpisodeBatch> at = new ArrayList<>();
        for (int s : new int[] {0, 4, 8, 12, 14, 17}) {
            io.videoworld.core.Perception p = s == 12 ? screen(DESK, s, "Home / Pictures", "holiday-photos-2023   792 kB   Folder", topic(10, 0.1))
                    : screen(DESK, s, "report.txt", "quarterly figures for the board meeting", topic(0, 0.1));
            plain = batching.observe(plain.state(), Observation.of(p), Long.MIN_VALUE);
            at.addAll(plain.batches());
        }
        at.addAll(batching.finish(plain.state()).batches());
        assertThat(at).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 12_000L, 14_000L);
    }

    @Test
    void aKeyframeThatReadNothingIsNoEvidenceSoTheWindowAfterItIsComparedWithTheOneBefore() {
        EpisodeBatching.Step step = batching.observe(null, Observation.of(shot(DESK, 0, 16)), Long.MIN_VALUE);
        List<EpisodeBatch> batches = new ArrayList<>();
        for (int s = 0; s < 16; s++) {
            io.videoworld.core.Perception p = s >= 9 ? screen(DESK, s, "Home / Pictures", "holiday-photos-2023   792 kB   Folder", topic(10, 0.1))
                    : screen(DESK, s, "report.txt", "quarterly figures for the board meeting", topic(0, 0.1));
            if (s == 8) {
                // A frame caught mid-redraw: OCR read no line.
                p = new io.videoworld.core.Perception(DESK, EPOCH, s, s * 1000L, "periodic", List.of(), "", null, p.imageDescriptor(), "cpu", 1280,
                        800, List.of(), p.eventTimeMs());
            }
            step = batching.observe(step.state(), Observation.of(p), Long.MIN_VALUE);
            batches.addAll(step.batches());
        }
        batches.addAll(batching.finish(step.state()).batches());
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 9_000L);
        assertThat(batches).extracting(EpisodeBatch::app).containsExactly("editor", "files");
    }
}
