package io.videoworld.operators.deadletters;

import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A keyed stage whose records (and timers) that make it throw become dead letters on
 * {@link DeadLetters#TAG} while the job goes on; systemic failures still fail the task. A timer
 * that throws is dead-lettered under its key, and the key's state is then cleared through
 * {@link #forget}, since state a timer could not settle would only fail again.
 *
 * @param <K> key
 * @param <I> input
 * @param <O> output
 */
public abstract class GuardedKeyedProcessFunction<K, I, O> extends KeyedProcessFunction<K, I, O> implements Guarded {
    private final String stage;

    protected GuardedKeyedProcessFunction(String stage) {
        this.stage = stage;
    }

    @Override
    public final String stage() {
        return stage;
    }

    /** The stage's work on one record. */
    protected abstract void process(I in, Context ctx, Collector<O> out) throws Exception;

    /** The stage's work when a timer fires; none by default. */
    protected void timer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {}

    /** Clears the current key's state (and timers) after one of its timers failed. */
    protected abstract void forget(OnTimerContext ctx) throws Exception;

    @Override
    public final void processElement(I in, Context ctx, Collector<O> out) throws Exception {
        try {
            process(in, ctx, out);
        } catch (Exception | StackOverflowError e) {
            ctx.output(DeadLetters.TAG, DeadLetters.of(stage, in, e, ctx.timestamp() == null ? 0 : ctx.timestamp()));
        }
    }

    @Override
    public final void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {
        try {
            timer(timestamp, ctx, out);
        } catch (Exception | StackOverflowError e) {
            ctx.output(DeadLetters.TAG, DeadLetters.of(stage, new TimerFired(String.valueOf(ctx.getCurrentKey()), timestamp), e, timestamp));
            forget(ctx);
        }
    }
}
