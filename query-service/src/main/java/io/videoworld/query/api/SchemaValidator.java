package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a request against its tool's JSON Schema with networknt's validator (draft 2020-12) and
 * throws a 400 naming the first offending field by its path, e.g. {@code regions[1].bbox[2]}, in the
 * words the service has always used ("'x' must be at least 1"). "First" is the order a reader of the
 * schema would check: a value's own type, enum, bounds, length, size and required fields before its
 * properties, properties in the schema's order, items in theirs. A field given as {@code null} counts
 * as absent, and an integral number written with a fraction ({@code 3.0}) as an integer, as clients
 * have been able to rely on. Checks that need the data (a time beyond the stream's end) stay with
 * the tools.
 */
public final class SchemaValidator {
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().losslessNarrowing(true).build()));
    /** Compiled once per tool: keyed by the catalog's schema object itself (weak keys compare by identity). */
    private static final Cache<JsonNode, Schema> COMPILED = Caffeine.newBuilder().weakKeys().build();
    /** The order of a value's own checks, before any of its children's. */
    private static final List<String> OWN_CHECKS = List.of("type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "required");

    private SchemaValidator() {}

    public static void validate(JsonNode schema, JsonNode value) {
        JsonNode present = withoutNulls(value);
        List<Error> errors = COMPILED.get(schema, REGISTRY::getSchema).validate(present);
        if (errors.isEmpty()) {
            return;
        }
        Error first = errors.stream().min(Comparator.comparing(e -> order(schema, e), SchemaValidator::compare)).orElseThrow();
        throw refusal(schema, first);
    }

    /** The error as the service words it, naming the field. */
    private static ApiException refusal(JsonNode root, Error e) {
        List<Object> at = elements(e.getInstanceLocation());
        JsonNode schema = schemaAt(root, at);
        String path = path(at);
        String name = path.isEmpty() ? "request body" : "'" + path + "'";
        String field = path.isEmpty() ? null : path;
        return switch (e.getKeyword()) {
            case "type" -> ApiException.badField(field, name + " must be " + article(schema.path("type").asText()));
            case "enum" -> ApiException.badField(path, name + " must be one of " + schema.get("enum"));
            case "minimum" -> ApiException.badField(path, name + " must be at least " + schema.get("minimum").asText());
            case "maximum" -> ApiException.badField(path, name + " must be at most " + schema.get("maximum").asText());
            case "exclusiveMinimum" -> ApiException.badField(path, name + " must be greater than " + schema.get("exclusiveMinimum").asText());
            case "minLength" -> ApiException.badField(path, name + " must not be empty");
            case "maxLength" -> ApiException.badField(path, name + " must be at most " + schema.get("maxLength").asInt() + " characters");
            case "minItems" -> ApiException.badField(path, name + " must have at least " + schema.get("minItems").asInt() + " items");
            case "maxItems" -> ApiException.badField(path, name + " must have at most " + schema.get("maxItems").asInt() + " items");
            case "required" -> {
                String p = join(path, e.getProperty());
                yield ApiException.badField(p, "'" + p + "' is required");
            }
            default -> ApiException.badField(field, name + ": " + e.getMessage());
        };
    }

    /**
     * Where an error comes in a reading of the schema: for each step down, the property's place in
     * its schema or the item's index; then, for the value's own checks, -1 and the check's place
     * (and a missing field's place among the required).
     */
    private static List<Integer> order(JsonNode root, Error e) {
        List<Object> at = elements(e.getInstanceLocation());
        List<Integer> key = new ArrayList<>();
        JsonNode schema = root;
        for (Object step : at) {
            if (step instanceof Integer i) {
                key.add(i);
                schema = schema.path("items");
            } else {
                key.add(ordinal(schema.path("properties"), (String) step));
                schema = schema.path("properties").path((String) step);
            }
        }
        key.add(-1);
        int own = OWN_CHECKS.indexOf(e.getKeyword());
        key.add(own < 0 ? OWN_CHECKS.size() : own);
        key.add("required".equals(e.getKeyword()) ? ordinal(schema.path("required"), e.getProperty()) : 0);
        return key;
    }

    private static int compare(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = Integer.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** A name's place among an object's fields or an array's texts; past the end when absent. */
    private static int ordinal(JsonNode container, String name) {
        int i = 0;
        if (container.isObject()) {
            for (Iterator<String> it = container.fieldNames(); it.hasNext(); i++) {
                if (it.next().equals(name)) {
                    return i;
                }
            }
        } else if (container.isArray()) {
            for (JsonNode n : container) {
                if (n.asText().equals(name)) {
                    return i;
                }
                i++;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static JsonNode schemaAt(JsonNode root, List<Object> at) {
        JsonNode schema = root;
        for (Object step : at) {
            schema = step instanceof Integer ? schema.path("items") : schema.path("properties").path((String) step);
        }
        return schema;
    }

    private static List<Object> elements(NodePath p) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < p.getNameCount(); i++) {
            out.add(p.getElement(i));
        }
        return out;
    }

    private static String path(List<Object> at) {
        StringBuilder b = new StringBuilder();
        for (Object step : at) {
            if (step instanceof Integer i) {
                b.append('[').append(i).append(']');
            } else {
                b.append(b.length() == 0 ? "" : ".").append(step);
            }
        }
        return b.toString();
    }

    /** A copy without the object fields that are null, so the schema sees them as absent. */
    private static JsonNode withoutNulls(JsonNode v) {
        if (v.isObject()) {
            ObjectNode out = ((ObjectNode) v).objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!f.getValue().isNull()) {
                    out.set(f.getKey(), withoutNulls(f.getValue()));
                }
            }
            return out;
        }
        if (v.isArray()) {
            ArrayNode out = ((ArrayNode) v).arrayNode();
            v.forEach(x -> out.add(withoutNulls(x)));
            return out;
        }
        return v;
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
