package io.videoworld.operators.inference;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Collects requests from any number of callers into batches of at most {@code maxBatch}, waiting
 * at most {@code maxWaitMs} after the first request of a batch, and runs each batch on one worker
 * thread, so frames from many streams share one model call. Each request gets its own future.
 *
 * @param <I> request
 * @param <O> result
 */
public final class MicroBatcher<I, O> implements AutoCloseable {
    private record Pending<I, O>(I input, CompletableFuture<O> result) {}

    private final BlockingQueue<Pending<I, O>> queue = new LinkedBlockingQueue<>();
    private final int maxBatch;
    private final long maxWaitMs;
    private final Function<List<I>, List<O>> work;
    private final Thread worker;
    private final BatchListener listener;
    private volatile boolean running = true;

    /** Told the size and duration of every batch, for metrics. */
    @FunctionalInterface
    public interface BatchListener {
        void batchDone(int size, long nanos);
    }

    public MicroBatcher(String name, int maxBatch, long maxWaitMs, Function<List<I>, List<O>> work, BatchListener listener) {
        this.maxBatch = maxBatch;
        this.maxWaitMs = maxWaitMs;
        this.work = work;
        this.listener = listener;
        this.worker = new Thread(this::loop, name);
        worker.setDaemon(true);
        worker.start();
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
                while (batch.size() < maxBatch) {
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

    private void run(List<Pending<I, O>> batch) {
        long start = System.nanoTime();
        try {
            List<O> out = work.apply(batch.stream().map(Pending::input).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(out.get(i));
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.result().completeExceptionally(e));
        }
        listener.batchDone(batch.size(), System.nanoTime() - start);
    }

    /** Finishes what is queued, then stops the worker. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        worker.join(60_000);
    }
}
