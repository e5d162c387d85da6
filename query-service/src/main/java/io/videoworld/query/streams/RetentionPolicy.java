package io.videoworld.query.streams;

import java.time.Duration;
import io.videoworld.query.auth.Caller;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How long indexed data is kept ({@code vw.retention}) and how often the query service applies
 * that. A duration is written ISO-8601 ({@code P30D}, {@code PT12H}) or as a number and a unit:
 * {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}, {@code 500ms}.
 *
 * @param maxAge documents whose event time is older than this go
 * @param every how often a pass runs
 * @param streams the streams it applies to, as patterns ({@code *} matches any run of characters); empty: all
 */
public record RetentionPolicy(Duration maxAge, Duration every, List<String> streams) {
    /** Passes run at most this often, so a short retention does not turn into a busy loop. */
    static final Duration MIN_EVERY = Duration.ofMillis(200);

    public RetentionPolicy {
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(every, "every");
        streams = List.copyOf(streams);
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("vw.retention must be longer than zero, not " + maxAge);
        }
        if (every.compareTo(MIN_EVERY) < 0) {
            throw new IllegalArgumentException("the retention interval must be at least " + MIN_EVERY.toMillis() + " ms, not " + every);
        }
    }

    /** A policy keeping {@code maxAge}, applied every tenth of it (at most hourly, at least every 200 ms). */
    public static RetentionPolicy of(Duration maxAge) {
        Duration every = maxAge.dividedBy(10);
        if (every.compareTo(Duration.ofHours(1)) > 0) {
            every = Duration.ofHours(1);
        }
        return new RetentionPolicy(maxAge, every.compareTo(MIN_EVERY) < 0 ? MIN_EVERY : every, List.of());
    }

    /** Whether the policy applies to {@code streamId}. */
    public boolean covers(String streamId) {
        return streams.isEmpty() || new Caller("retention", false, streams).canRead(streamId);
    }

    /** Parses {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}, {@code 500ms} or ISO-8601; the message names {@code option}. */
    public static Duration parse(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            var m = java.util.regex.Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)").matcher(t);
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
        } catch (RuntimeException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(option + " '" + text + "' is not a duration like 30d, 12h, 90m, 45s or P30D");
    }
}
