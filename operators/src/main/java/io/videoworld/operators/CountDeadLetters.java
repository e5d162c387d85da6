package io.videoworld.operators;

import io.videoworld.core.DeadLetter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/**
 * The one place every dead letter passes before the dead-letter topic, whatever stage refused
 * it, so {@code vwDeadLetters} counts them all (and {@code /health} can read one number).
 */
public final class CountDeadLetters extends RichMapFunction<DeadLetter, DeadLetter> {
    private transient Counter count;

    @Override
    public void open(OpenContext ctx) {
        count = getRuntimeContext().getMetricGroup().counter("vwDeadLetters");
    }

    @Override
    public DeadLetter map(DeadLetter d) {
        count.inc();
        return d;
    }
}
