package io.videoworld.operators.shots;

import io.videoworld.core.FeatureBatch;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameFeatures;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/** Stateless and parallel: a batch's frames become their features, computed once for every detector. */
public final class ExtractFeatures extends RichMapFunction<FrameBatch, FeatureBatch> {
    private transient Counter frames;

    @Override
    public void open(OpenContext ctx) {
        frames = getRuntimeContext().getMetricGroup().counter("vwFeatureFrames");
    }

    @Override
    public FeatureBatch map(FrameBatch batch) {
        List<FrameFeatures> out = new ArrayList<>(batch.frames().size());
        for (Frame f : batch.frames()) {
            out.add(FeatureExtractor.extract(batch, f));
        }
        frames.inc(out.size());
        double fps = batch.source() != null && batch.source().sampleFps() > 0 ? batch.source().sampleFps() : 25;
        return new FeatureBatch(batch.streamId(), batch.epochMs(), fps, batch.last(), out);
    }
}
