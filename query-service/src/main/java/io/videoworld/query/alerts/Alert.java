package io.videoworld.query.alerts;

import io.videoworld.query.auth.Caller;
import io.videoworld.query.live.LiveEvent;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A standing query: new episodes, tracks or stretches of speech of the streams matching {@code streamPattern} that
 * match {@code query} (every word of it appears in the summary, details, labels, category or the words said) and/or
 * {@code labels} (one of them is an episode label or the track's category) are posted to
 * {@code webhookUrl}, retried {@code maxAttempts} times with a backoff doubling from {@code backoffMs}.
 * It fires only for streams its owner may read.
 *
 * @param record always {@code alert}; the index also holds the engine's read position
 * @param webhookSecret the key its deliveries are signed with ({@link WebhookSignature}); answered only when the alert is created
 */
public record Alert(String record, String alertId, String name, String owner, boolean ownerAdmin, List<String> ownerStreams,
        String streamPattern, String query, List<String> labels, List<String> kinds, String webhookUrl, int maxAttempts, long backoffMs,
        long createdAtMs, String webhookSecret) {

    public static final String RECORD = "alert";

    public Alert {
        labels = labels == null ? List.of() : List.copyOf(labels);
        kinds = kinds == null ? List.of() : List.copyOf(kinds);
        ownerStreams = ownerStreams == null ? List.of() : List.copyOf(ownerStreams);
    }

    /** The alert as listed: the secret was shown once, when it was created. */
    public Alert withoutSecret() {
        return new Alert(record, alertId, name, owner, ownerAdmin, ownerStreams, streamPattern, query, labels, kinds, webhookUrl, maxAttempts,
                backoffMs, createdAtMs, null);
    }

    /** Whether this alert fires for an event. */
    public boolean matches(LiveEvent e) {
        if (!kinds.contains(e.type()) || !glob(streamPattern, e.streamId())
                || !new Caller(owner, ownerAdmin, ownerStreams).canRead(e.streamId())) {
            return false;
        }
        List<String> have = e.labels() == null ? List.of() : e.labels();
        if (!labels.isEmpty() && labels.stream().noneMatch(l -> have.stream().anyMatch(h -> h.equalsIgnoreCase(l)))) {
            return false;
        }
        if (query != null) {
            String text = String.join(" ", nz(e.summary()), nz(e.details()), String.join(" ", have), nz(e.category()), nz(e.text())).toLowerCase(Locale.ROOT);
            for (String word : words(query)) {
                if (!text.contains(word)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The query's words, lower case; punctuation only separates them. */
    static List<String> words(String query) {
        return List.of(query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).stream().filter(w -> !w.isEmpty()).toList();
    }

    /** {@code *} matches any run of characters, as in token stream patterns. */
    static boolean glob(String pattern, String value) {
        return value.matches(Pattern.quote(pattern).replace("*", "\\E.*\\Q"));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
