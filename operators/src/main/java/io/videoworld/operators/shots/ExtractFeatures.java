package io.videoworld.operators.shots;

import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FeatureBatch;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceInfo;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

/**
 * Stateless and parallel: a batch's frames become their features, computed once for every
 * detector. This is the first place pixels are decoded, so a frame that passed the edge's
 * checks but still does not decode becomes a dead letter here ({@link DeadLetters#TAG}) and the
 * rest of its batch goes on.
 */
public final class ExtractFeatures extends GuardedProcessFunction<FrameBatch, FeatureBatch> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "frame-features";

    private transient Counter frames;

    public ExtractFeatures() {
        super(STAGE);
    }

    @Override
    public void open(OpenContext ctx) {
        frames = getRuntimeContext().getMetricGroup().counter("vwFeatureFrames");
    }

    @Override
    protected void process(FrameBatch batch, Context ctx, Collector<FeatureBatch> out) {
        List<FrameFeatures> features = new ArrayList<>(batch.frames().size());
        for (Frame f : batch.frames()) {
            try {
                features.add(FeatureExtractor.extract(batch, f));
            } catch (RuntimeException e) {
                DeadLetters.rethrowUnlessContent(e);
                ctx.output(DeadLetters.TAG, DeadLetter.ofFrame(STAGE, "frame does not decode: " + e.getMessage(), batch.streamId(), f.index(),
                        batch.eventTimeMs(f), f.jpeg()));
            }
        }
        frames.inc(features.size());
        if (features.isEmpty() && !batch.last()) {
            return;
        }
        double fps = batch.source() != null && batch.source().sampleFps() > 0 ? batch.source().sampleFps() : 25;
        out.collect(new FeatureBatch(batch.streamId(), batch.epochMs(), fps, batch.last(), features, SourceInfo.isLive(batch.source())));
    }
}
