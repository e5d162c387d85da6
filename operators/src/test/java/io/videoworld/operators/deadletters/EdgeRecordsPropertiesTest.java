package io.videoworld.operators.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FeatureBatch;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.FrameLimits;
import io.videoworld.core.SampledFrame;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import io.videoworld.operators.StreamCatalog;
import io.videoworld.operators.shots.ExtractFeatures;
import io.videoworld.operators.shots.ShotDetector;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.operators.tracking.SampleFrames;
import io.videoworld.testkit.EdgeRecords;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

/**
 * Records valid at the edge, with extreme values in every field, through the frame path's stages
 * and document builders: none of them throws (no dead letter for a valid record), every frame gets
 * its document, and every document version stays exact. The frame index near 2^62 that once put
 * the job in a restart loop is refused at the edge now.
 */
class EdgeRecordsPropertiesTest {

    @Provide
    Arbitrary<FrameBatch> edgeBatches() {
        return EdgeRecords.batches();
    }

    @Property(tries = 80)
    void everyGeneratedBatchPassesTheEdge(@ForAll("edgeBatches") FrameBatch b) throws Exception {
        FrameBatch back = FrameBatchCodec.decode(FrameBatchCodec.encode(b));
        assertThat(back.frames()).hasSameSizeAs(b.frames());
        assertThat(back.seq()).isEqualTo(b.seq());
    }

    @Property(tries = 80)
    void theFramePathTakesEveryEdgeValidBatchWithoutADeadLetter(@ForAll("edgeBatches") FrameBatch b) throws Exception {
        List<DeadLetter> dead = new ArrayList<>();

        var catalog = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new StreamCatalog(60_000)),
                FrameBatch::streamId, Types.STRING);
        catalog.open();
        catalog.processElement(new StreamRecord<>(b, b.eventTimeMs()));
        List<FrameDoc> frames = catalog.extractOutputValues();
        List<VideoDoc> videos = catalog.getSideOutput(StreamCatalog.VIDEOS).stream().map(StreamRecord::getValue).toList();
        dead.addAll(letters(catalog.getSideOutput(DeadLetters.TAG)));
        catalog.processWatermark(Long.MAX_VALUE);
        dead.addAll(letters(catalog.getSideOutput(DeadLetters.TAG)));
        assertThat(catalog.numKeyedStateEntries()).as("stream state cleared by its last batch or its idle timer").isZero();
        catalog.close();

        var features = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(new ExtractFeatures()));
        features.open();
        features.processElement(new StreamRecord<>(b, b.eventTimeMs()));
        List<FeatureBatch> featureBatches = features.extractOutputValues();
        dead.addAll(letters(features.getSideOutput(DeadLetters.TAG)));
        features.close();

        var shots = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new ShotDetector(ShotParams.defaults(), 5_000)),
                FeatureBatch::streamId, Types.STRING);
        shots.open();
        var samples = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(Stages.flatMap("sample-frames", new SampleFrames(5))));
        samples.open();
        for (FeatureBatch fb : featureBatches) {
            shots.processElement(new StreamRecord<>(fb, b.eventTimeMs()));
            samples.processElement(new StreamRecord<>(fb, b.eventTimeMs()));
        }
        shots.processWatermark(Long.MAX_VALUE);
        List<Segment> segments = shots.extractOutputValues();
        dead.addAll(letters(shots.getSideOutput(DeadLetters.TAG)));
        dead.addAll(letters(samples.getSideOutput(DeadLetters.TAG)));
        List<SampledFrame> sampled = samples.extractOutputValues();
        assertThat(shots.numKeyedStateEntries()).isZero();
        assertThat(shots.numEventTimeTimers()).isZero();
        shots.close();
        samples.close();

        assertThat(dead).as("dead letters for a batch the edge accepted").isEmpty();
        assertThat(frames).as("a document per frame").hasSameSizeAs(b.frames());
        assertThat(featureBatches).hasSize(1);
        assertThat(sampled).allMatch(s -> s.frameIndex() <= FrameLimits.MAX_FRAME_INDEX);
        List<EsWrite> writes = new ArrayList<>();
        frames.forEach(f -> writes.add(EsDocuments.frame(f)));
        videos.forEach(v -> writes.add(EsDocuments.video(v)));
        for (Segment s : segments) {
            writes.add(EsDocuments.segment(s));
            writes.addAll(EsDocuments.keyframes(s));
        }
        long floor = Math.max(0, b.epochMs() / 1000) * FrameLimits.MAX_PROGRESS;
        assertThat(writes).allSatisfy(w -> assertThat(w.version()).as("version of %s", w.id()).isBetween(floor, floor + FrameLimits.MAX_PROGRESS - 1));
    }

    private static List<DeadLetter> letters(java.util.Collection<StreamRecord<DeadLetter>> out) {
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
    }
}
