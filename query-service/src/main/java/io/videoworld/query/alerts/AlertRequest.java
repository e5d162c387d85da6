package io.videoworld.query.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.auth.Caller;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The body of {@code POST /v1/alerts}, checked field by field: every refusal is a 400 naming the
 * field. {@code stream_pattern} and {@code webhook_url} are required, and {@code query} or
 * {@code labels}; {@code kinds} (episode, track, speech; default episode and track), {@code name} and {@code retry} are optional. The
 * webhook must pass the server's {@link WebhookEgress} rule. Each alert gets a new signing secret.
 */
final class AlertRequest {
    static final Set<String> FIELDS = Set.of("stream_pattern", "query", "labels", "kinds", "webhook_url", "name", "retry");
    static final List<String> KINDS = List.of("episode", "track", "speech");
    /** What an alert that names no kinds follows: speech only when asked for. */
    static final List<String> DEFAULT_KINDS = List.of("episode", "track");
    static final int DEFAULT_ATTEMPTS = 6;
    static final long DEFAULT_BACKOFF_MS = 1_000;

    private AlertRequest() {}

    static Alert parse(JsonNode body, Caller caller, long nowMs, WebhookEgress egress) {
        if (body == null || !body.isObject()) {
            throw ApiException.badField(null, "the body must be a JSON object with stream_pattern, webhook_url and query or labels");
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                throw ApiException.badField(f, "unknown field '" + ApiException.quote(f) + "'; known: " + FIELDS.stream().sorted().toList());
            }
        });
        String pattern = text(body, "stream_pattern", 128, true);
        if (!pattern.matches("[A-Za-z0-9._*-]+")) {
            throw ApiException.badField("stream_pattern", "stream_pattern may hold letters, digits, '.', '_', '-' and '*' (any run), not '"
                    + ApiException.quote(pattern) + "'");
        }
        String query = text(body, "query", 500, false);
        if (query != null && Alert.words(query).isEmpty()) {
            throw ApiException.badField("query", "query has no words to match");
        }
        List<String> labels = strings(body, "labels", 20);
        if (query == null && labels.isEmpty()) {
            throw ApiException.badField("query", "give a query or labels (or both): an alert on everything is a live event stream");
        }
        List<String> kinds = strings(body, "kinds", KINDS.size());
        for (String k : kinds) {
            if (!KINDS.contains(k)) {
                throw ApiException.badField("kinds", "kinds may be " + KINDS + ", not '" + ApiException.quote(k) + "'");
            }
        }
        String url = text(body, "webhook_url", 2000, true);
        try {
            URI u = new URI(url);
            if (u.getScheme() == null || u.getHost() == null || u.getHost().isEmpty()) {
                throw new IllegalArgumentException("an absolute URL with a host");
            }
        } catch (Exception e) {
            throw ApiException.badField("webhook_url", "webhook_url must be an absolute http:// or https:// URL with a host, not '"
                    + ApiException.quote(url) + "'");
        }
        try {
            egress.check(url);
        } catch (WebhookEgress.Refused e) {
            throw ApiException.badField("webhook_url", "webhook_url is refused: " + e.getMessage());
        }
        JsonNode retry = body.path("retry");
        if (!retry.isMissingNode() && !retry.isObject()) {
            throw ApiException.badField("retry", "retry must be an object {max_attempts, backoff_ms}");
        }
        int attempts = (int) number(retry, "retry.max_attempts", "max_attempts", 1, 20, DEFAULT_ATTEMPTS);
        long backoff = number(retry, "retry.backoff_ms", "backoff_ms", 100, 600_000, DEFAULT_BACKOFF_MS);
        return new Alert(Alert.RECORD, "alert_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12),
                text(body, "name", 200, false), caller.name(), caller.admin(), caller.streams(), pattern, query, labels,
                kinds.isEmpty() ? DEFAULT_KINDS : kinds, url, attempts, backoff, nowMs, WebhookSignature.newSecret());
    }

    private static String text(JsonNode body, String field, int max, boolean required) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw ApiException.badField(field, field + " is required");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw ApiException.badField(field, field + " must be a non-empty string");
        }
        if (v.asText().length() > max) {
            throw ApiException.badField(field, field + " is longer than " + max + " characters");
        }
        return v.asText().strip();
    }

    private static List<String> strings(JsonNode body, String field, int max) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray() || v.size() > max) {
            throw ApiException.badField(field, field + " must be an array of at most " + max + " strings");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode s = v.get(i);
            if (!s.isTextual() || s.asText().isBlank() || s.asText().length() > 100) {
                throw ApiException.badField(field + "[" + i + "]", field + "[" + i + "] must be a non-empty string of at most 100 characters");
            }
            out.add(s.asText().strip());
        }
        return out;
    }

    private static long number(JsonNode retry, String path, String field, long min, long max, long dflt) {
        JsonNode v = retry.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw ApiException.badField(path, path + " must be a whole number from " + min + " to " + max);
        }
        return v.asLong();
    }
}
