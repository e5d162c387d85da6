package io.videoworld.operators.inference;

import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.sampling.QueuedKeyframe;
import io.videoworld.core.Keyframe;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stamps each keyframe as the shot detector lets it go (chained to it, on its thread) with the time
 * its wait counts from, for {@link LiveShedding}: now, or the capture time of the frame batch whose
 * arrival let it go when that is earlier. When the job is back-pressured, frames queue upstream of
 * the shot detector (source, features, network buffers); a stamp taken only at emission would not
 * see that wait, so perception would read keyframes that are already stale and keep the whole job
 * behind. The keyframe's own capture time is not used: it also counts the frames the shot detector
 * waits for before it decides, which is design, not backlog.
 */
public final class StampKeyframes extends GuardedProcessFunction<Keyframe, QueuedKeyframe> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "stamp-keyframes";
    private final boolean fromCapture;

    /** {@code fromCapture} false stamps the emission time only (the wait upstream not counted). */
    public StampKeyframes(boolean fromCapture) {
        super(STAGE);
        this.fromCapture = fromCapture;
    }

    @Override
    protected void process(Keyframe k, Context ctx, Collector<QueuedKeyframe> out) {
        long now = System.currentTimeMillis();
        // The record's timestamp is the event time of the batch (or timer) that made the shot detector emit;
        // for a live source that is the wall-clock capture time of its first frame.
        Long trigger = ctx.timestamp();
        out.collect(new QueuedKeyframe(k, trigger == null || !fromCapture ? now : Math.min(now, trigger)));
    }
}
