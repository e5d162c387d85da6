package io.videoworld.operators.inference;

import io.videoworld.engines.sampling.MicroBatcher;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import io.videoworld.operators.deadletters.GuardedAsyncFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;

/**
 * The skeleton every model operator shares: Flink async I/O whose requests from all streams on a
 * subtask are micro-batched ({@code maxBatch}, {@code maxWaitMs}) into one worker that owns the
 * models, opened in {@link #openModels} and closed in {@link #closeModels}. A request that fails
 * after the batcher's retries, or times out, completes with the subclass's failure record (never
 * an exception that would fail the job), counted in {@code <prefix>Failures}. Metrics:
 * {@code <prefix>Gpu}, {@code <prefix>BatchSize}, {@code <prefix>BatchMs},
 * {@code <prefix>FramesPerSecond}, {@code <prefix>Timeouts}. A request whose own handling throws
 * (not the models') is dead-lettered by {@link GuardedAsyncFunction}.
 *
 * @param <I> one request (a frame)
 * @param <O> its result
 */
public abstract class BatchedInference<I, O> extends GuardedAsyncFunction<I, O> {
    private final String metricPrefix;
    private final int maxBatch;
    private final long maxWaitMs;
    private final int workers;
    private transient MicroBatcher<I, O> batcher;
    private transient Counter timeouts;
    private transient Counter failures;

    protected BatchedInference(String stage, String metricPrefix, int maxBatch, long maxWaitMs) {
        this(stage, metricPrefix, 1, maxBatch, maxWaitMs);
    }

    /** @param workers batches run at once per subtask; above one, {@link #infer} must be thread-safe */
    protected BatchedInference(String stage, String metricPrefix, int workers, int maxBatch, long maxWaitMs) {
        super(stage);
        this.workers = workers;
        this.metricPrefix = metricPrefix;
        this.maxBatch = maxBatch;
        this.maxWaitMs = maxWaitMs;
    }

    /** Loads the models of this subtask; returns whether they run on a GPU. */
    protected abstract boolean openModels() throws Exception;

    /** One batch through the models; one result per request, in order. */
    protected abstract List<O> infer(List<I> batch);

    /** The result that records a request as failed, with the reason. */
    protected abstract O failed(I request, String reason);

    /** Releases the models. */
    protected abstract void closeModels() throws Exception;

    @Override
    public final void open(OpenContext ctx) throws Exception {
        boolean gpu = openModels();
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        metrics.gauge(metricPrefix + "Gpu", () -> gpu ? 1 : 0);
        Histogram batchSize = metrics.histogram(metricPrefix + "BatchSize", new DescriptiveStatisticsHistogram(500));
        Histogram batchMs = metrics.histogram(metricPrefix + "BatchMs", new DescriptiveStatisticsHistogram(500));
        Meter frames = metrics.meter(metricPrefix + "FramesPerSecond", new MeterView(30));
        timeouts = metrics.counter(metricPrefix + "Timeouts");
        failures = metrics.counter(metricPrefix + "Failures");
        batcher = new MicroBatcher<>(metricPrefix + "-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), workers, maxBatch,
                this::batchLimit, maxWaitMs, this::infer, (size, nanos) -> {
                    synchronized (batchSize) { // several workers may report at once; the meter's counter is not atomic
                        batchSize.update(size);
                        batchMs.update(nanos / 1_000_000);
                        frames.markEvent(size);
                    }
                }, 2, 200);
    }

    /** Most requests in the batch about to start (on a worker; capped at maxBatch): maxBatch unless a subclass needs fewer now. */
    protected int batchLimit() {
        return maxBatch;
    }

    /** Told of each request as it is queued for a batch, in arrival order, on the task thread. */
    protected void submitted(I request) {}

    @Override
    protected final void invoke(I request, ResultFuture<O> result) {
        submitted(request);
        batcher.submit(request).whenComplete((out, e) -> result.complete(Collections.singletonList(
                e == null ? out : failure(request, "inference failed after retries: " + rootMessage(e)))));
    }

    @Override
    public final void timeout(I request, ResultFuture<O> result) {
        timeouts.inc();
        result.complete(Collections.singletonList(failure(request, "inference timed out; the job is overloaded")));
    }

    /** A failure record, counted; subclasses also call it for a request their batch could not use. */
    protected final O failure(I request, String reason) {
        failures.inc();
        return failed(request, reason);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    @Override
    public final void close() throws Exception {
        if (batcher != null) {
            batcher.close();
        }
        closeModels();
    }
}
