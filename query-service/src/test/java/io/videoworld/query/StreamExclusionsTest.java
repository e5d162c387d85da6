package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.StreamRulesStore;
import io.videoworld.core.Json;
import io.videoworld.core.StreamRules;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PUT/GET /v1/streams/{id}/exclusions}: rules are checked, kept in {@code vw-rules} with every
 * version and the time it applies from (what the ingest job reads), set before the stream has any
 * frame, and only by a caller that may read the stream.
 */
class StreamExclusionsTest {
    private static final String ADMIN = "rules-admin-token-0123456789";
    private static final String LOBBY = "rules-lobby-token-0123456789";
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

    private static HttpResponse<String> call(String method, String stream, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/streams/" + stream + "/exclusions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token);
        b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void rulesAreKeptWithEveryVersionForTheJob() throws Exception {
        String stream = "lobby-rules-" + System.nanoTime();
        HttpResponse<String> none = call("GET", stream, null, LOBBY);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(none.body()).get("versions")).isEmpty();

        long before = System.currentTimeMillis();
        HttpResponse<String> set = call("PUT", stream, "{\"rules\": [\"app:KeePassXC\", \"domain:mybank.com\"]}", LOBBY);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        JsonNode v1 = Json.MAPPER.readTree(set.body()).get("versions").get(0);
        assertThat(v1.get("version").asLong()).isEqualTo(1);
        assertThat(v1.get("since_ms").asLong()).isBetween(before, System.currentTimeMillis());
        assertThat(v1.get("rules").toString()).isEqualTo("[\"app:KeePassXC\",\"domain:mybank.com\"]");
        assertThat(call("PUT", stream, "{\"rules\": []}", ADMIN).statusCode()).isEqualTo(200);

        // What the job reads: both versions, the lifted one last.
        try (RestClientTransport t = EsClients.transport(es)) {
            StreamRules read = new StreamRulesStore(EsClients.sync(t)).read(stream);
            assertThat(read.versions()).hasSize(2);
            assertThat(read.at(v1.get("since_ms").asLong()).rules()).containsExactly("app:KeePassXC", "domain:mybank.com");
            assertThat(read.latest().rules()).isEmpty();
        }
        assertThat(Json.MAPPER.readTree(call("GET", stream, null, ADMIN).body()).get("versions")).hasSize(2);
    }

    @Test
    void badRulesAndOtherCallersAreRefused() throws Exception {
        String stream = "lobby-bad-" + System.nanoTime();
        HttpResponse<String> bad = call("PUT", stream, "{\"rules\": [\"window:Mail\"]}", ADMIN);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("window:Mail");
        assertThat(call("PUT", stream, "{\"rules\": \"private\"}", ADMIN).statusCode()).isEqualTo(400);
        assertThat(call("PUT", stream, "{\"rules\": [\"title:(\"]}", ADMIN).statusCode()).isEqualTo(400);
        assertThat(call("PUT", "desk-" + System.nanoTime(), "{\"rules\": [\"private\"]}", LOBBY).statusCode()).isEqualTo(403);
        assertThat(call("PUT", stream, "{\"rules\": [\"private\"]}", "nobody-token-000000000000").statusCode()).isEqualTo(401);
        assertThat(Json.MAPPER.readTree(call("GET", stream, null, ADMIN).body()).get("versions")).isEmpty();
    }
}
