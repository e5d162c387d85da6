package io.videoworld.operators.tracking;

import io.videoworld.engines.tracking.ByteTracker;
import io.videoworld.engines.tracking.LiveTrack;
import io.videoworld.engines.tracking.TrackerParams;
import io.videoworld.engines.tracking.TrackerState;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.TrackDoc;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimerService;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import org.apache.flink.util.Collector;

/**
 * Tracks objects per stream (keyed by stream id) with {@link ByteTracker}. A track's document is
 * written when it is confirmed, every {@code emitEvery} matches while it lives (so a live stream
 * shows it), and a last time when it dies. State is cleared when the stream's last sample arrives
 * or a new push of the stream starts, both of which write the remaining tracks as dead.
 *
 * <p>A stream that goes quiet is judged on its own clock, so that the output does not depend on
 * when the watermark arrives: a sample {@code idleTimeoutMs} or more after the stream's previous
 * one ends every track first (numbering goes on, so no id is reused). The event-time timer at
 * {@code idleTimeoutMs} after the latest sample only writes the tracks as dead for readers of a
 * live stream; it keeps the tracker, because after a restart the watermark can overtake a stream's
 * replayed samples, and a sample that then arrives within the idle time continues its tracks
 * (their later documents replace the early "dead" ones). A second timer {@code forgetAfterMs}
 * after the latest sample clears the state. Samples must arrive in order (the job uses ordered
 * async I/O); a sample at or before the latest one is dropped.
 */
public final class TrackerOperator extends GuardedKeyedProcessFunction<String, DetectedFrame, TrackDoc> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "tracker";
    private final TrackerParams params;
    private final long idleTimeoutMs;
    private final long forgetAfterMs;
    private final int emitEvery;
    private transient ValueState<TrackerState> state;
    private transient ValueState<Long> timer;
    private transient Counter born;
    private transient Counter reidentified;

    /** @param forgetAfterMs event time after a stream's latest sample when its tracker is dropped (at least {@code idleTimeoutMs}) */
    public TrackerOperator(TrackerParams params, long idleTimeoutMs, long forgetAfterMs, int emitEvery) {
        super(STAGE);
        this.params = params;
        this.idleTimeoutMs = idleTimeoutMs;
        this.forgetAfterMs = Math.max(idleTimeoutMs, forgetAfterMs);
        this.emitEvery = Math.max(1, emitEvery);
    }

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("tracker", TypeInformation.of(TrackerState.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("tracker-timer", Types.LONG));
        born = getRuntimeContext().getMetricGroup().counter("vwTracksBorn");
        reidentified = getRuntimeContext().getMetricGroup().counter("vwTracksReidentified");
    }

    @Override
    protected void process(DetectedFrame f, Context ctx, Collector<TrackDoc> out) throws Exception {
        TrackerState s = state.value();
        if (s != null && f.epochMs() < s.epochMs()) {
            return;
        }
        if (s != null && f.epochMs() > s.epochMs()) {
            flush(f.streamId(), s, out, ctx.timerService());
            s = null;
        }
        if (s != null && s.samples() > 0 && f.ptsMs() <= s.lastPtsMs()) {
            return;
        }
        ByteTracker t = s == null ? new ByteTracker(params, f.epochMs()) : ByteTracker.restore(params, s);
        if (s != null && s.samples() > 0 && f.eventTimeMs() - s.lastEventTimeMs() >= idleTimeoutMs) {
            // The stream was quiet for the idle time by its own clock: its tracks ended then, whether or not the timer fired.
            for (LiveTrack l : t.finish()) {
                out.collect(t.doc(f.streamId(), l, false));
            }
        }
        if (f.wasDropped()) {
            // The detector skipped this live sample as stale: tracks move on over the gap (predicted, aged), none is matched.
            t.skip(f);
        } else if (f.width() > 0) {
            ByteTracker.Step step = t.update(f);
            Set<LiveTrack> written = new HashSet<>();
            for (LiveTrack l : step.born()) {
                born.inc();
                out.collect(t.doc(f.streamId(), l, true));
                written.add(l);
            }
            for (LiveTrack l : step.online()) {
                if (!written.contains(l) && l.hits() % emitEvery == 0) {
                    out.collect(t.doc(f.streamId(), l, true));
                }
            }
            reidentified.inc(step.reidentified().size());
            for (LiveTrack l : step.ended()) {
                out.collect(t.doc(f.streamId(), l, false));
            }
        }
        if (f.last()) {
            flush(f.streamId(), t.snapshot(), out, ctx.timerService());
            return;
        }
        state.update(t.snapshot());
        Long previous = timer.value();
        if (previous != null) {
            ctx.timerService().deleteEventTimeTimer(previous);
        }
        long at = f.eventTimeMs() + idleTimeoutMs;
        ctx.timerService().registerEventTimeTimer(at);
        timer.update(at);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<TrackDoc> out) throws Exception {
        TrackerState s = state.value();
        if (s == null) {
            timer.clear();
            return;
        }
        long forgetAt = s.lastEventTimeMs() + forgetAfterMs;
        if (timestamp >= forgetAt) {
            if (forgetAfterMs > idleTimeoutMs) {
                state.clear(); // the idle timer has already written its tracks as dead
                timer.clear();
            } else {
                flush(ctx.getCurrentKey(), s, out, ctx.timerService());
            }
            return;
        }
        // Quiet for the idle time: readers see the tracks end, but the tracker stays (see the class comment).
        ByteTracker t = ByteTracker.restore(params, s);
        for (LiveTrack l : t.finish()) {
            out.collect(t.doc(ctx.getCurrentKey(), l, false));
        }
        ctx.timerService().registerEventTimeTimer(forgetAt);
        timer.update(forgetAt);
    }

    private void flush(String streamId, TrackerState s, Collector<TrackDoc> out, TimerService timers) throws Exception {
        ByteTracker t = ByteTracker.restore(params, s);
        for (LiveTrack l : t.finish()) {
            out.collect(t.doc(streamId, l, false));
        }
        Long pending = timer.value();
        if (pending != null) {
            timers.deleteEventTimeTimer(pending);
        }
        state.clear();
        timer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        state.clear();
    }
}
