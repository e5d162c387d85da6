package io.videoworld.connectors.es;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Shards and replicas per index, over the defaults in each mapping file under {@code es/} (every
 * index: 1 shard, 0 replicas, right for one node). Written as a spec, {@code INDEX=SHARDS/REPLICAS}
 * separated by commas, {@code *} for every index, later entries winning, e.g.
 * {@code *=2/1,vw-videos=1/1}. Shards only apply when an index is created; replicas are also
 * applied to an existing index.
 *
 * <p>Where no spec is passed (the query service creates {@code vw-entities} and {@code vw-memories}
 * itself), {@link #fromEnvironment()} reads the system property {@code vw.es.index-settings} or the
 * environment variable {@code VW_ES_INDEX_SETTINGS}.
 */
public record IndexSettings(Map<String, Integer> shards, Map<String, Integer> replicas) implements Serializable {
    public static final IndexSettings DEFAULTS = new IndexSettings(Map.of(), Map.of());

    public IndexSettings {
        shards = Map.copyOf(shards);
        replicas = Map.copyOf(replicas);
    }

    /** Parses a spec; null or blank is {@link #DEFAULTS}. */
    public static IndexSettings parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return DEFAULTS;
        }
        Map<String, Integer> shards = new LinkedHashMap<>();
        Map<String, Integer> replicas = new LinkedHashMap<>();
        for (String entry : spec.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            int slash = e.indexOf('/', Math.max(eq, 0));
            if (eq <= 0 || slash < 0) {
                throw new IllegalArgumentException("index settings entry '" + e + "' is not INDEX=SHARDS/REPLICAS");
            }
            String index = e.substring(0, eq).strip();
            String s = e.substring(eq + 1, slash).strip();
            String r = e.substring(slash + 1).strip();
            if (index.equals("*")) { // a wildcard resets what came before it
                shards.clear();
                replicas.clear();
            }
            if (!s.isEmpty()) {
                int n = Integer.parseInt(s);
                if (n < 1) {
                    throw new IllegalArgumentException("shards must be >= 1 in '" + e + "'");
                }
                shards.put(index, n);
            }
            if (!r.isEmpty()) {
                int n = Integer.parseInt(r);
                if (n < 0) {
                    throw new IllegalArgumentException("replicas must be >= 0 in '" + e + "'");
                }
                replicas.put(index, n);
            }
        }
        return new IndexSettings(shards, replicas);
    }

    /** The spec of the system property {@code vw.es.index-settings}, else of {@code $VW_ES_INDEX_SETTINGS}. */
    public static IndexSettings fromEnvironment() {
        String spec = System.getProperty("vw.es.index-settings");
        return parse(spec != null ? spec : System.getenv("VW_ES_INDEX_SETTINGS"));
    }

    /** Shards of an index, or null for its mapping file's default. */
    public Integer shardsOf(String index) {
        return shards.getOrDefault(index, shards.get("*"));
    }

    /** Replicas of an index, or null for its mapping file's default. */
    public Integer replicasOf(String index) {
        return replicas.getOrDefault(index, replicas.get("*"));
    }
}
