package io.videoworld.operators;

import io.videoworld.core.FrameBatch;
import io.videoworld.core.Ingested;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Splits decoded records into good batches (main output) and dead letters ({@link DeadLetters#TAG}), and
 * counts both for the dashboard. Stateless, so it runs at the source's parallelism.
 */
public final class RouteDeadLetters extends GuardedProcessFunction<Ingested, FrameBatch> {

    private transient Counter framesIn;
    private transient Counter batchesIn;
    private transient Counter batchesToDlq;

    public RouteDeadLetters() {
        super(io.videoworld.core.DeadLetter.INGEST);
    }

    @Override
    public void open(OpenContext ctx) {
        var metrics = getRuntimeContext().getMetricGroup();
        framesIn = metrics.counter("vwFramesIn");
        batchesIn = metrics.counter("vwBatchesIn");
        batchesToDlq = metrics.counter("vwBatchesToDlq");
    }

    @Override
    protected void process(Ingested in, Context ctx, Collector<FrameBatch> out) {
        if (in.batch() != null) {
            batchesIn.inc();
            framesIn.inc(in.batch().frames().size());
            out.collect(in.batch());
        } else {
            batchesToDlq.inc();
            ctx.output(DeadLetters.TAG, in.deadLetter());
        }
    }
}
