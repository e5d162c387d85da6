package io.videoworld.operators.deadletters;

import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A stateless stage whose records that make it throw become dead letters on {@link DeadLetters#TAG}
 * while the job goes on; systemic failures still fail the task.
 *
 * @param <I> input
 * @param <O> output
 */
public abstract class GuardedProcessFunction<I, O> extends ProcessFunction<I, O> implements Guarded {
    private final String stage;

    protected GuardedProcessFunction(String stage) {
        this.stage = stage;
    }

    @Override
    public final String stage() {
        return stage;
    }

    /** The stage's work on one record. */
    protected abstract void process(I in, Context ctx, Collector<O> out) throws Exception;

    @Override
    public final void processElement(I in, Context ctx, Collector<O> out) throws Exception {
        try {
            process(in, ctx, out);
        } catch (Exception | StackOverflowError e) {
            ctx.output(DeadLetters.TAG, DeadLetters.of(stage, in, e, ctx.timestamp() == null ? 0 : ctx.timestamp()));
        }
    }
}
