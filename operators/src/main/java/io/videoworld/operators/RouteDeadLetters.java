package io.videoworld.operators;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Ingested;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Splits decoded records into good batches (main output) and dead letters (side output), and
 * counts both for the dashboard. Stateless, so it runs at the source's parallelism.
 */
public final class RouteDeadLetters extends ProcessFunction<Ingested, FrameBatch> {
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private transient Counter framesIn;
    private transient Counter batchesIn;
    private transient Counter batchesToDlq;

    @Override
    public void open(OpenContext ctx) {
        var metrics = getRuntimeContext().getMetricGroup();
        framesIn = metrics.counter("vwFramesIn");
        batchesIn = metrics.counter("vwBatchesIn");
        batchesToDlq = metrics.counter("vwBatchesToDlq");
    }

    @Override
    public void processElement(Ingested in, Context ctx, Collector<FrameBatch> out) {
        if (in.batch() != null) {
            batchesIn.inc();
            framesIn.inc(in.batch().frames().size());
            out.collect(in.batch());
        } else {
            batchesToDlq.inc();
            ctx.output(DEAD_LETTERS, in.deadLetter());
        }
    }
}
