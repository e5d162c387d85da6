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

    /** Creates any missing index from its mapping; safe to call concurrently from many writers. */
    public static void ensure(ElasticsearchClient client, List<String> indices) throws IOException {
        for (String index : indices) {
            if (client.indices().exists(e -> e.index(index)).value()) {
                // Fields only ever get added, so an index made by an older build is brought up to date.
                try (InputStream mapping = mapping(index)) {
                    JsonNode mappings = Json.MAPPER.readTree(mapping).get("mappings");
                    client.indices().putMapping(m -> m.index(index)
                            .withJson(new java.io.StringReader(mappings.toString())));
                }
                continue;
            }
            try (InputStream mapping = mapping(index)) {
                client.indices().create(c -> c.index(index).withJson(mapping));
            } catch (ElasticsearchException e) {
                if (!"resource_already_exists_exception".equals(e.error().type())) {
                    throw e;
                }
            }
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
