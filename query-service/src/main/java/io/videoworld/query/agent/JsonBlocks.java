package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.util.Optional;

/** Pulls the JSON action out of a reply that thinks in prose first (seed 002). */
public final class JsonBlocks {
    private JsonBlocks() {}

    /** The last ```json fenced block, else the last balanced {...} object; empty when none parses. */
    public static Optional<JsonNode> lastObject(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int fence = text.lastIndexOf("```json");
        if (fence >= 0) {
            int start = fence + 7;
            int end = text.indexOf("```", start);
            Optional<JsonNode> fenced = parse(end < 0 ? text.substring(start) : text.substring(start, end));
            if (fenced.isPresent()) {
                return fenced;
            }
        }
        for (int close = text.lastIndexOf('}'); close >= 0; close = text.lastIndexOf('}', close - 1)) {
            int depth = 0;
            for (int i = close; i >= 0; i--) {
                char c = text.charAt(i);
                depth += c == '}' ? 1 : c == '{' ? -1 : 0;
                if (depth == 0) {
                    Optional<JsonNode> obj = parse(text.substring(i, close + 1));
                    if (obj.isPresent()) {
                        return obj;
                    }
                    break;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> parse(String s) {
        try {
            JsonNode n = Json.MAPPER.readTree(s.trim());
            return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
