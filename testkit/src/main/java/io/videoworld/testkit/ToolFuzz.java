package io.videoworld.testkit;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;

/**
 * What the fuzz tests share: a 10 s stream ({@link #STREAM}) whose source file is gone, written
 * straight to Elasticsearch, and request bodies generated from a tool's JSON Schema with each field
 * kept, dropped or replaced by a random value.
 */
public final class ToolFuzz {
    public static final String STREAM = "fuzz-cam";

    private ToolFuzz() {}

    /** Indexes {@link #STREAM}: 640x360, 25 fps, 10 s, ended, its source no longer on disk. */
    public static void indexStream(String esUrl, Path dir) throws Exception {
        try (RestClientTransport t = EsClients.transport(esUrl)) {
            var client = EsClients.sync(t);
            EsIndices.ensure(client, EsIndices.ALL);
            VideoDoc doc = new VideoDoc(STREAM, SourceKind.VIDEO, dir.resolve("gone.mp4").toString(),
                    new SourceInfo(25, 10_000L, 250L, "mpeg4", false, 0, 0, 1000L, 100L, 640, 360, 25),
                    1_700_000_000_000L, 1_700_000_000_000L, 1_700_000_009_960L, 9_960, 250, 10, 9, 249, 640, 360, VideoDoc.ENDED);
            var w = EsDocuments.video(doc);
            client.index(i -> i.index(w.index()).id(w.id()).version(w.version())
                    .versionType(co.elastic.clients.elasticsearch._types.VersionType.ExternalGte)
                    .withJson(new java.io.ByteArrayInputStream(w.json())));
            client.indices().refresh(r -> r.index(w.index()));
        }
    }

    /** A body shaped by the schema, with each field kept, dropped, or replaced by a random value. */
    public static JsonNode mutate(Random rnd, JsonNode schema) {
        String type = schema.path("type").asText("");
        if (rnd.nextInt(8) == 0) {
            return randomJson(rnd, 1);
        }
        switch (type) {
            case "object" -> {
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (p.getKey().equals("video_id") && rnd.nextInt(3) > 0) {
                        o.put("video_id", rnd.nextBoolean() ? STREAM : "no-such-" + rnd.nextInt(9));
                    } else if (rnd.nextInt(3) > 0) {
                        o.set(p.getKey(), mutate(rnd, p.getValue()));
                    }
                }
                return o;
            }
            case "array" -> {
                ArrayNode a = JsonNodeFactory.instance.arrayNode();
                int n = rnd.nextInt(6);
                for (int i = 0; i < n; i++) {
                    a.add(mutate(rnd, schema.path("items")));
                }
                return a;
            }
            case "string" -> {
                JsonNode e = schema.get("enum");
                return e != null && rnd.nextBoolean() ? e.get(rnd.nextInt(e.size()))
                        : JsonNodeFactory.instance.textNode(randomText(rnd));
            }
            case "integer" -> {
                return JsonNodeFactory.instance.numberNode(rnd.nextInt(400) - 50);
            }
            case "number" -> {
                return JsonNodeFactory.instance.numberNode(rnd.nextDouble() * 30 - 5);
            }
            case "boolean" -> {
                return JsonNodeFactory.instance.booleanNode(rnd.nextBoolean());
            }
            default -> {
                return randomJson(rnd, 1);
            }
        }
    }

    public static JsonNode randomJson(Random rnd, int depth) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (rnd.nextInt(depth > 2 ? 5 : 7)) {
            case 0:
                return f.nullNode();
            case 1:
                return f.numberNode(rnd.nextGaussian() * 1e6);
            case 2:
                return f.textNode(randomText(rnd));
            case 3:
                return f.booleanNode(rnd.nextBoolean());
            case 4:
                return f.numberNode(rnd.nextLong());
            case 5: {
                ArrayNode a = f.arrayNode();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    a.add(randomJson(rnd, depth + 1));
                }
                return a;
            }
            default: {
                ObjectNode o = f.objectNode();
                String[] keys = {"video_id", "time_range", "start_time", "end_time", "regions", "source", "format", "x"};
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    o.set(keys[rnd.nextInt(keys.length)], randomJson(rnd, depth + 1));
                }
                return o;
            }
        }
    }

    public static String randomText(Random rnd) {
        String[] pool = {"", " ", STREAM, STREAM + ":f:0000000003", "../../etc/passwd", "é✓", "%00", "coarse", "1e309",
            "data:image/jpeg;base64,/9j/", "x".repeat(300)};
        return pool[rnd.nextInt(pool.length)];
    }
}
