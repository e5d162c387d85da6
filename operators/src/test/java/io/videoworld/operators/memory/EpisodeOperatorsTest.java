package io.videoworld.operators.memory;

import io.videoworld.engines.memory.EpisodePolicy;
import static io.videoworld.testkit.MemoryFixtures.EPOCH;
import static io.videoworld.testkit.MemoryFixtures.screen;
import static io.videoworld.testkit.MemoryFixtures.shot;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Observation;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The batcher and the writer as keyed operators: batches, decisions, writes, and no state left behind. */
class EpisodeOperatorsTest {
    private static final String DESK = "desk";
    private static final long IDLE = 600_000;

    /** Mail 0-12 s, editor 12-20 s, mail again 20-26 s: one look-alike "shot" for the first two, a cut before the third. */
    private static List<Observation> desk() {
        List<Observation> in = new ArrayList<>();
        Segment first = shot(DESK, 0, 20);
        Segment second = shot(DESK, 20, 26);
        // Perception finishes out of order and partly before its shot closes.
        for (int s = 19; s >= 0; s--) {
            boolean mail = s < 12;
            in.add(Observation.of(screen(DESK, s, mail ? "Inbox - Mail" : "billing.py - Code Editor",
                    mail ? "Quarterly report due Friday" : "def total_invoice(items):", topic(mail ? 0 : 10, 0.1 + s * 0.001))));
            if (s == 10) {
                in.add(Observation.of(first));
            }
        }
        in.add(Observation.of(second));
        for (int s = 20; s < 26; s++) {
            in.add(Observation.of(screen(DESK, s, "Inbox - Mail", "Lunch with Dana at noon", topic(0, 0.3))));
        }
        return in;
    }

