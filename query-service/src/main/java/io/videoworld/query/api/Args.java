package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads tool arguments from a JSON object, failing with a 400 that names the field by its path
 * ({@code time_range.start_time}, {@code regions[1].bbox}).
 */
public final class Args {
    private final JsonNode node;
    private final String prefix;

    private Args(JsonNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /** Wraps a request body, which must be a JSON object. */
    public static Args of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badField(null, "request body must be a JSON object");
        }
        return new Args(body, "");
    }

    /** The full path of a field of this object. */
    public String path(String field) {
        return prefix + field;
    }

    private JsonNode get(String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    /** A free-form JSON object (metadata), or empty when absent; 400 when it is not an object. */
    public Optional<JsonNode> optionalJsonObject(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isObject()) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be an object");
        }
        return Optional.of(v);
    }

    public Optional<Boolean> optionalBoolean(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be true or false");
        }
        return Optional.of(v.asBoolean());
    }

    public boolean has(String field) {
        return get(field) != null;
    }

    public String requiredString(String field) {
        JsonNode v = get(field);
        if (v == null) {
            throw ApiException.badField(path(field), "'" + path(field) + "' is required");
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be a non-empty string");
        }
        return v.asText();
    }

    public Optional<String> optionalString(String field) {
        return has(field) ? Optional.of(requiredString(field)) : Optional.empty();
    }

    /** A string from a fixed set, or the default when absent. */
    public String optionalChoice(String field, Set<String> allowed, String dflt) {
        JsonNode v = get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isTextual() || !allowed.contains(v.asText())) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be one of " + allowed.stream().sorted().toList());
        }
        return v.asText();
    }

    public double requiredNumber(String field, double min, double max) {
        JsonNode v = get(field);
        if (v == null) {
            throw ApiException.badField(path(field), "'" + path(field) + "' is required");
        }
        return number(path(field), v, min, max);
    }

    public Optional<Double> optionalNumber(String field, double min, double max) {
        JsonNode v = get(field);
        return v == null ? Optional.empty() : Optional.of(number(path(field), v, min, max));
    }

    public Optional<Integer> optionalInt(String field, int min, int max) {
        JsonNode v = get(field);
        if (v == null) {
            return Optional.empty();
        }
        // canConvertToLong: a 400-digit integer would otherwise wrap to an arbitrary long.
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be a whole number from " + min + " to " + max);
        }
        return Optional.of(v.asInt());
    }

    /** A nested object, whose fields are named with this field as prefix. */
    public Optional<Args> optionalObject(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isObject()) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be an object");
        }
        return Optional.of(new Args(v, path(field) + "."));
    }

    /** A list of objects, each named {@code field[i]}. */
    public List<Args> requiredObjectList(String field, int minSize, int maxSize) {
        JsonNode v = get(field);
        if (v == null || !v.isArray() || v.size() < minSize || v.size() > maxSize) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be a list of " + minSize + " to " + maxSize + " objects");
        }
        List<Args> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isObject()) {
                throw ApiException.badField(path(field) + "[" + i + "]", "'" + path(field) + "[" + i + "]' must be an object");
            }
            out.add(new Args(v.get(i), path(field) + "[" + i + "]."));
        }
        return out;
    }

    /**
     * An optional {@code time_range} object {start_time, end_time} in seconds as {@code [from, to]};
     * either end may be left out (0 and unbounded); an empty range is a 400 naming {@code end_time}.
     */
    public double[] optionalTimeRange(String field) {
        Args range = optionalObject(field).orElse(null);
        if (range == null) {
            return new double[] {0, Double.MAX_VALUE};
        }
        double from = range.optionalNumber("start_time", 0, 1e9).orElse(0.0);
        double to = range.optionalNumber("end_time", 0, 1e9).orElse(Double.MAX_VALUE);
        if (to <= from) {
            throw ApiException.badField(range.path("end_time"), "'" + range.path("end_time") + "' must be after 'start_time'");
        }
        return new double[] {from, to};
    }

    /** Required {@code start_time} and {@code end_time} within [0, duration], end after start. */
    public double[] requiredSpan(double duration) {
        double start = requiredNumber("start_time", 0, duration);
        double end = requiredNumber("end_time", 0, duration + 1e-6);
        if (end <= start) {
            throw ApiException.badField(path("end_time"), "'" + path("end_time") + "' must be after 'start_time'");
        }
        return new double[] {start, end};
    }

    /** A list of non-empty strings (1-50). */
    public List<String> stringList(String field) {
        JsonNode v = get(field);
        if (v == null || !v.isArray() || v.isEmpty() || v.size() > 50) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be a list of 1 to 50 strings");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual() || v.get(i).asText().isBlank()) {
                throw ApiException.badField(path(field) + "[" + i + "]", "'" + path(field) + "[" + i + "]' must be a non-empty string");
            }
            out.add(v.get(i).asText());
        }
        return out;
    }

    /** A list of numbers, each within [min, max]. */
    public List<Double> numberList(String field, int minSize, int maxSize, double min, double max) {
        JsonNode v = get(field);
        if (v == null || !v.isArray() || v.size() < minSize || v.size() > maxSize) {
            throw ApiException.badField(path(field), "'" + path(field) + "' must be a list of " + minSize + " to " + maxSize + " numbers");
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            out.add(number(path(field) + "[" + i + "]", v.get(i), min, max));
        }
        return out;
    }

    private static double number(String path, JsonNode v, double min, double max) {
        if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < min || v.asDouble() > max) {
            throw ApiException.badField(path, "'" + path + "' must be a number from " + min + " to " + max);
        }
        return v.asDouble();
    }
}
