package io.videoworld.query.streams;

import io.videoworld.query.auth.Caller;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link BudgetPolicy} on a schedule through {@link StreamsService#budget}: the oldest
 * stored keyframes go first. A failed pass is logged and the next one tries again.
 */
public final class StorageBudgets implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StorageBudgets.class);
    /** The service itself, which may apply a budget to every stream. */
    private static final Caller SERVICE = new Caller("storage-budget", true, List.of());
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vw-storage-budget");
        t.setDaemon(true);
        return t;
    });

    /** Starts applying {@code policy} through {@code streams}, the first pass after one interval. */
    public StorageBudgets(BudgetPolicy policy, StreamsService streams) {
        long every = policy.every().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                StreamResponses.Budgeted b = streams.budget(SERVICE, policy.perStreamBytes(), policy.totalBytes(), policy.streams());
                if (b.framesDeleted() > 0) {
                    LOG.info("storage budget: {} stored keyframes deleted, {} -> {} bytes", b.framesDeleted(), b.usedBefore(), b.usedAfter());
                }
            } catch (Exception ex) {
                LOG.warn("storage budget pass failed, trying again in {} ms: {}", every, ex.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
