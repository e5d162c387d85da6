package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.core.Keyframe;
import io.videoworld.query.auth.Auth;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/streams/budget} over real Elasticsearch and a real frame store: each stream's
 * stored keyframe bytes are listed in {@code /v1/streams}; a pass deletes the oldest keyframes of a
 * stream over its budget, then the oldest of any stream while all are over the total, and no others;
 * what was read from them (episodes) stays; only an administrator may run it.
 */
class StorageBudgetTest {
    private static final String ADMIN = "budget-admin-token-0123456789";
    private static final String LOBBY = "budget-lobby-token-0123456789";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        Path tokens = Files.writeString(tmp.resolve("tokens.json"),
                "{\"tokens\": [{\"name\": \"lobby\", \"token\": \"" + LOBBY + "\", \"streams\": [\"budget-*\"]}]}");
        server = new QueryServer(QueryConfig.of(es, tmp.resolve("frames").toString()).withAuth(Auth.load(tokens, ADMIN))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> send(HttpRequest.Builder b, String token) throws Exception {
        return HTTP.send(b.header("Content-Type", "application/json").header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }

    private static long stored(String stream) throws Exception {
        JsonNode list = Json.MAPPER.readTree(send(at("/v1/streams").GET(), LOBBY).body()).get("streams");
        for (JsonNode s : list) {
            if (s.get("id").asText().equals(stream)) {
                return s.get("stored_bytes").asLong();
            }
        }
        throw new AssertionError(stream + " not listed: " + list);
    }

    @Test
    void theOldestKeyframesGoUntilEachStreamAndAllAreWithinBudget() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        Path frames = tmp.resolve("frames");
        String a = "budget-a-" + System.nanoTime();
        String b = "budget-b-" + System.nanoTime();
        long epochA = 1_000_000_000_000L;
        long epochB = epochA + 500; // b's keyframes are each half a second younger than a's
        IndexedStreams.write(es, a, epochA, 6, frames); // six stored keyframes of 3 bytes each
        IndexedStreams.write(es, b, epochB, 6, frames);
        assertThat(stored(a)).isEqualTo(18);
        assertThat(stored(b)).isEqualTo(18);
        String scope = ", \"streams\": [\"" + a + "\", \"" + b + "\"]";
        String body = "{\"per_stream_bytes\": 12, \"total_bytes\": 18" + scope + "}";
        assertThat(send(at("/v1/streams/budget").POST(HttpRequest.BodyPublishers.ofString(body)), LOBBY).statusCode()).isEqualTo(403);

        // Scoped to these two streams (the Elasticsearch of the tests holds others').
        HttpResponse<String> r = send(at("/v1/streams/budget").POST(HttpRequest.BodyPublishers.ofString(
                "{\"per_stream_bytes\": 12" + scope + "}")), ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(r.body());
        assertThat(report.get("freed").get(a).asLong()).isEqualTo(6);
        assertThat(report.get("freed").get(b).asLong()).isEqualTo(6);
        assertThat(stored(a)).isEqualTo(12);
        assertThat(stored(b)).isEqualTo(12);
        for (int f = 0; f < 6; f++) {
            assertThat(Files.exists(frames.resolve(Keyframe.storeKey(a, epochA, f)))).as("a " + f).isEqualTo(f >= 2);
            assertThat(Files.exists(frames.resolve(Keyframe.storeKey(b, epochB, f)))).as("b " + f).isEqualTo(f >= 2);
        }
        // A total: the oldest of both go, alternating a, b by event time, until all are within it.
        long all = report.get("used_after").asLong();
        r = send(at("/v1/streams/budget").POST(HttpRequest.BodyPublishers.ofString("{\"total_bytes\": " + (all - 9) + scope + "}")), ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        report = Json.MAPPER.readTree(r.body());
        assertThat(report.get("used_after").asLong()).isLessThanOrEqualTo(all - 9);
        assertThat(report.get("frames_deleted").asLong()).isEqualTo(3);
        assertThat(stored(a)).isEqualTo(6);
        assertThat(stored(b)).isEqualTo(9);
        assertThat(Files.exists(frames.resolve(Keyframe.storeKey(a, epochA, 3)))).isFalse();
        assertThat(Files.exists(frames.resolve(Keyframe.storeKey(b, epochB, 2)))).isFalse();
        assertThat(Files.exists(frames.resolve(Keyframe.storeKey(b, epochB, 3)))).isTrue();
        JsonNode list = Json.MAPPER.readTree(send(at("/v1/streams").GET(), LOBBY).body()).get("streams");
        long episodes = 0;
        for (JsonNode s : list) {
            if (s.get("id").asText().equals(a) || s.get("id").asText().equals(b)) {
                episodes += s.path("episodes").asLong();
            }
        }
        assertThat(episodes).as("episodes stay").isEqualTo(6);
    }

    @Test
    void aBudgetGivenAtStartIsAppliedOnItsSchedule() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        Path frames = tmp.resolve("scheduled");
        String c = "budget-sched-" + System.nanoTime();
        long epoch = 1_000_000_100_000L;
        IndexedStreams.write(es, c, epoch, 6, frames); // six stored keyframes of 3 bytes each
        // A per-stream budget of 9 bytes, every 300 ms, scoped to this test's stream (the tests' Elasticsearch holds others').
        var policy = new io.videoworld.query.streams.BudgetPolicy(9, 0, java.time.Duration.ofMillis(300), List.of(c));
        try (QueryServer scheduled = new QueryServer(QueryConfig.of(es, frames.toString()).withBudget(policy)).start("127.0.0.1", 0)) {
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline && Files.exists(frames.resolve(Keyframe.storeKey(c, epoch, 2)))) {
                Thread.sleep(100);
            }
        }
        for (int f = 0; f < 6; f++) {
            assertThat(Files.exists(frames.resolve(Keyframe.storeKey(c, epoch, f)))).as("keyframe " + f + ": the oldest three go").isEqualTo(f >= 3);
        }
        assertThat(io.videoworld.query.streams.BudgetPolicy.parseSize("--budget-total", "20GB")).isEqualTo(20L << 30);
        assertThat(io.videoworld.query.streams.BudgetPolicy.parseSize("--budget-total", "4096")).isEqualTo(4096);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.videoworld.query.streams.BudgetPolicy.parseSize("--budget-total", "lots"))
                .hasMessageContaining("--budget-total 'lots'");
    }
}
