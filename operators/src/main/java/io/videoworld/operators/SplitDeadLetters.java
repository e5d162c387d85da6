package io.videoworld.operators;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.WithDeadLetter;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * After an async operator: passes each result on and sends the dead letter it carries, if any,
 * to the side output {@link #DEAD_LETTERS}. Stateless.
 *
 * @param <R> the async operator's output
 * @param <T> the result passed on
 */
public final class SplitDeadLetters<R extends WithDeadLetter<T>, T> extends ProcessFunction<R, T> {
    /** Dead letters of frames an inference operator could not decode. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("inference-dead-letters", TypeInformation.of(DeadLetter.class));

    @Override
    public void processElement(R in, Context ctx, Collector<T> out) {
        if (in.deadLetter() != null) {
            ctx.output(DEAD_LETTERS, in.deadLetter());
        }
        if (in.value() != null) {
            out.collect(in.value());
        }
    }
}
