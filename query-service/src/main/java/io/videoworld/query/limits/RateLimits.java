package io.videoworld.query.limits;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per caller (Bucket4j): {@code rateBurst} requests at once, refilled at
 * {@code ratePerSecond}. A caller past it gets 429 with the seconds until its next request would
 * pass. Buckets are kept only while they hold state: a full bucket is the same as none, so the map
 * is pruned of full ones when it grows, and callers by IP address cannot grow it without bound.
 */
public final class RateLimits {
    /** Past this many callers the full buckets are dropped. */
    static final int PRUNE_AT = 10_000;

    private final TrafficLimits limits;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimits(TrafficLimits limits) {
        this.limits = limits;
    }

    public boolean enabled() {
        return limits.ratePerSecond() > 0;
    }

    /**
     * Takes one request from {@code caller}'s bucket.
     *
     * @throws LimitExceeded 429 when the bucket is empty
     */
    public void admit(String caller) {
        if (!enabled()) {
            return;
        }
        if (buckets.size() > PRUNE_AT) {
            buckets.values().removeIf(b -> b.getAvailableTokens() >= limits.rateBurst());
        }
        ConsumptionProbe probe = buckets.computeIfAbsent(caller, k -> newBucket()).tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            long seconds = (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L;
            throw new LimitExceeded(429, "rate_limited", "rate", seconds, "rate limit exceeded: at most " + format(limits.ratePerSecond())
                    + " requests per second per caller (bursts of " + limits.rateBurst() + "); retry after " + Math.max(1, seconds) + " s");
        }
    }

    private Bucket newBucket() {
        // Refilled in whole tokens per period: a fractional rate is expressed over a longer period.
        long periodNanos = Math.max(1, Math.round(1_000_000_000L / limits.ratePerSecond()));
        return Bucket.builder().addLimit(Bandwidth.builder().capacity(limits.rateBurst()).refillGreedy(1, Duration.ofNanos(periodNanos))
                .build()).build();
    }

    private static String format(double perSecond) {
        return perSecond == Math.rint(perSecond) ? Long.toString((long) perSecond) : Double.toString(perSecond);
    }
}
