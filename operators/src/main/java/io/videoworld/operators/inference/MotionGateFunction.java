package io.videoworld.operators.inference;

import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.engines.gates.MotionGate;
import io.videoworld.engines.gates.MotionMemory;
import io.videoworld.core.SampledFrame;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The motion gate ({@link MotionGate}) in front of the detector, keyed by stream: marks a sample
 * {@link SampledFrame#carry()} when nothing moved since the stream's last detected sample, whose
 * thumbnail is Flink keyed state ({@link MotionMemory}), so a restarted job gates as a
 * failure-free one. The decision needs only thumbnails, never detections, which is why it can run
 * before the (batched, asynchronous) detector; {@link CarryDetections} after it fills the carried
 * samples in. A sample {@code idleMs} or more after the remembered one (by the stream's own
 * clock) is detected, so the decision never depends on when a timer fires; the memory is cleared
 * by the stream's last sample or an event-time timer {@code forgetMs} after its latest. A sample that does not decode passes unmarked (the detector dead-letters it).
 * Metric: {@code vwDetectSkipped} (detector calls saved).
 */
public final class MotionGateFunction extends GuardedKeyedProcessFunction<String, SampledFrame, SampledFrame> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "motion-gate";
    private final MotionGate.Settings settings;
    private final long idleMs;
    private final long forgetMs;
    private transient MotionGate gate;
    private transient ValueState<MotionMemory> memory;
    private transient ValueState<Long> timer;
    private transient Counter skipped;

    /** @param forgetMs event time after a stream's latest sample when its memory is dropped (at least {@code idleMs}) */
    public MotionGateFunction(MotionGate.Settings settings, long idleMs, long forgetMs) {
        super(STAGE);
        this.settings = settings;
        this.idleMs = idleMs;
        this.forgetMs = Math.max(idleMs, forgetMs);
    }

    @Override
    public void open(OpenContext ctx) {
        gate = new MotionGate(settings);
        memory = getRuntimeContext().getState(new ValueStateDescriptor<>("motion-gate", TypeInformation.of(MotionMemory.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("motion-gate-timer", Types.LONG));
        skipped = getRuntimeContext().getMetricGroup().counter("vwDetectSkipped");
    }

    @Override
    protected void process(SampledFrame f, Context ctx, Collector<SampledFrame> out) throws Exception {
        GreyFrame thumb;
        try {
            thumb = GreyFrame.thumbnail(DecodedImage.decode(f.jpeg()), MotionGate.THUMB);
        } catch (RuntimeException e) {
            out.collect(f);
            return;
        }
        MotionMemory prev = memory.value();
        if (prev != null && f.eventTimeMs() - prev.eventTimeMs() >= idleMs) {
            prev = null;
        }
        boolean detect = gate.detect(prev, thumb);
        if (!detect) {
            skipped.inc();
        }
        out.collect(detect ? f : new SampledFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), f.last(), true, f.jpeg(), f.live()));
        if (f.last()) {
            memory.clear();
            IdleTimer.cancel(timer, ctx.timerService());
            return;
        }
        memory.update(MotionGate.next(prev, thumb, detect, f.eventTimeMs()));
        IdleTimer.rearm(timer, ctx.timerService(), f.eventTimeMs(), forgetMs);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<SampledFrame> out) {
        memory.clear();
        timer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        memory.clear();
    }
}
