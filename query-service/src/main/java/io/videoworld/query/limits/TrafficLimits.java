package io.videoworld.query.limits;

/**
 * How much traffic the query service takes, as opposed to how much one request may ask
 * ({@link io.videoworld.query.api.RequestLimits}). docs/limits.md describes each bound, its option
 * and what a client sees past it.
 *
 * @param ratePerSecond requests per second each caller may make on {@code /v1/*} and {@code /mcp}, refilled continuously; 0 turns
 *     the rate limit off. A caller is its token's name, or its IP address while authentication is off
 * @param rateBurst requests a caller may make at once before the rate applies (the bucket's size)
 * @param deadlineMs how long a JSON answer may take before the client gets 504; 0 waits for ever. Event
 *     streams are not bounded by it
 * @param maxConcurrentAsk {@code /v1/ask} requests served at once, streamed or not; more wait for nothing and get 503
 * @param maxSseClients server-sent event streams open at once ({@code /v1/streams/{id}/events} and streamed
 *     {@code /v1/ask}); more get 503
 * @param maxWorkers requests whose answer is being computed at once under the deadline; more get 503. Work
 *     past its deadline keeps its worker until it ends
 */
public record TrafficLimits(double ratePerSecond, int rateBurst, long deadlineMs, int maxConcurrentAsk, int maxSseClients,
        int maxWorkers) {

    /** Requests per second per caller unless told otherwise: well above one agent or the tool benchmark's open loop. */
    public static final double DEFAULT_RATE = 400;
    public static final int DEFAULT_BURST = 800;
    /** Room for an agent run with a slow model (each model call has its own --llm-timeout). */
    public static final long DEFAULT_DEADLINE_MS = 120_000;
    public static final int DEFAULT_MAX_ASK = 64;
    public static final int DEFAULT_MAX_SSE = 256;
    public static final int DEFAULT_MAX_WORKERS = 256;

    public TrafficLimits {
        if (ratePerSecond < 0 || Double.isNaN(ratePerSecond) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("the rate limit must be a finite number of requests per second, 0 for none");
        }
        if (ratePerSecond > 0 && rateBurst < 1) {
            throw new IllegalArgumentException("the rate limit's burst must be at least 1");
        }
        if (deadlineMs < 0) {
            throw new IllegalArgumentException("the request deadline must be 0 (none) or positive");
        }
        if (maxConcurrentAsk < 1 || maxSseClients < 1 || maxWorkers < 1) {
            throw new IllegalArgumentException("the bounds on concurrent requests and event streams must be at least 1");
        }
    }

    /** The limits the service runs with unless told otherwise. */
    public static TrafficLimits defaults() {
        return new TrafficLimits(DEFAULT_RATE, DEFAULT_BURST, DEFAULT_DEADLINE_MS, DEFAULT_MAX_ASK, DEFAULT_MAX_SSE, DEFAULT_MAX_WORKERS);
    }

    public TrafficLimits withRate(double perSecond, int burst) {
        return new TrafficLimits(perSecond, burst, deadlineMs, maxConcurrentAsk, maxSseClients, maxWorkers);
    }

    public TrafficLimits withDeadlineMs(long ms) {
        return new TrafficLimits(ratePerSecond, rateBurst, ms, maxConcurrentAsk, maxSseClients, maxWorkers);
    }

    public TrafficLimits withMaxConcurrentAsk(int n) {
        return new TrafficLimits(ratePerSecond, rateBurst, deadlineMs, n, maxSseClients, maxWorkers);
    }

    public TrafficLimits withMaxSseClients(int n) {
        return new TrafficLimits(ratePerSecond, rateBurst, deadlineMs, maxConcurrentAsk, n, maxWorkers);
    }

    public TrafficLimits withMaxWorkers(int n) {
        return new TrafficLimits(ratePerSecond, rateBurst, deadlineMs, maxConcurrentAsk, maxSseClients, n);
    }
}
