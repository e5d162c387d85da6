package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.query.auth.Caller;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a tool by name (or seed-001 alias) for a caller: schema validation, the caller's right to
 * every stream the arguments name, 501 for tools whose data does not exist yet. REST requests and
 * the agent's tool calls both come through here, so they are checked the same way.
 */
public final class ToolDispatcher {
    private final ToolCatalog catalog;
    private final RequestLimits limits;
    private final Map<String, Tool> tools = new TreeMap<>();

    /** A dispatcher that bounds every request's ids and strings by {@code limits} before validating it. */
    public ToolDispatcher(ToolCatalog catalog, RequestLimits limits) {
        this.catalog = catalog;
        this.limits = limits;
    }

    /** Registers the implementation of a catalog tool. */
    public ToolDispatcher register(String name, Tool tool) {
        if (catalog.find(name).isEmpty()) {
            throw new IllegalArgumentException("'" + name + "' is not in the tool catalog");
        }
        tools.put(name, tool);
        return this;
    }

    /** One tool as {@code GET /v1/tools} lists it, and whether its data exists yet. */
    public record Listed(String name, String family, List<String> aliases, String description, boolean available) {}

    /** Every tool of the catalog, in its order. */
    public List<Listed> listing() {
        return catalog.all().stream().map(t -> new Listed(t.name(), t.family(), t.aliases(), t.description(), tools.containsKey(t.name())))
                .toList();
    }

    public ToolCatalog catalog() {
        return catalog;
    }

    public Set<String> available() {
        return Set.copyOf(tools.keySet());
    }

    public Object call(Caller caller, String name, JsonNode body) throws IOException {
        ToolCatalog.ToolDef def = catalog.find(name).orElseThrow(() ->
                new ApiException(404, "unknown_tool", null, "no tool named '" + ApiException.quote(name) + "'; GET /v1/tools lists them"));
        if (body == null || !body.isObject()) {
            throw ApiException.badField(null, "the arguments must be a JSON object");
        }
        InputBounds.check(body, limits);
        SchemaValidator.validate(def.parameters(), body);
        checkStreams(caller, body);
        Tool tool = tools.get(def.name());
        if (tool == null) {
            throw new ApiException(501, "not_implemented", null, "'" + def.name() + "' needs " + MissingCapability.of(def));
        }
        return tool.call(Args.of(body));
    }

    /** Every stream a request names must be readable by its caller: {@code video_id}, {@code video_ids}, {@code stream_ids}. */
    public static void checkStreams(Caller caller, JsonNode body) {
        if (body.path("video_id").isTextual()) {
            requireRead(caller, body.get("video_id").asText(), "video_id");
        }
        for (String field : new String[] {"video_ids", "stream_ids"}) {
            JsonNode list = body.path(field);
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i).isTextual()) {
                    requireRead(caller, list.get(i).asText(), field + "[" + i + "]");
                }
            }
        }
    }

    public static void requireRead(Caller caller, String streamId, String field) {
        if (caller == null || !caller.canRead(streamId)) {
            throw new ApiException(403, "forbidden", field, "this token may not read stream '" + streamId + "'");
        }
    }
}
