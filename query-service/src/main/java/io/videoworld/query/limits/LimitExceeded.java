package io.videoworld.query.limits;

import io.videoworld.query.api.ApiException;

/** A request refused by a traffic limit: 429 or 503 with the seconds to wait, sent as {@code Retry-After}. */
public final class LimitExceeded extends ApiException {
    private final long retryAfterSeconds;
    private final String limit;

    public LimitExceeded(int status, String code, String limit, long retryAfterSeconds, String message) {
        super(status, code, null, message);
        this.limit = limit;
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** Whole seconds, at least 1, as {@code Retry-After} wants them. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The name of the limit, as docs/limits.md and the {@code vw_limited_total} series call it. */
    public String limit() {
        return limit;
    }
}
