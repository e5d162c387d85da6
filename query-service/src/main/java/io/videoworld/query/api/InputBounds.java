package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Ids;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Bounds every string of a request before any tool sees it, answering 400 naming the field:
 * stream ids follow {@link Ids#STREAM_ID}, other ids and free text have a length cap, and nesting
 * has a depth cap. Ids end up in Elasticsearch document ids and terms, where an over-long one is
 * an error of the search engine rather than of the request, so they are stopped here.
 */
public final class InputBounds {
    /** Fields that name streams. */
    private static final Set<String> STREAM_FIELDS = Set.of("video_id", "stream_id", "video_ids", "stream_ids");
    /** Base64 uploads are bounded by the body size and by their declared pixels, not by the text cap. */
    private static final Set<String> IMAGE_FIELDS = Set.of("image_data");
    static final String STREAM_RULE = "1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit";

    private InputBounds() {}

    /** Throws a 400 naming the first field out of bounds. */
    public static void check(JsonNode body, RequestLimits limits) {
        walk(body, "", null, 0, limits);
    }

    /** A stream id from a path or query parameter: 400 naming {@code field} unless it follows {@link Ids#STREAM_ID}. */
    public static String streamId(String value, String field) {
        if (value == null || !Ids.STREAM_ID.matcher(value).matches()) {
            throw ApiException.badField(field, "'" + field + "' must be a stream id: " + STREAM_RULE);
        }
        return value;
    }

    private static void walk(JsonNode v, String path, String key, int depth, RequestLimits limits) {
        if (depth > limits.maxJsonDepth()) {
            throw ApiException.badField(path.isEmpty() ? null : path,
                    "JSON nested deeper than " + limits.maxJsonDepth() + " levels (the limit)");
        }
        if (v.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = v.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> f = it.next();
                walk(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey(), f.getKey(), depth + 1, limits);
            }
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) {
                // Items of a list are checked by the list's name: video_ids[2] is a stream id.
                walk(v.get(i), path + "[" + i + "]", key, depth + 1, limits);
            }
        } else if (v.isTextual()) {
            text(v.asText(), path, key == null ? "" : key, limits);
        }
    }

    private static void text(String s, String path, String key, RequestLimits limits) {
        if (STREAM_FIELDS.contains(key)) {
            streamId(s, path);
        } else if (IMAGE_FIELDS.contains(key)) {
            return;
        } else if (key.endsWith("_id") || key.endsWith("_ids") || key.equals("frame_source")) {
            if (s.length() > limits.maxIdLength()) {
                throw ApiException.badField(path, "'" + path + "' must be at most " + limits.maxIdLength() + " characters");
            }
        } else if (s.length() > limits.maxStringLength()) {
            throw ApiException.badField(path, "'" + path + "' must be at most " + limits.maxStringLength() + " characters");
        }
    }
}
