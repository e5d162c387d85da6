package io.videoworld.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/** Reads tool arguments from a JSON object, failing with a 400 that names the field. */
public final class Args {
    private final JsonNode node;

    private Args(JsonNode node) {
        this.node = node;
    }

    /** Wraps a request body, which must be a JSON object. */
    public static Args of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badField(null, "request body must be a JSON object");
        }
        return new Args(body);
    }

    public String requiredString(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw ApiException.badField(field, "'" + field + "' is required");
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw ApiException.badField(field, "'" + field + "' must be a non-empty string");
        }
        return v.asText();
    }

    /** A string from a fixed set, or the default when absent. */
    public String optionalChoice(String field, Set<String> allowed, String dflt) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual() || !allowed.contains(v.asText())) {
            throw ApiException.badField(field, "'" + field + "' must be one of " + allowed.stream().sorted().toList());
        }
        return v.asText();
    }
}
