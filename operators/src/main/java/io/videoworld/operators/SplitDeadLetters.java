package io.videoworld.operators;

import io.videoworld.core.WithDeadLetter;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * After an async operator: passes each result on and sends the dead letter it carries, if any,
 * to {@link DeadLetters#TAG}. Stateless.
 *
 * @param <R> the async operator's output
 * @param <T> the result passed on
 */
public final class SplitDeadLetters<R extends WithDeadLetter<T>, T> extends GuardedProcessFunction<R, T> {
    /** @param stage the async stage whose results this splits, named as its own stage */
    public SplitDeadLetters(String stage) {
        super(stage + "-dead-letters");
    }

    @Override
    protected void process(R in, Context ctx, Collector<T> out) {
        if (in.deadLetter() != null) {
            ctx.output(DeadLetters.TAG, in.deadLetter());
        }
        if (in.value() != null) {
            out.collect(in.value());
        }
    }
}
