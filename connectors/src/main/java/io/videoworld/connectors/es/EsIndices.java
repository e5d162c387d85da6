package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The indices and their mappings, kept as JSON files under {@code es/} in this module so that
 * the mapping a reader expects and the one the writer creates are the same file.
 */
public final class EsIndices {
    /** Every index the ingest job writes. */
    public static final List<String> ALL = List.of(Names.VIDEOS_INDEX, Names.FRAMES_INDEX, Names.SHOTS_INDEX, Names.PERCEPTION_INDEX,
            Names.DETECTIONS_INDEX, Names.TRACKS_INDEX, Names.ENTITIES_INDEX, Names.EPISODES_INDEX, Names.EPISODE_DECISIONS_INDEX,
            Names.MEMORIES_INDEX, Names.DEAD_LETTERS_INDEX);

    private EsIndices() {}

    /** {@link #ensure(ElasticsearchClient, List, IndexSettings)} with {@link IndexSettings#fromEnvironment()}. */
    public static void ensure(ElasticsearchClient client, List<String> indices) throws IOException {
        ensure(client, indices, IndexSettings.fromEnvironment());
    }

    /**
     * Creates any missing index from its mapping with the given shards and replicas (the mapping
     * file's where the settings name none); safe to call concurrently from many writers. An existing
     * index gets new fields and, where the settings name them, its replicas.
     */
    public static void ensure(ElasticsearchClient client, List<String> indices, IndexSettings settings) throws IOException {
        for (String index : indices) {
            if (client.indices().exists(e -> e.index(index)).value()) {
                Integer replicas = settings.replicasOf(index);
                if (replicas != null) {
                    client.indices().putSettings(p -> p.index(index).settings(s -> s.numberOfReplicas(String.valueOf(replicas))));
                }
                // Fields only ever get added, so an index made by an older build is brought up to date.
                try (InputStream mapping = mapping(index)) {
                    JsonNode mappings = Json.MAPPER.readTree(mapping).get("mappings");
                    client.indices().putMapping(m -> m.index(index)
                            .withJson(new java.io.StringReader(mappings.toString())));
                }
                continue;
            }
            try (InputStream mapping = mapping(index)) {
                String body = withSettings(Json.MAPPER.readTree(mapping), settings.shardsOf(index), settings.replicasOf(index));
                client.indices().create(c -> c.index(index).withJson(new java.io.StringReader(body)));
            } catch (ElasticsearchException e) {
                if (!"resource_already_exists_exception".equals(e.error().type())) {
                    throw e;
                }
            }
        }
    }

    /** A mapping file's body with shards and replicas replaced where given. */
    static String withSettings(JsonNode body, Integer shards, Integer replicas) {
        var copy = (com.fasterxml.jackson.databind.node.ObjectNode) body.deepCopy();
        var s = (com.fasterxml.jackson.databind.node.ObjectNode) copy.get("settings");
        if (shards != null) {
            s.put("number_of_shards", shards);
        }
        if (replicas != null) {
            s.put("number_of_replicas", replicas);
        }
        return copy.toString();
    }

    /** The shards and replicas an index's mapping file gives it. */
    public static int[] defaultShardsAndReplicas(String index) throws IOException {
        try (InputStream in = mapping(index)) {
            JsonNode s = Json.MAPPER.readTree(in).path("settings");
            return new int[] {s.path("number_of_shards").asInt(1), s.path("number_of_replicas").asInt(0)};
        }
    }

    static InputStream mapping(String index) {
        InputStream in = EsIndices.class.getResourceAsStream("/es/" + index + ".json");
        if (in == null) {
            throw new UncheckedIOException(new IOException("no mapping file es/" + index + ".json"));
        }
        return in;
    }
}
