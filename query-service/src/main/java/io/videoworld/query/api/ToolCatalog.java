package io.videoworld.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every atomic operation of seeds 000 and 001, described once in {@code tools/catalog.json}
 * (name, family, seed-001 aliases, description, JSON Schema of the arguments). The same
 * description feeds request validation, the OpenAPI document and the LLM's tool list.
 */
public final class ToolCatalog {
    /** One tool's description. */
    public record ToolDef(String name, String seed, String family, List<String> aliases, String description, JsonNode parameters) {}

    private final Map<String, ToolDef> byName = new LinkedHashMap<>();
    private final Map<String, String> aliasOf = new LinkedHashMap<>();

    private ToolCatalog(List<ToolDef> defs) {
        for (ToolDef d : defs) {
            byName.put(d.name(), d);
            d.aliases().forEach(a -> aliasOf.put(a, d.name()));
        }
    }

    /** The catalog shipped with the service. */
    public static ToolCatalog load() {
        try (InputStream in = ToolCatalog.class.getResourceAsStream("/tools/catalog.json")) {
            List<ToolDef> defs = new ArrayList<>();
            for (JsonNode t : Json.MAPPER.readTree(in)) {
                List<String> aliases = new ArrayList<>();
                t.path("aliases").forEach(a -> aliases.add(a.asText()));
                defs.add(new ToolDef(t.get("name").asText(), t.path("seed").asText(), t.path("family").asText(),
                        List.copyOf(aliases), t.path("description").asText(), t.get("parameters")));
            }
            return new ToolCatalog(defs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tools/catalog.json", e);
        }
    }

    public List<ToolDef> all() {
        return List.copyOf(byName.values());
    }

    /** A tool by its own name or a seed-001 alias. */
    public Optional<ToolDef> find(String nameOrAlias) {
        return Optional.ofNullable(byName.get(aliasOf.getOrDefault(nameOrAlias, nameOrAlias)));
    }

    public Map<String, String> aliases() {
        return Map.copyOf(aliasOf);
    }
}
