package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.Json;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * list_entities lists the tracked objects no registered entity claims as candidates (kind
 * "track"), after the registered entities (kind "entity"), and a listed track id works as an
 * entity id in track_entity.
 */
class EntityCandidatesTest {
    private static final String CAM = "entity-candidates";
    private static final long EPOCH = 1_700_003_000_000L;
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        // Five person tracks, 2 s apart, each seen for 1 s; the walker entity claims the first.
        IndexedStreams.write(es, CAM, EPOCH, 10, tmp);
        try (RestClientTransport t = EsClients.transport(es)) {
            new ObjectRepository(EsClients.sync(t)).save(new ObjectRepository.Entity("walker", CAM, "walker", "the first walker", "person",
                    List.of(Ids.track(CAM, 1)), EPOCH, null));
            // The save does not force a refresh, and the server below reads through its own repository.
            EsClients.sync(t).indices().refresh(r -> r.index("vw-*"));
        }
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> tool(String name, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + name))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(String name, String body) throws Exception {
        HttpResponse<String> r = tool(name, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void unclaimedTracksAreListedAsCandidatesAfterTheRegisteredEntities() throws Exception {
        JsonNode all = ok("list_entities", "{\"video_id\": \"" + CAM + "\"}");
        List<String> kinds = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        all.get("entities").forEach(e -> {
            kinds.add(e.get("kind").asText());
            ids.add(e.get("entity_id").asText());
        });
        assertThat(kinds).containsExactly("entity", "track", "track", "track", "track");
        assertThat(ids).containsExactly("walker", Ids.track(CAM, 2), Ids.track(CAM, 3), Ids.track(CAM, 4), Ids.track(CAM, 5));
        assertThat(all.get("total_count").asInt()).isEqualTo(5);
        JsonNode second = all.get("entities").get(1);
        assertThat(second.get("category").asText()).isEqualTo("person");
        assertThat(second.get("first_seen").asDouble()).isEqualTo(2.0);
        assertThat(second.get("last_seen").asDouble()).isEqualTo(3.0);
        assertThat(second.get("total_duration").asDouble()).isEqualTo(1.0);
        assertThat(second.get("tracks").get(0).asText()).isEqualTo(Ids.track(CAM, 2));
        assertThat(all.get("entities").get(0).get("tracks").get(0).asText()).isEqualTo(Ids.track(CAM, 1));

        assertThat(ok("list_entities", "{\"video_id\": \"" + CAM + "\", \"include_tracks\": false}").get("entities")).hasSize(1);
        assertThat(ok("list_entities", "{\"video_id\": \"" + CAM + "\", \"category\": \"cup\"}").get("entities")).isEmpty();
        HttpResponse<String> bad = tool("list_entities", "{\"video_id\": \"" + CAM + "\", \"include_tracks\": \"yes\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"field\":\"include_tracks\"");
    }

    @Test
    void aListedTrackIsAnEntityIdForTrackEntity() throws Exception {
        JsonNode t = ok("track_entity", "{\"video_id\": \"" + CAM + "\", \"entity_id\": \"" + Ids.track(CAM, 3) + "\"}");
        assertThat(t.get("trajectory")).isNotEmpty();
        assertThat(t.get("trajectory").get(0).get("track_id").asText()).isEqualTo(Ids.track(CAM, 3));
        assertThat(t.get("first_appearance").asDouble()).isEqualTo(4.0);
        HttpResponse<String> other = tool("track_entity", "{\"video_id\": \"" + CAM + "\", \"entity_id\": \"" + Ids.track("elsewhere", 3) + "\"}");
        assertThat(other.statusCode()).as("a track of another stream").isEqualTo(404);
    }
}
