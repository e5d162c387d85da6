package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Checks a request against the JSON Schema subset the tool catalog uses (type, required, enum,
 * minimum, maximum, exclusiveMinimum, minLength, minItems, maxItems, properties, items) and
 * throws a 400 naming the first offending field by its path, e.g. {@code regions[1].bbox[2]}.
 * Checks that need the data (a time beyond the stream's end) stay with the tools.
 */
public final class SchemaValidator {
    private SchemaValidator() {}

    public static void validate(JsonNode schema, JsonNode value) {
        check(schema, value, "");
    }

    private static void check(JsonNode schema, JsonNode v, String path) {
        String type = schema.path("type").asText("");
        String name = path.isEmpty() ? "request body" : "'" + path + "'";
        if (!type.isEmpty() && !hasType(v, type)) {
            throw ApiException.badField(path.isEmpty() ? null : path, name + " must be " + article(type));
        }
        if (schema.has("enum")) {
            boolean ok = false;
            for (JsonNode e : schema.get("enum")) {
                ok |= e.equals(v);
            }
            if (!ok) {
                throw ApiException.badField(path, name + " must be one of " + schema.get("enum"));
            }
        }
        if (v.isNumber()) {
            double d = v.asDouble();
            if (schema.has("minimum") && d < schema.get("minimum").asDouble()) {
                throw ApiException.badField(path, name + " must be at least " + schema.get("minimum").asText());
            }
            if (schema.has("maximum") && d > schema.get("maximum").asDouble()) {
                throw ApiException.badField(path, name + " must be at most " + schema.get("maximum").asText());
            }
            if (schema.has("exclusiveMinimum") && d <= schema.get("exclusiveMinimum").asDouble()) {
                throw ApiException.badField(path, name + " must be greater than " + schema.get("exclusiveMinimum").asText());
            }
        }
        if (v.isTextual() && schema.has("minLength") && v.asText().length() < schema.get("minLength").asInt()) {
            throw ApiException.badField(path, name + " must not be empty");
        }
        if (v.isArray()) {
            if (schema.has("minItems") && v.size() < schema.get("minItems").asInt()) {
                throw ApiException.badField(path, name + " must have at least " + schema.get("minItems").asInt() + " items");
            }
            if (schema.has("maxItems") && v.size() > schema.get("maxItems").asInt()) {
                throw ApiException.badField(path, name + " must have at most " + schema.get("maxItems").asInt() + " items");
            }
            if (schema.has("items")) {
                for (int i = 0; i < v.size(); i++) {
                    check(schema.get("items"), v.get(i), path + "[" + i + "]");
                }
            }
        }
        if (v.isObject()) {
            for (JsonNode r : schema.path("required")) {
                JsonNode field = v.get(r.asText());
                if (field == null || field.isNull()) {
                    String p = join(path, r.asText());
                    throw ApiException.badField(p, "'" + p + "' is required");
                }
            }
            Iterator<Map.Entry<String, JsonNode>> props = schema.path("properties").fields();
            while (props.hasNext()) {
                Map.Entry<String, JsonNode> p = props.next();
                JsonNode field = v.get(p.getKey());
                if (field != null && !field.isNull()) {
                    check(p.getValue(), field, join(path, p.getKey()));
                }
            }
        }
    }

    private static boolean hasType(JsonNode v, String type) {
        return switch (type) {
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "string" -> v.isTextual();
            case "integer" -> v.isIntegralNumber() || (v.isNumber() && v.asDouble() == Math.rint(v.asDouble()));
            case "number" -> v.isNumber() && Double.isFinite(v.asDouble());
            case "boolean" -> v.isBoolean();
            default -> true;
        };
    }

    private static String article(String type) {
        return switch (type) {
            case "object", "array", "integer" -> "an " + type;
            default -> "a " + type;
        };
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
