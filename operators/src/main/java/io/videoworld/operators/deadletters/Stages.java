package io.videoworld.operators.deadletters;

import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.util.Collector;

/**
 * The job's plain maps, flat maps and filters as guarded stages, so a record that makes one throw
 * is dead-lettered like anywhere else. The functions must not be rich: their lifecycle is not
 * forwarded.
 */
public final class Stages {
    private Stages() {}

    /** {@code fn} as a guarded stage named {@code stage}. */
    public static <I, O> GuardedProcessFunction<I, O> map(String stage, MapFunction<I, O> fn) {
        return new GuardedProcessFunction<>(stage) {
            @Override
            protected void process(I in, Context ctx, Collector<O> out) throws Exception {
                out.collect(fn.map(in));
            }
        };
    }

    /** {@code fn} as a guarded stage named {@code stage}. */
    public static <I, O> GuardedProcessFunction<I, O> flatMap(String stage, FlatMapFunction<I, O> fn) {
        return new GuardedProcessFunction<>(stage) {
            @Override
            protected void process(I in, Context ctx, Collector<O> out) throws Exception {
                fn.flatMap(in, out);
            }
        };
    }

    /** {@code fn} as a guarded stage named {@code stage}. */
    public static <T> GuardedProcessFunction<T, T> filter(String stage, FilterFunction<T> fn) {
        return new GuardedProcessFunction<>(stage) {
            @Override
            protected void process(T in, Context ctx, Collector<T> out) throws Exception {
                if (fn.filter(in)) {
                    out.collect(in);
                }
            }
        };
    }
}
