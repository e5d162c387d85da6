package io.videoworld.operators.tracking;

import io.videoworld.core.FeatureBatch;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SampledFrame;
import java.util.List;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Picks frames for detection at a fixed rate without state: a frame is taken when it is the first
 * of its {@code 1 / fps} slot of presentation time, judged against the frame before it in the
 * batch (or, for a batch's first frame, one frame interval earlier). The final frame of a
 * stream's last batch is always taken, so the tracker learns the stream has ended. It reads the
 * frames after feature extraction, so a frame that did not decode there is not sampled (and not
 * dead-lettered a second time by the detector).
 */
public final class SampleFrames implements FlatMapFunction<FeatureBatch, SampledFrame> {
    private final double fps;

    public SampleFrames(double fps) {
        if (!(fps > 0)) {
            throw new IllegalArgumentException("vw.detect.fps must be > 0, was " + fps);
        }
        this.fps = fps;
    }

    @Override
    public void flatMap(FeatureBatch batch, Collector<SampledFrame> out) {
        List<FrameFeatures> frames = batch.frames();
        for (int i = 0; i < frames.size(); i++) {
            FrameFeatures f = frames.get(i);
            long previous;
            if (i > 0) {
                previous = frames.get(i - 1).ptsMs();
            } else {
                long interval = frames.size() > 1 ? frames.get(1).ptsMs() - f.ptsMs() : Math.round(1000 / batch.sampleFps());
                previous = f.ptsMs() - Math.max(1, interval);
            }
            boolean last = batch.last() && i == frames.size() - 1;
            if (last || slot(f.ptsMs()) != slot(previous)) {
                out.collect(new SampledFrame(batch.streamId(), batch.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), last, false, f.jpeg(),
                        batch.live()));
            }
        }
    }

    private long slot(long ptsMs) {
        return (long) Math.floor(ptsMs * fps / 1000.0);
    }
}
