package io.videoworld.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StreamCatalogTest {
    private static final long EPOCH = 1_700_000_000_000L;
    private static final long IDLE = 60_000;
    private static final SourceInfo INFO = new SourceInfo(25, 4_000L, 100L, "mpeg4", true, 2, 48_000, 10_000L, 20L, 1280, 720, 25);

    private KeyedOneInputStreamOperatorTestHarness<String, FrameBatch, FrameDoc> harness;

    @BeforeEach
    void setUp() throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new StreamCatalog(IDLE)),
                FrameBatch::streamId, Types.STRING);
        harness.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private static FrameBatch batch(String stream, long epoch, long seq, int firstIndex, int n) {
        List<Frame> frames = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = firstIndex + i;
            frames.add(new Frame(index, index * 40L, null, 640, 360, new byte[10 + i]));
        }
        return new FrameBatch(stream, SourceKind.VIDEO, "/v/" + stream + ".mp4", seq, epoch, INFO, frames);
    }

    private void send(FrameBatch b) throws Exception {
        harness.processElement(new StreamRecord<>(b, b.eventTimeMs()));
    }

    private List<FrameDoc> frameDocs() {
        return harness.extractOutputValues();
    }

    private List<VideoDoc> videoDocs() {
        return harness.getSideOutput(StreamCatalog.VIDEOS).stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    @Test
    void everyFrameGetsADocumentAndTheStreamItsRunningTotals() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 3));
        send(batch("harbour", EPOCH, 1, 3, 2));

        assertThat(frameDocs()).extracting(FrameDoc::id).containsExactly(
                "harbour:f:0000000000", "harbour:f:0000000001", "harbour:f:0000000002",
                "harbour:f:0000000003", "harbour:f:0000000004");
        FrameDoc fourth = frameDocs().get(3);
        assertThat(fourth.eventTimeMs()).isEqualTo(EPOCH + 120);
        assertThat(fourth.batchSeq()).isEqualTo(1);
        assertThat(fourth.jpegBytes()).isEqualTo(10);

        VideoDoc latest = videoDocs().get(1);
        assertThat(latest.framesIndexed()).isEqualTo(5);
        assertThat(latest.batches()).isEqualTo(2);
        assertThat(latest.firstEventTimeMs()).isEqualTo(EPOCH);
        assertThat(latest.lastEventTimeMs()).isEqualTo(EPOCH + 160);
        assertThat(latest.maxFrameIndex()).isEqualTo(4);
        assertThat(latest.status()).isEqualTo(VideoDoc.LIVE);
        assertThat(latest.source()).isEqualTo(INFO);
    }

    @Test
    void aResentBatchOfTheSamePushIsDropped() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 2));
        send(batch("harbour", EPOCH, 0, 0, 2));
        assertThat(frameDocs()).hasSize(2);
        assertThat(videoDocs()).hasSize(1);
    }

    @Test
    void aNewPushOfTheSameStreamStartsItsTotalsOver() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 4));
        send(batch("harbour", EPOCH + 99_000, 0, 0, 1));
        assertThat(videoDocs().get(1).framesIndexed()).isEqualTo(1);
        assertThat(videoDocs().get(1).epochMs()).isEqualTo(EPOCH + 99_000);
    }

    @Test
    void streamsAreCountedSeparately() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 2));
        send(batch("lobby", EPOCH, 0, 0, 5));
        assertThat(videoDocs()).extracting(VideoDoc::streamId, VideoDoc::framesIndexed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("harbour", 2L), org.assertj.core.groups.Tuple.tuple("lobby", 5L));
    }

    @Test
    void theLastBatchOfAFileEndsTheStreamAndClearsItsState() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 2));
        FrameBatch b = batch("harbour", EPOCH, 1, 2, 1);
        send(new FrameBatch(b.streamId(), b.sourceKind(), b.sourceUri(), b.seq(), b.epochMs(), b.source(), b.frames(), true));
        VideoDoc last = videoDocs().get(1);
        assertThat(last.status()).isEqualTo(VideoDoc.ENDED);
        assertThat(last.framesIndexed()).isEqualTo(3);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aSilentStreamIsMarkedIdleAndLeavesNoStateOrTimers() throws Exception {
        send(batch("harbour", EPOCH, 0, 0, 2));
        send(batch("harbour", EPOCH, 1, 2, 2));
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);

        harness.processWatermark(EPOCH + 120 + IDLE - 1);
        assertThat(videoDocs()).hasSize(2);

        harness.processWatermark(EPOCH + 120 + IDLE);
        VideoDoc last = videoDocs().get(videoDocs().size() - 1);
        assertThat(last.status()).isEqualTo(VideoDoc.IDLE);
        assertThat(last.framesIndexed()).isEqualTo(4);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }
}
