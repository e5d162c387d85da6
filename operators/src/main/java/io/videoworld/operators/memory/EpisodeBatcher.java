package io.videoworld.operators.memory;

import io.videoworld.engines.memory.BatcherState;
import io.videoworld.engines.memory.EpisodeBatching;
import io.videoworld.engines.memory.EpisodePolicy;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Observation;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.TimerService;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Cuts each stream into memory batches (keyed by stream) and says how each relates to the ones
 * before it ({@link EpisodePolicy}). A batch never crosses a shot boundary or a change of the app
 * named in the window title, and lasts at most {@code maxBatchMs} (20 s: 20 frames at MIRIX's
 * 1 fps); fixed-size batches alone would place every boundary up to 20 s off.
 *
 * <p>Evidence is complete before a batch is cut, without watching the clock: a closed shot is
 * taken once every keyframe it lists has its perception (inference finishes out of order), in
 * stream order; the still-open shot of a live stream is cut from its periodic keyframes' perception
 * once the event-time watermark has passed them by {@code graceMs} (the shot detector's look-ahead),
 * so a camera that never cuts still gets events every {@code maxBatchMs}. State: pending shots,
 * perceptions not yet batched, recent tracks, the last ten batch digests and stretches of speech
 * not yet in a batch ({@link EpisodeBatching} says which batch takes them); a new push resets it
 * and an event-time timer {@code idleMs} after the latest observation settles the rest and clears it.
 * The decisions are {@link EpisodeBatching}'s; this class stores the state and sets the timers.
 */
public final class EpisodeBatcher extends GuardedKeyedProcessFunction<String, Observation, EpisodeBatch> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "episode-batcher";
    static final int RECENT = EpisodeBatching.RECENT;

    private final EpisodeBatching engine;
    private transient ValueState<BatcherState> state;

    /**
     * @param graceMs how far behind the watermark a perception must be before the open shot is cut at it
     * @param expectPerception whether keyframes get perception (when off, shots are taken as soon as they close)
     */
    public EpisodeBatcher(long maxBatchMs, long idleMs, long graceMs, boolean expectPerception) {
        this(maxBatchMs, idleMs, graceMs, expectPerception, 0);
    }

    /** @param screenEveryMs how often the shots read a screen that does not change (where an activity starts between two reads) */
    public EpisodeBatcher(long maxBatchMs, long idleMs, long graceMs, boolean expectPerception, long screenEveryMs) {
        super(STAGE);
        this.engine = new EpisodeBatching(maxBatchMs, idleMs, graceMs, expectPerception, screenEveryMs);
    }

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("episode-batcher", TypeInformation.of(BatcherState.class)));
    }

    @Override
    protected void process(Observation o, Context ctx, Collector<EpisodeBatch> out) throws Exception {
        BatcherState s = state.value();
        if (s != null && o.epochMs() < s.epochMs()) {
            return;
        }
        if (s != null && o.epochMs() > s.epochMs()) {
            // A new push of the stream: the old one is settled first.
            apply(s, engine.finish(s), ctx.timerService(), out);
            s = null;
        }
        apply(s, engine.observe(s, o, ctx.timerService().currentWatermark()), ctx.timerService(), out);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<EpisodeBatch> out) throws Exception {
        BatcherState s = state.value();
        if (s == null) {
            return;
        }
        // The timer that fired is gone: forget it so it is not deleted again.
        boolean idle = timestamp == s.idleTimerAt();
        BatcherState before = new BatcherState(s.epochMs(), s.sourceKind(), s.nextBatch(), s.emittedUntilPts(), s.pending(), s.orphans(),
                s.tracks(), s.recent(), s.lastEventTimeMs(), idle ? -1 : s.idleTimerAt(), idle ? s.openTimerAt() : -1, s.tasks(),
                s.lastKeyframe(), s.views(), s.said());
        apply(before, engine.timer(s, timestamp), ctx.timerService(), out);
    }

    /** Emits the step's batches, moves the timers from what {@code before} set to what the step wants, and stores or clears the state. */
    private void apply(BatcherState before, EpisodeBatching.Step step, TimerService timers, Collector<EpisodeBatch> out) throws Exception {
        step.batches().forEach(out::collect);
        BatcherState after = step.state();
        move(before == null ? -1 : before.idleTimerAt(), after == null ? -1 : after.idleTimerAt(), timers);
        move(before == null ? -1 : before.openTimerAt(), after == null ? -1 : after.openTimerAt(), timers);
        if (after == null) {
            state.clear();
        } else {
            state.update(after);
        }
    }

    private static void move(long from, long to, TimerService timers) {
        if (from == to) {
            return;
        }
        if (from >= 0) {
            timers.deleteEventTimeTimer(from);
        }
        if (to >= 0) {
            timers.registerEventTimeTimer(to);
        }
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        BatcherState s = state.value();
        if (s != null) {
            move(s.idleTimerAt(), -1, ctx.timerService());
            move(s.openTimerAt(), -1, ctx.timerService());
        }
        state.clear();
    }
}
