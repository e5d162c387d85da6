package io.videoworld.operators.shots;

import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotState;
import io.videoworld.engines.shots.ShotTracker;
import io.videoworld.core.FeatureBatch;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Per stream: runs a {@link ShotTracker} over the stream's frames, emitting shots and scenes
 * (main output) and keyframes to store (side output). The open shot is closed by the stream's
 * last batch or, for live streams, by an event-time timer {@code idleGapMs} after the latest
 * frame; either way all state is cleared. A batch from a new push of the same stream first closes
 * what the old push left open.
 */
public final class ShotDetector extends GuardedKeyedProcessFunction<String, FeatureBatch, Segment> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "shot-detector";
    public static final OutputTag<Keyframe> KEYFRAMES = new OutputTag<>("keyframes", TypeInformation.of(Keyframe.class));

    private final ShotParams params;
    private final long idleGapMs;
    private transient ValueState<ShotState> state;
    private transient ValueState<Long> timer;
    private transient Counter shots;
    private transient Counter duplicates;

    public ShotDetector(ShotParams params, long idleGapMs) {
        super(STAGE);
        this.params = params;
        this.idleGapMs = idleGapMs;
    }

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("shot-state", TypeInformation.of(ShotState.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("shot-timer", Types.LONG));
        shots = getRuntimeContext().getMetricGroup().counter("vwShots");
        duplicates = getRuntimeContext().getMetricGroup().counter("vwScreenDuplicatesDropped");
    }

    @Override
    protected void process(FeatureBatch batch, Context ctx, Collector<Segment> out) throws Exception {
        ShotTracker.Output output = output(ctx, out);
        ShotState saved = state.value();
        ShotTracker tracker;
        if (saved != null && !saved.frames().isEmpty() && saved.frames().get(0).epochMs() != batch.epochMs()) {
            ShotTracker.restore(params, saved).finish(output);
            saved = null;
        }
        if (batch.frames().isEmpty() && saved == null) {
            return; // every frame of a stream's first batch failed to decode: nothing to track yet
        }
        tracker = saved == null ? ShotTracker.start(params, batch.sampleFps()) : ShotTracker.restore(params, saved);
        for (FrameFeatures f : batch.frames()) {
            tracker.accept(f, output);
        }
        duplicates.inc(tracker.duplicatesDropped());
        Long pendingTimer = timer.value();
        if (pendingTimer != null) {
            ctx.timerService().deleteEventTimeTimer(pendingTimer);
        }
        if (batch.last()) {
            tracker.finish(output);
            state.clear();
            timer.clear();
            return;
        }
        state.update(tracker.state());
        long at = batch.lastEventTimeMs() + idleGapMs;
        ctx.timerService().registerEventTimeTimer(at);
        timer.update(at);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<Segment> out) throws Exception {
        ShotState saved = state.value();
        if (saved != null) {
            ShotTracker.restore(params, saved).finish(output(ctx, out));
        }
        state.clear();
        timer.clear();
    }

    private ShotTracker.Output output(Context ctx, Collector<Segment> out) {
        return new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe keyframe) {
                ctx.output(KEYFRAMES, keyframe);
            }

            @Override
            public void segment(Segment segment) {
                if (Segment.SHOT.equals(segment.kind())) {
                    shots.inc();
                }
                out.collect(segment);
            }
        };
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        state.clear();
    }
}
