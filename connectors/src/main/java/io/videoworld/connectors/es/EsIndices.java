package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

/**
 * The indices and their mappings, kept as JSON files under {@code es/} in this module so that
 * the mapping a reader expects and the one the writer creates are the same file.
 */
public final class EsIndices {
    /** Every index the ingest job writes. */
    public static final List<String> ALL = List.of(Names.VIDEOS_INDEX, Names.FRAMES_INDEX, Names.SHOTS_INDEX, Names.PERCEPTION_INDEX,
            Names.DETECTIONS_INDEX, Names.TRACKS_INDEX, Names.ACTIVITIES_INDEX, Names.ENTITIES_INDEX, Names.PEOPLE_INDEX, Names.EPISODES_INDEX, Names.EPISODE_DECISIONS_INDEX,
            Names.MEMORIES_INDEX, Names.DEAD_LETTERS_INDEX, Names.TRANSCRIPTS_INDEX, Names.EXCLUSIONS_INDEX,
            Names.GRAPH_INDEX);

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
        if (client._transport() instanceof RestClientTransport t) {
            ensure(t.restClient(), indices, settings);
            return;
        }
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

    /**
     * The same over the low-level client, the mapping files sent as they are: the typed client parses each mapping into
     * its object model first, which on a fresh JVM loads hundreds of classes; in a job's start-up on 2 cores that took
     * the sink's writers 2.5-3 s before their first bulk request.
     */
    static void ensure(RestClient rest, List<String> indices, IndexSettings settings) throws IOException {
        for (String index : indices) {
            JsonNode file;
            try (InputStream in = mapping(index)) {
                file = Json.MAPPER.readTree(in);
            }
            if (exists(rest, index)) {
                Integer replicas = settings.replicasOf(index);
                if (replicas != null) {
                    send(rest, "PUT", "/" + index + "/_settings", "{\"index\":{\"number_of_replicas\":" + replicas + "}}");
                }
                // Fields only ever get added, so an index made by an older build is brought up to date.
                send(rest, "PUT", "/" + index + "/_mapping", file.get("mappings").toString());
                continue;
            }
            try {
                send(rest, "PUT", "/" + index, withSettings(file, settings.shardsOf(index), settings.replicasOf(index)));
            } catch (ResponseException e) {
                if (!EntityUtils.toString(e.getResponse().getEntity()).contains("resource_already_exists_exception")) {
                    throw e;
                }
            }
        }
    }

    private static boolean exists(RestClient rest, String index) throws IOException {
        try {
            return rest.performRequest(new Request("HEAD", "/" + index)).getStatusLine().getStatusCode() == 200;
        } catch (ResponseException e) {
            if (e.getResponse().getStatusLine().getStatusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    private static void send(RestClient rest, String method, String path, String json) throws IOException {
        Request r = new Request(method, path);
        r.setJsonEntity(json);
        rest.performRequest(r);
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
