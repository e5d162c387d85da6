package io.videoworld.operators.tracking;

import io.videoworld.engines.tracking.ByteTracker;
import io.videoworld.engines.tracking.TrackerParams;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.DetectedFrame;
import io.videoworld.core.TrackDoc;
import io.videoworld.testkit.SyntheticTracks;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tracker as a keyed operator: what it writes, and that it leaves no state or timers behind. */
class TrackerOperatorTest {
    private static final long IDLE = 10_000;
    private static final long FORGET = 600_000;
    private KeyedOneInputStreamOperatorTestHarness<String, DetectedFrame, TrackDoc> harness;
    private final List<DetectedFrame> frames = SyntheticTracks.generate(new SyntheticTracks.Config(150, 4, 0.0, 0.0, 1.0, -1, 3)).frames();

    @BeforeEach
    void open() throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new TrackerOperator(TrackerParams.defaults(30, 90), IDLE, FORGET, 25)),
                DetectedFrame::streamId, Types.STRING);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private void feed(List<DetectedFrame> fs) throws Exception {
        for (DetectedFrame f : fs) {
            harness.processElement(new StreamRecord<>(f, f.eventTimeMs()));
        }
    }

    private List<TrackDoc> docs() {
        return harness.extractOutputValues();
    }

    @Test
    void theLastSampleWritesEveryTrackAsDeadAndClearsTheStream() throws Exception {
        feed(frames);
        Map<Long, List<TrackDoc>> byTrack = docs().stream().collect(Collectors.groupingBy(TrackDoc::trackNumber));
        assertThat(byTrack).isNotEmpty();
        for (List<TrackDoc> versions : byTrack.values()) {
            TrackDoc finalDoc = versions.get(versions.size() - 1);
            assertThat(finalDoc.alive()).isFalse();
            assertThat(versions.subList(0, versions.size() - 1)).allMatch(TrackDoc::alive);
            assertThat(finalDoc.timeline()).hasSize(finalDoc.samples());
            assertThat(finalDoc.first().ptsMs()).isLessThanOrEqualTo(finalDoc.last().ptsMs());
            assertThat(finalDoc.category()).isEqualTo("person");
        }
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aStreamThatGoesQuietHasItsTracksEndedByItsTimerAndIsForgottenLater() throws Exception {
        feed(frames.subList(0, 60));
        assertThat(docs()).allMatch(TrackDoc::alive);
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        harness.processWatermark(new Watermark(frames.get(59).eventTimeMs() + IDLE));
        Map<Long, TrackDoc> last = lastByTrack(docs());
        assertThat(last.values()).isNotEmpty().noneMatch(TrackDoc::alive);
        assertThat(harness.numEventTimeTimers()).as("the forget timer").isEqualTo(1);
        harness.processWatermark(new Watermark(frames.get(59).eventTimeMs() + FORGET));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    /**
     * After a restart the watermark can overtake a stream's replayed samples and fire its idle timer
     * early. What is finally stored (each track's latest document, as Elasticsearch keeps it) must be
     * what a run without that early timer stores.
     */
    @Test
    void aWatermarkThatOvertakesTheSamplesChangesNoTrackInTheEnd() throws Exception {
        feed(frames);
        Map<Long, TrackDoc> clean = lastByTrack(docs());
        close();
        open();
        feed(frames.subList(0, 60));
        harness.processWatermark(new Watermark(frames.get(59).eventTimeMs() + IDLE + 5_000));
        feed(frames.subList(60, frames.size()));
        Map<Long, TrackDoc> overtaken = lastByTrack(docs());
        assertThat(overtaken).isEqualTo(clean);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aStreamThatResumesAfterTheIdleTimeStartsNewTracksWithNewNumbers() throws Exception {
        feed(frames.subList(0, 60));
        long before = docs().stream().mapToLong(TrackDoc::trackNumber).max().orElseThrow();
        // The same stream resumes 40 s later by its own clock; whether the watermark got there first must not matter.
        List<DetectedFrame> later = frames.subList(60, 120).stream().map(f -> new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(),
                f.ptsMs() + 40_000, f.eventTimeMs() + 40_000, f.width(), f.height(), f.last(), f.detections(), f.frameHistogram(), f.device())).toList();
        feed(later);
        List<TrackDoc> all = docs();
        Map<Long, TrackDoc> last = lastByTrack(all);
        assertThat(last.values().stream().filter(d -> d.trackNumber() <= before)).as("every track of the first stretch ended")
                .noneMatch(TrackDoc::alive);
        assertThat(all.stream().filter(d -> d.first().ptsMs() >= later.get(0).ptsMs()).mapToLong(TrackDoc::trackNumber).min().orElseThrow())
                .as("numbering goes on: no document of the first stretch is overwritten").isGreaterThan(before);
    }

    private static Map<Long, TrackDoc> lastByTrack(List<TrackDoc> docs) {
        Map<Long, TrackDoc> out = new java.util.TreeMap<>();
        for (TrackDoc d : docs) {
            out.put(d.trackNumber(), d);
        }
        return out;
    }

    @Test
    void aNewPushEndsTheOldPushsTracksAndSamplesFromTheOldPushAreIgnored() throws Exception {
        feed(frames.subList(0, 40));
        List<DetectedFrame> newPush = frames.subList(0, 20).stream().map(f -> new DetectedFrame(f.streamId(), 2L, f.frameIndex(), f.ptsMs(),
                f.eventTimeMs() + 60_000, f.width(), f.height(), false, f.detections(), f.frameHistogram(), f.device())).toList();
        feed(newPush);
        List<TrackDoc> oldPush = docs().stream().filter(d -> d.epochMs() == 1L).toList();
        assertThat(oldPush).isNotEmpty();
        assertThat(oldPush.stream().filter(d -> !d.alive()).map(TrackDoc::trackNumber).distinct().count())
                .isEqualTo(oldPush.stream().map(TrackDoc::trackNumber).distinct().count());
        int before = docs().size();
        feed(frames.subList(40, 50));
        assertThat(docs()).hasSize(before);
        assertThat(docs().get(docs().size() - 1).epochMs()).isEqualTo(2L);
    }

    @Test
    void samplesDroppedAsStaleAreAGapTheTracksAreCarriedAcrossNotMatched() throws Exception {
        List<DetectedFrame> withGap = new java.util.ArrayList<>(frames);
        for (int i = 70; i < 73; i++) {
            DetectedFrame f = frames.get(i);
            withGap.set(i, DetectedFrame.dropped(new io.videoworld.core.SampledFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(),
                    f.eventTimeMs(), false, false, new byte[0], true), "cpu"));
        }
        feed(withGap);
        List<TrackDoc> gapped = List.copyOf(docs());
        assertThat(gapped).isNotEmpty();
        // No track saw the dropped samples, and the gap (3 samples, well inside vw.track.lost) broke no track.
        assertThat(gapped).allMatch(d -> d.timeline().stream().noneMatch(p -> p.frameIndex() >= 70 && p.frameIndex() < 73));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        close();
        open();
        feed(frames);
        long whole = docs().stream().map(TrackDoc::trackNumber).distinct().count();
        assertThat(gapped.stream().map(TrackDoc::trackNumber).distinct().count()).isEqualTo(whole);
    }

    @Test
    void aSkippedSampleCountsAndMovesTheTracksOn() {
        ByteTracker t = new ByteTracker(TrackerParams.defaults(30, 90), 1L);
        t.update(frames.get(0));
        t.update(frames.get(1));
        DetectedFrame f = frames.get(2);
        t.skip(DetectedFrame.dropped(new io.videoworld.core.SampledFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(),
                false, false, new byte[0], true), "cpu"));
        assertThat(t.samples()).isEqualTo(3);
        assertThat(t.lastPtsMs()).isEqualTo(f.ptsMs());
    }
}
