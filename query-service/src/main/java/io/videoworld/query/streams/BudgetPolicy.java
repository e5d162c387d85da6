package io.videoworld.query.streams;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How many bytes of stored keyframes the query service keeps ({@code --budget-per-stream},
 * {@code --budget-total}) and how often it applies that ({@link StorageBudgets}). A size is written
 * as bytes or a number and a unit: {@code 500MB}, {@code 20GB}, {@code 1TB} (powers of 1024).
 *
 * @param perStreamBytes the most one stream keeps; 0 for no bound
 * @param totalBytes the most all streams keep together; 0 for no bound
 * @param every how often a pass runs
 * @param streams the streams it applies to, as patterns ({@code *} matches any run of characters), the total counting
 *     only them; empty: all
 */
public record BudgetPolicy(long perStreamBytes, long totalBytes, Duration every, java.util.List<String> streams) {
    public BudgetPolicy {
        Objects.requireNonNull(every, "every");
        streams = java.util.List.copyOf(streams);
        if (perStreamBytes < 0 || totalBytes < 0 || perStreamBytes + totalBytes == 0) {
            throw new IllegalArgumentException("a storage budget needs a per-stream or a total size above zero");
        }
        if (every.compareTo(RetentionPolicy.MIN_EVERY) < 0) {
            throw new IllegalArgumentException("the budget interval must be at least " + RetentionPolicy.MIN_EVERY.toMillis() + " ms, not " + every);
        }
    }

    /** Parses {@code 123}, {@code 500KB}, {@code 500MB}, {@code 20GB} or {@code 1TB}; blank is 0; the message names {@code option}. */
    public static long parseSize(String option, String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        var m = java.util.regex.Pattern.compile("(\\d+)\\s*(b|kb|mb|gb|tb)?").matcher(text.trim().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
                    case "kb" -> 10;
                    case "mb" -> 20;
                    case "gb" -> 30;
                    case "tb" -> 40;
                    default -> 0;
                };
                if (n <= Long.MAX_VALUE >> shift) {
                    return n << shift;
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        throw new IllegalArgumentException(option + " '" + text + "' is not a size like 500MB, 20GB or 1TB");
    }
}