    private static List<EpisodeBatch> batch(List<Observation> in, long maxBatchMs) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeBatcher(maxBatchMs, IDLE, 5_000, true)),
                Observation::streamId, Types.STRING);
        h.open();
        for (Observation o : in) {
            h.processElement(new StreamRecord<>(o, EPOCH));
        }
        List<EpisodeBatch> out = new ArrayList<>(h.extractOutputValues());
        assertThat(h.numEventTimeTimers()).isEqualTo(1);
        h.processWatermark(new Watermark(EPOCH + 26_000 + IDLE));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
        return out;
    }

    @Test
    void batchesEndAtAppSwitchesAndShotsAndSayHowTheyRelate() throws Exception {
        List<EpisodeBatch> batches = batch(desk(), 20_000);
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 12_000L, 20_000L);
        assertThat(batches).extracting(EpisodeBatch::app).containsExactly("mail", "codeeditor", "mail");
        assertThat(batches).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.NEW, EpisodeBatch.RETURN);
        assertThat(batches.get(2).relatedBatch()).isZero();
        assertThat(batches.get(0).lines()).startsWith("Inbox - Mail", "Quarterly report due Friday");
        assertThat(batches.get(0).recent()).isEmpty();
        assertThat(batches.get(2).recent()).hasSize(2);
    }

    @Test
    void aLiveShotThatNeverCutsIsBatchedAsTheWatermarkPassesAndItsCloseAddsOnlyTheRest() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeBatcher(20_000, IDLE, 5_000, true)),
                Observation::streamId, Types.STRING);
        h.open();
        h.processElement(new StreamRecord<>(Observation.of(new io.videoworld.core.VideoDoc(DESK, io.videoworld.core.SourceKind.SCREEN, "x", null,
                EPOCH, EPOCH, EPOCH, 0, 1, 1, 0, 0, 1280, 800, "live")), EPOCH));
        for (int s = 0; s < 50; s++) {
            h.processElement(new StreamRecord<>(Observation.of(screen(DESK, s, "Inbox - Mail", "Message " + s, topic(0, 0.1))), EPOCH + s * 1000L));
            h.processWatermark(new Watermark(EPOCH + s * 1000L));
        }
        List<EpisodeBatch> live = new ArrayList<>(h.extractOutputValues());
        // By 49 s the watermark has passed 44 s: batches [0, 20) and [20, 40) are complete; [40, ...) is still growing.
        assertThat(live).extracting(EpisodeBatch::startPtsMs, EpisodeBatch::endPtsMs).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0L, 20_000L), org.assertj.core.groups.Tuple.tuple(20_000L, 40_000L));
        assertThat(live.get(1).relation()).isEqualTo(EpisodeBatch.CONTINUE);
        assertThat(live.get(0).lines()).contains("Message 0", "Message 19").doesNotContain("Message 20");
        h.processElement(new StreamRecord<>(Observation.of(shot(DESK, 0, 50)), EPOCH + 50_000));
        List<EpisodeBatch> all = h.extractOutputValues();
        assertThat(all).hasSize(3);
        assertThat(all.get(2).startPtsMs()).isEqualTo(40_000);
        assertThat(all.get(2).endPtsMs()).isEqualTo(50_000);
        assertThat(all.get(2).lines()).contains("Message 40", "Message 49").doesNotContain("Message 39");
        h.processWatermark(new Watermark(EPOCH + 50_000 + IDLE));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
    }

    @Test
    void aShotWhosePerceptionFailedIsUnknownAndContinuesTheActivityRatherThanStartingABlankOne() throws Exception {
        List<Observation> in = new ArrayList<>();
        in.add(Observation.of(shot(DESK, 0, 10)));
        in.add(Observation.of(shot(DESK, 10, 20)));
        in.add(Observation.of(shot(DESK, 20, 26)));
        for (int s = 0; s < 26; s++) {
            Perception p = screen(DESK, s, "Inbox - Mail", "Quarterly report due Friday", topic(0, 0.1));
            boolean failed = s >= 10 && s < 20;
            in.add(Observation.of(failed ? new Perception(p.streamId(), p.epochMs(), p.frameIndex(), p.ptsMs(), p.role(), List.of(), null,
                    null, null, "cpu", 1280, 800, List.of(), p.eventTimeMs(), Perception.FAILED, "inference timed out") : p));
        }
        List<EpisodeBatch> batches = batch(in, 20_000);
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 10_000L, 20_000L);
        assertThat(batches).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.CONTINUE, EpisodeBatch.CONTINUE);
        assertThat(batches.get(1).lines()).as("nothing was read, and nothing is made up").isEmpty();
        assertThat(batches.get(1).app()).isEqualTo("mail");
    }

    @Test
    void longActivitiesAreCutIntoBatchesOfAtMostTheLimitThatContinueEachOther() throws Exception {
        List<EpisodeBatch> batches = batch(desk(), 5_000);
        assertThat(batches).extracting(EpisodeBatch::startPtsMs).containsExactly(0L, 5_000L, 10_000L, 12_000L, 17_000L, 20_000L, 25_000L);
        assertThat(batches).extracting(EpisodeBatch::relation).containsExactly(EpisodeBatch.NEW, EpisodeBatch.CONTINUE, EpisodeBatch.CONTINUE,
                EpisodeBatch.NEW, EpisodeBatch.CONTINUE, EpisodeBatch.RETURN, EpisodeBatch.CONTINUE);
    }

    private static List<EpisodeDoc> write(List<EpisodeBatch> batches) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new EpisodeWriter(IDLE)), EpisodeBatch::streamId, Types.STRING);
        h.open();
        for (EpisodeBatch b : batches) {
            h.processElement(new StreamRecord<>(b, b.endEventTimeMs()));
        }
        List<EpisodeDoc> out = new ArrayList<>(h.extractOutputValues());
        h.processWatermark(new Watermark(EPOCH + 26_000 + IDLE));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
        return out;
    }

    /** The latest write of each event id. */
    private static List<EpisodeDoc> latest(List<EpisodeDoc> docs) {
        java.util.Map<String, EpisodeDoc> m = new java.util.LinkedHashMap<>();
        docs.forEach(d -> m.put(d.id(), d));
        return new ArrayList<>(m.values());
    }

    @Test
    void continuingBatchesMergeIntoOneEventThatKeepsItsStartAndItsFirstWords() throws Exception {
        List<EpisodeDoc> docs = latest(write(batch(desk(), 5_000)));
        assertThat(docs).extracting(EpisodeDoc::seq).containsExactly(1L, 2L, 3L);
        EpisodeDoc mail = docs.get(0);
        assertThat(mail.occurredAtMs()).isEqualTo(EPOCH);
        assertThat(mail.endPtsMs()).isEqualTo(12_000);
        assertThat(mail.batches()).isEqualTo(3);
        assertThat(mail.revision()).isEqualTo(4);
        assertThat(mail.closed()).isTrue();
        assertThat(mail.summary()).contains("Inbox - Mail").contains("Quarterly report due Friday");
        assertThat(mail.details().split("\n")).hasSize(3);
        EpisodeDoc back = docs.get(2);
        assertThat(back.linkedEventIds()).containsExactly(mail.id());
        assertThat(back.summary()).contains("Lunch with Dana at noon");
        assertThat(back.occurredAtMs()).isEqualTo(EPOCH + 20_000);
    }

    @Test
    void anEventWhoseDetailsWouldPassFiveThousandCharactersIsClosedAndContinuedByALinkedOne() throws Exception {
        List<EpisodeBatch> batches = new ArrayList<>();
        String longLine = "x".repeat(390);
        for (int i = 0; i < 20; i++) {
            batches.add(new EpisodeBatch(DESK, EPOCH, i, io.videoworld.core.SourceKind.SCREEN, i * 1000L, i * 1000L + 1000, EPOCH + i * 1000L,
                    EPOCH + i * 1000L + 1000, 1, "s", "sc", "mail", "Inbox - Mail", List.of(longLine + i), List.of(), List.of(), topic(0, 0),
                    i == 0 ? EpisodeBatch.NEW : EpisodeBatch.CONTINUE, -1, 1, List.of(), List.of(), "rules"));
        }
        List<EpisodeDoc> docs = latest(write(batches));
        assertThat(docs).hasSizeGreaterThan(1);
        assertThat(docs).allSatisfy(d -> assertThat(d.details().length()).isLessThanOrEqualTo(5000));
        assertThat(docs.get(0).closed()).isTrue();
        assertThat(docs.get(1).linkedEventIds()).containsExactly(docs.get(0).id());
        assertThat(docs.get(1).occurredAtMs()).isEqualTo(docs.get(0).endEventTimeMs());
    }

    @Test
    void aNewBatchThatRepeatsThePreviousEventReplacesItWithOneConsolidatedEvent() throws Exception {
        EpisodeBatch first = new EpisodeBatch(DESK, EPOCH, 0, io.videoworld.core.SourceKind.SCREEN, 0, 4000, EPOCH, EPOCH + 4000, 4, "s", "sc",
                "mail", "Inbox - Mail", List.of("Quarterly report due Friday"), List.of(), List.of(), topic(0, 0.01), EpisodeBatch.NEW, -1, -1,
                List.of(), List.of(), "rules");
        // A model said "insert", but the batch is the same mail screen a second later.
        EpisodeBatch again = new EpisodeBatch(DESK, EPOCH, 1, io.videoworld.core.SourceKind.SCREEN, 4000, 8000, EPOCH + 4000, EPOCH + 8000, 4, "s",
                "sc", "mail", "Inbox - Mail", List.of("Quarterly report due Friday", "Reply sent"), List.of(), List.of(), topic(0, 0.02),
                EpisodeBatch.NEW, -1, 0.99, List.of(), List.of(), "llm");
        List<EpisodeDoc> docs = write(List.of(first, again));
        assertThat(docs).extracting(EpisodeDoc::seq, EpisodeDoc::deleted).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1L, false), org.assertj.core.groups.Tuple.tuple(1L, true), org.assertj.core.groups.Tuple.tuple(2L, false));
        EpisodeDoc consolidated = docs.get(2);
        assertThat(consolidated.occurredAtMs()).isEqualTo(EPOCH);
        assertThat(consolidated.endPtsMs()).isEqualTo(8000);
        assertThat(consolidated.summary()).contains("Quarterly report due Friday").contains("Reply sent");
    }

    @Test
    void appNamesIgnoreOcrSpacingAndTheDocumentName() {
        assertThat(EpisodePolicy.appOf("Inbox - Mail")).isEqualTo("mail");
        assertThat(EpisodePolicy.appOf("Inbox-Mail")).isEqualTo("mail");
        assertThat(EpisodePolicy.appOf("billing.py - Code Editor")).isEqualTo(EpisodePolicy.appOf("invoice.py -CodeEditor"));
        assertThat(EpisodePolicy.appOf("   ")).isNull();
    }
}
