package io.videoworld.query.streams;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link RetentionPolicy} on a schedule: every {@code every}, what is older than
 * {@code maxAge} goes ({@link StreamsService#expire}). A failed pass is logged and the next one
 * tries again; nothing is deleted by a pass that cannot reach Elasticsearch.
 */
public final class Retention implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vw-retention");
        t.setDaemon(true);
        return t;
    });

    /** Starts applying {@code policy} through {@code streams}, reading the time from {@code clock}. */
    public Retention(RetentionPolicy policy, StreamsService streams, Clock clock) {
        long every = policy.every().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                StreamResponses.Expired e = streams.expire(clock.millis() - policy.maxAge().toMillis(), policy::covers);
                if (e.documents() > 0) {
                    LOG.info("retention {}: deleted {} documents older than {} ({} stored frames; streams gone: {})", policy.maxAge(),
                            e.documents(), e.cutoff(), e.framesDeleted(), e.streamsDeleted());
                }
            } catch (Exception ex) {
                LOG.warn("retention pass failed, trying again in {} ms: {}", every, ex.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
