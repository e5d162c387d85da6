package io.videoworld.query.limits;

import io.videoworld.query.metrics.ServiceMetrics;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The traffic limits as the server applies them: the per-caller rate ({@link RateLimits}), the
 * bounds on concurrent {@code /v1/ask} requests and event streams, and the deadline on JSON
 * answers. Every refusal is counted in {@code vw_limited_total} by the limit's name.
 */
public final class Traffic implements AutoCloseable {
    /** What a bounded request holds while it runs; closing it gives the place back. */
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    private final TrafficLimits limits;
    private final ServiceMetrics metrics;
    private final RateLimits rates;
    private final Bound ask;
    private final Bound sse;
    private final ThreadPoolExecutor workers;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "vw-deadlines"));

    public Traffic(TrafficLimits limits, ServiceMetrics metrics) {
        this.limits = limits;
        this.metrics = metrics;
        this.rates = new RateLimits(limits);
        this.ask = new Bound("ask", limits.maxConcurrentAsk(), "--max-concurrent-ask");
        this.sse = new Bound("sse", limits.maxSseClients(), "--max-sse-clients");
        metrics.inFlight("ask", ask.inUse);
        metrics.inFlight("sse", sse.inUse);
        AtomicInteger n = new AtomicInteger();
        // No queue: a request either gets a worker now or is told to come back, never waits unseen.
        this.workers = new ThreadPoolExecutor(0, limits.maxWorkers(), 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> daemon(r, "vw-request-" + n.incrementAndGet()));
    }

    public TrafficLimits limits() {
        return limits;
    }

    /** Counts one request of {@code caller} against its rate; 429 past it. */
    public void admit(String caller) {
        try {
            rates.admit(caller);
        } catch (LimitExceeded e) {
            metrics.limited(e.limit());
            throw e;
        }
    }

    /** A place among the concurrent {@code /v1/ask} requests; 503 when all are taken. */
    public Permit ask() {
        return ask.acquire();
    }

    /** A place among the open event streams, counted in {@code vw_sse_clients}; 503 when all are taken. */
    public Permit sse() {
        Permit p = sse.acquire();
        metrics.sseClients().incrementAndGet();
        return () -> {
            metrics.sseClients().decrementAndGet();
            p.close();
        };
    }

    /**
     * Runs {@code work} on a worker and completes with its result, or with a 504 once the deadline
     * passes, whichever comes first. Work past its deadline is not stopped (it may share a read
     * with other requests): it ends in the background and its answer is dropped.
     */
    public <T> CompletableFuture<T> withDeadline(Callable<T> work) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                try {
                    answer.complete(work.call());
                } catch (Throwable t) {
                    answer.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException full) {
            metrics.limited("workers");
            answer.completeExceptionally(new LimitExceeded(503, "busy", "workers", 1, "the service is computing as many answers as it may ("
                    + limits.maxWorkers() + ", --max-workers); retry shortly"));
            return answer;
        }
        if (limits.deadlineMs() > 0) {
            timer.schedule(() -> {
                if (answer.completeExceptionally(new DeadlineExceeded(limits.deadlineMs()))) {
                    metrics.limited("deadline");
                }
            }, limits.deadlineMs(), TimeUnit.MILLISECONDS);
        }
        return answer;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        workers.shutdown();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** One bound on concurrent requests, tried without waiting. */
    private final class Bound {
        final String kind;
        final int max;
        final String option;
        final AtomicInteger inUse = new AtomicInteger();

        Bound(String kind, int max, String option) {
            this.kind = kind;
            this.max = max;
            this.option = option;
        }

        Permit acquire() {
            if (inUse.incrementAndGet() > max) {
                inUse.decrementAndGet();
                metrics.limited(kind);
                throw new LimitExceeded(503, "busy", kind, 1, "too many " + ("ask".equals(kind) ? "/v1/ask requests" : "event streams")
                        + " at once (at most " + max + ", " + option + "); retry shortly");
            }
            AtomicInteger released = new AtomicInteger();
            return () -> {
                if (released.getAndIncrement() == 0) {
                    inUse.decrementAndGet();
                }
            };
        }
    }
}
