package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.query.auth.Auth;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer tokens: no token is a 401, and a token for the lobby cameras learns nothing about the garage. */
class AuthTest {
    private static final String LOBBY_TOKEN = "lobby-team-token-0123456789";
    private static final String ADMIN_TOKEN = "admin-token-abcdefghijklmnop";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Path tokens = Files.writeString(tmp.resolve("tokens.json"),
                "{\"tokens\": [{\"name\": \"lobby-team\", \"token\": \"" + LOBBY_TOKEN + "\", \"streams\": [\"lobby-*\"]}]}");
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString()).withAuth(Auth.load(tokens, ADMIN_TOKEN)))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> call(String token, String video) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/get_video_info"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"" + video + "\"}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRequestWithoutATokenIsRefused() throws Exception {
        HttpResponse<String> r = call(null, "lobby-east");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    }

    @Test
    void anUnknownTokenIsRefused() throws Exception {
        assertThat(call("guessed-token-0000000000", "lobby-east").statusCode()).isEqualTo(401);
    }

    @Test
    void aLobbyTokenReachesLobbyStreamsOnly() throws Exception {
        assertThat(call(LOBBY_TOKEN, "lobby-east").statusCode()).isEqualTo(404);
        HttpResponse<String> garage = call(LOBBY_TOKEN, "garage-west");
        assertThat(garage.statusCode()).isEqualTo(403);
        assertThat(garage.body()).contains("\"field\":\"video_id\"").contains("garage-west");
        HttpResponse<String> frame = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/frames/garage-west:f:0000000001")).header("Authorization", "Bearer " + LOBBY_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(frame.statusCode()).isEqualTo(403);
    }

    @Test
    void askingAboutAnotherTeamsStreamIsForbidden() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/ask"))
                .header("Authorization", "Bearer " + LOBBY_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"Who parked?\", \"stream_ids\": [\"lobby-east\", \"garage-west\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("\"field\":\"stream_ids[1]\"");
    }

    @Test
    void theAdminReachesEverythingAndHealthNeedsNoToken() throws Exception {
        assertThat(call(ADMIN_TOKEN, "garage-west").statusCode()).isEqualTo(404);
        HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"auth\":\"bearer\"");
    }
}
