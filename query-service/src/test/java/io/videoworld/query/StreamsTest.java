package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Json;
import io.videoworld.query.streams.RetentionPolicy;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/streams} with counts from every index, {@code DELETE /v1/streams/{id}} (documents
 * in every index and the stored keyframes; who may), and retention by age applied on a schedule.
 * Streams are written with the ingest job's own document code ({@link IndexedStreams}).
 */
class StreamsTest {
    private static final String ADMIN = "streams-admin-token-0123456789";
    private static final String LOBBY = "streams-lobby-token-0123456789";
    private static final long HOUR = 3_600_000L;
    @TempDir
    static Path tmp;
    private static String es;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        es = TestInfra.get().elasticsearchUrl();
        server = LobbyServer.start(es, tmp, ADMIN, LOBBY);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Documents of {@code stream} in {@code index}, counted by Elasticsearch itself. */
    static long count(String index, String stream) throws Exception {
        try (RestClientTransport t = EsClients.transport(es)) {
            return EsClients.sync(t).count(r -> r.index(index).query(q -> q.term(x -> x.field("stream_id").value(stream)))).count();
        }
    }

    private static HttpResponse<String> send(String method, String path, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).method(method,
                HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode listed(String token, String stream) throws Exception {
        HttpResponse<String> r = send("GET", "/v1/streams", token);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        for (JsonNode s : Json.MAPPER.readTree(r.body()).get("streams")) {
            if (s.get("id").asText().equals(stream)) {
                return s;
            }
        }
        return null;
    }

    @Test
    void theListCountsWhatEachIndexHoldsAndShowsOnlyReadableStreams() throws Exception {
        long epoch = 1_700_001_000_000L;
        IndexedStreams.write(es, "lobby-list", epoch, 10, tmp.resolve("frames"));
        JsonNode s = listed(ADMIN, "lobby-list");
        assertThat(s).isNotNull();
        assertThat(s.get("kind").asText()).isEqualTo("screen");
        assertThat(s.get("status").asText()).isEqualTo("live");
        assertThat(s.get("frames").asLong()).isEqualTo(10);
        assertThat(s.get("shots").asLong()).isEqualTo(5);
        assertThat(s.get("episodes").asLong()).isEqualTo(5);
        assertThat(s.get("tracks").asLong()).isEqualTo(5);
        assertThat(s.get("time_range").get("start_ms").asLong()).isEqualTo(epoch);
        assertThat(s.get("time_range").get("duration_seconds").asDouble()).isEqualTo(9.0);
        assertThat(s.get("last_activity").asText()).isEqualTo(java.time.Instant.ofEpochMilli(epoch + 9000).toString());
        IndexedStreams.write(es, "garage-list", epoch, 4, tmp.resolve("frames"));
        assertThat(listed(LOBBY, "lobby-list")).isNotNull();
        assertThat(listed(LOBBY, "garage-list")).as("another team's stream").isNull();
        assertThat(listed(ADMIN, "garage-list").get("shots").asLong()).isEqualTo(2);
    }

    @Test
    void deletingAStreamRemovesItEverywhereAndOnlyForThoseWhoMayReadIt() throws Exception {
        long epoch = 1_700_002_000_000L;
        Path frames = tmp.resolve("frames");
        IndexedStreams.write(es, "garage-del", epoch, 6, frames);
        IndexedStreams.write(es, "lobby-keep", epoch, 6, frames);
        assertThat(send("DELETE", "/v1/streams/garage-del", LOBBY).statusCode()).isEqualTo(403);
        assertThat(send("DELETE", "/v1/streams/lobby-never-indexed", LOBBY).statusCode()).isEqualTo(404);
        HttpResponse<String> r = send("DELETE", "/v1/streams/garage-del", ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        // 1 stream + 6 frames + 3 shots + 3 episodes + 3 tracks
        assertThat(Json.MAPPER.readTree(r.body()).get("documents").asLong()).isEqualTo(16);
        for (String index : EsIndices.ALL) {
            assertThat(count(index, "garage-del")).as(index).isZero();
        }
        assertThat(frames.resolve("garage-del")).doesNotExist();
        assertThat(listed(ADMIN, "garage-del")).isNull();
        assertThat(count("vw-frames", "lobby-keep")).isEqualTo(6);
        assertThat(frames.resolve(Keyframe.storeKey("lobby-keep", epoch, 5))).exists();
        assertThat(send("DELETE", "/v1/streams/garage-del", ADMIN).statusCode()).as("already gone").isEqualTo(404);
        r = send("DELETE", "/v1/streams/lobby-keep", LOBBY);
        assertThat(r.statusCode()).as("a token that may read it").isEqualTo(200);
        assertThat(count("vw-shots", "lobby-keep")).isZero();
    }

    @Test
    void retentionDeletesWhatIsOlderOnASchedule() throws Exception {
        // Scoped to this test's streams: the Elasticsearch is shared with other tests, whose fixtures are old.
        Path frames = tmp.resolve("retained");
        long now = System.currentTimeMillis();
        // Ten seconds of a stream that ended a day ago, and one whose first half is older than the hour kept.
        IndexedStreams.write(es, "ret-old", now - 24 * HOUR, 10, frames);
        long minute = 60_000;
        long epoch = now - HOUR - 5 * minute + 30_000;
        IndexedStreams.write(es, "ret-live", epoch, 10, minute, frames);
        try (QueryServer kept = new QueryServer(QueryConfig.of(es, frames.toString())
                .withRetention(new RetentionPolicy(Duration.ofHours(1), Duration.ofMillis(200), List.of("ret-*")))).start("127.0.0.1", 0)) {
            long deadline = System.currentTimeMillis() + 20_000;
            // Tracks go last in a pass; once they are gone the first pass is over.
            while ((count("vw-videos", "ret-old") > 0 || count("vw-tracks", "ret-live") > 3) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(count("vw-videos", "ret-old")).as("the whole old stream").isZero();
            assertThat(count("vw-frames", "ret-old")).isZero();
            assertThat(frames.resolve("ret-old")).doesNotExist();
            // ret-live, a frame a minute: frames 0-4 are 1h4m30s to 1h0m30s old; 5-9 are younger than the hour.
            assertThat(count("vw-frames", "ret-live")).isEqualTo(5);
            assertThat(frames.resolve(Keyframe.storeKey("ret-live", epoch, 3))).doesNotExist();
            assertThat(frames.resolve(Keyframe.storeKey("ret-live", epoch, 6))).exists();
            // Shots and episodes end 2, 4, 6, 8, 10 minutes in, tracks are last seen 1, 3, 5, 7, 9: the first two of each are past the hour.
            assertThat(count("vw-shots", "ret-live")).isEqualTo(3);
            assertThat(count("vw-episodes", "ret-live")).isEqualTo(3);
            assertThat(count("vw-tracks", "ret-live")).isEqualTo(3);
            assertThat(count("vw-videos", "ret-live")).isEqualTo(1);
        }
    }
}
