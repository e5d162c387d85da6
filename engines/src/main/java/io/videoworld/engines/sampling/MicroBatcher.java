package io.videoworld.engines.sampling;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * Collects requests from any number of callers into batches of at most {@code maxBatch}, waiting
 * at most {@code maxWaitMs} after the first request of a batch, and runs each batch on one worker
 * thread, so frames from many streams share one model call. Each request gets its own future.
 * When a batch fails, each of its requests is run alone, so one bad input cannot fail the others,
 * and a request that fails alone is retried {@code retries} times with doubling backoff before
 * its future fails: a transient failure (memory, a busy device) costs time, not data. With
 * {@code workers} above one, that many threads take batches off the same queue, so a model whose
 * single call cannot fill the cores (a small detector on a CPU) runs several calls at once; the
 * work function must then be thread-safe, and results may complete out of submission order.
 * A {@code limit} asked as each batch starts may cap it below {@code maxBatch} (what it leaves
 * waits for the next batch).
 *
 * @param <I> request
 * @param <O> result
 */
public final class MicroBatcher<I, O> implements AutoCloseable {
    private record Pending<I, O>(I input, CompletableFuture<O> result) {}

    private final BlockingQueue<Pending<I, O>> queue = new LinkedBlockingQueue<>();
    private final int maxBatch;
    private final IntSupplier limit;
    private final long maxWaitMs;
    private final Function<List<I>, List<O>> work;
    private final List<Thread> workers = new ArrayList<>();
    private final BatchListener listener;
    private final RetryPolicy<Object> retryPolicy;
    private volatile boolean running = true;

    /** Told the size and duration of every batch, for metrics. */
    @FunctionalInterface
    public interface BatchListener {
        void batchDone(int size, long nanos);
    }

    public MicroBatcher(String name, int maxBatch, long maxWaitMs, Function<List<I>, List<O>> work, BatchListener listener) {
        this(name, maxBatch, maxWaitMs, work, listener, 2, 200);
    }

    public MicroBatcher(String name, int maxBatch, long maxWaitMs, Function<List<I>, List<O>> work, BatchListener listener, int retries,
            long backoffMs) {
        this(name, 1, maxBatch, maxWaitMs, work, listener, retries, backoffMs);
    }

    /** @param threads workers running batches at once, at least one */
    public MicroBatcher(String name, int threads, int maxBatch, long maxWaitMs, Function<List<I>, List<O>> work, BatchListener listener,
            int retries, long backoffMs) {
        this(name, threads, maxBatch, () -> Integer.MAX_VALUE, maxWaitMs, work, listener, retries, backoffMs);
    }

    /** @param limit asked as each batch starts: its most requests, at least one and at most {@code maxBatch} whatever it says */
    public MicroBatcher(String name, int threads, int maxBatch, IntSupplier limit, long maxWaitMs, Function<List<I>, List<O>> work,
            BatchListener listener, int retries, long backoffMs) {
        if (threads < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + threads);
        }
        this.retryPolicy = retryPolicy(retries, backoffMs);
        this.maxBatch = maxBatch;
        this.limit = limit;
        this.maxWaitMs = maxWaitMs;
        this.work = work;
        this.listener = listener;
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::loop, threads == 1 ? name : name + "-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
    }

    public CompletableFuture<O> submit(I input) {
        CompletableFuture<O> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new IllegalStateException("batcher closed"));
            return f;
        }
        queue.add(new Pending<>(input, f));
        return f;
    }

    private void loop() {
        List<Pending<I, O>> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Pending<I, O> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                long deadline = System.nanoTime() + maxWaitMs * 1_000_000;
                int most = Math.max(1, Math.min(maxBatch, limit.getAsInt()));
                while (batch.size() < most) {
                    long left = deadline - System.nanoTime();
                    Pending<I, O> next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                run(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                batch.clear();
            }
        }
    }

    private void run(List<Pending<I, O>> batch) throws InterruptedException {
        long start = System.nanoTime();
        try {
            List<O> out = work.apply(batch.stream().map(Pending::input).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(out.get(i));
            }
        } catch (RuntimeException e) {
            for (Pending<I, O> p : batch) {
                runAlone(p, batch.size() == 1 ? e : null);
            }
        }
        listener.batchDone(batch.size(), System.nanoTime() - start);
    }

    private void runAlone(Pending<I, O> p, RuntimeException alreadyFailed) throws InterruptedException {
        try {
            p.result().complete(Failsafe.with(retryPolicy).get(ctx -> {
                // The batch's failure counts as this input's first attempt when the batch was this input alone.
                if (ctx.getAttemptCount() == 0 && alreadyFailed != null) {
                    throw alreadyFailed;
                }
                return work.apply(List.of(p.input())).get(0);
            }));
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException ie) {
                throw ie;
            }
            p.result().completeExceptionally(e.getCause() == null ? e : e.getCause());
        } catch (RuntimeException e) {
            p.result().completeExceptionally(e);
        }
    }

    /** {@code retries} more attempts, waiting the backoff and doubling it each time. */
    private static RetryPolicy<Object> retryPolicy(int retries, long backoffMs) {
        var b = RetryPolicy.builder().handle(RuntimeException.class).withMaxRetries(Math.max(0, retries));
        if (backoffMs > 0 && retries > 1) {
            b.withBackoff(Duration.ofMillis(backoffMs), Duration.ofMillis(backoffMs << Math.min(40, retries - 1)));
        } else if (backoffMs > 0) {
            b.withDelay(Duration.ofMillis(backoffMs));
        }
        return b.build();
    }

    /** Finishes what is queued, then stops the worker. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : workers) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
    }
}
