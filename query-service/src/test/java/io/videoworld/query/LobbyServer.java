package io.videoworld.query;

import io.videoworld.query.auth.Auth;
import java.nio.file.Files;
import java.nio.file.Path;

/** A query service over the test Elasticsearch with an admin token and a "lobby" token that reads streams {@code lobby-*} only. */
final class LobbyServer {
    private LobbyServer() {}

    static QueryServer start(String es, Path tmp, String admin, String lobby) throws Exception {
        Path tokens = Files.writeString(tmp.resolve("tokens.json"),
                "{\"tokens\": [{\"name\": \"lobby\", \"token\": \"" + lobby + "\", \"streams\": [\"lobby-*\"]}]}");
        return new QueryServer(QueryConfig.of(es, tmp.resolve("frames").toString()).withAuth(Auth.load(tokens, admin))).start("127.0.0.1", 0);
    }
}
