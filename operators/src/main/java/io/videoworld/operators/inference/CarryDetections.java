package io.videoworld.operators.inference;

import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * After the detector, keyed by stream, in sample order: a sample the motion gate let through
 * without detection ({@link DetectionFunction} leaves its detections null) gets the detections of
 * the stream's last detected sample, which are Flink keyed state; when that sample's detection
 * failed, the carried one is a failure too (width 0, which the tracker skips), never an empty
 * result. The state is cleared by the stream's last sample or an event-time timer {@code forgetMs}
 * after its latest: only a clearing path, set long, because the motion gate marks a sample carried
 * only within its idle time of a detected one, and a timer fired early (a watermark that overtook
 * a restarted stream's samples) must not turn a carried sample into a failure.
 */
public final class CarryDetections extends GuardedKeyedProcessFunction<String, DetectedFrame, DetectedFrame> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "carry-detections";
    private final long forgetMs;
    private transient ValueState<List<Detection>> last;
    private transient ValueState<Long> timer;

    public CarryDetections(long forgetMs) {
        super(STAGE);
        this.forgetMs = forgetMs;
    }

    @Override
    public void open(OpenContext ctx) {
        last = getRuntimeContext().getState(new ValueStateDescriptor<>("carried-detections", Types.LIST(TypeInformation.of(Detection.class))));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("carried-detections-timer", Types.LONG));
    }

    @Override
    protected void process(DetectedFrame f, Context ctx, Collector<DetectedFrame> out) throws Exception {
        if (f.detections() != null && f.width() > 0) {
            last.update(f.detections());
            out.collect(f);
        } else if (f.wasDropped()) {
            out.collect(f); // skipped as stale: the reference stays for the samples after it
        } else if (f.width() == 0) {
            last.clear(); // the reference failed: what is carried from it fails too
            out.collect(f);
        } else {
            List<Detection> kept = last.value();
            out.collect(new DetectedFrame(f.streamId(), f.epochMs(), f.frameIndex(), f.ptsMs(), f.eventTimeMs(), kept == null ? 0 : f.width(),
                    kept == null ? 0 : f.height(), f.last(), kept == null ? List.of() : kept, f.frameHistogram(), f.device()));
        }
        if (f.last()) {
            last.clear();
            IdleTimer.cancel(timer, ctx.timerService());
            return;
        }
        IdleTimer.rearm(timer, ctx.timerService(), f.eventTimeMs(), forgetMs);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<DetectedFrame> out) {
        last.clear();
        timer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        last.clear();
    }
}
