package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
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
 * {@code POST /v1/streams/{id}/forget}: a time range goes from every timed index and the frame store,
 * and a phrase goes from the text it was read in, the frames it was read from (documents and stored
 * keyframes) and the episodes that hold it; a search for it finds nothing afterwards, what is outside
 * stays, and only a caller that may read the stream may forget in it.
 */
class ForgetTest {
    private static final String ADMIN = "forget-admin-token-0123456789";
    private static final String LOBBY = "forget-lobby-token-0123456789";
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

    private static HttpResponse<String> forget(String stream, String body, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/streams/" + stream + "/forget"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Documents of {@code stream} in every vw- index whose text fields hold {@code phrase}. */
    private static long findable(String stream, String phrase) throws Exception {
        try (RestClientTransport t = EsClients.transport(es)) {
            var c = EsClients.sync(t);
            c.indices().refresh(r -> r.index("vw-*"));
            return c.count(r -> r.index("vw-*").query(q -> q.bool(b -> b.filter(f -> f.term(x -> x.field("stream_id").value(stream)))
                    .must(m -> m.multiMatch(mm -> mm.query(phrase).type(co.elastic.clients.elasticsearch._types.query_dsl.TextQueryType.Phrase)
                            .fields("text", "lines.text", "window_title", "summary", "details", "content")))))).count();
        }
    }

    private static long count(String index, String stream) throws Exception {
        try (RestClientTransport t = EsClients.transport(es)) {
            return EsClients.sync(t).count(r -> r.index(index).query(q -> q.term(x -> x.field("stream_id").value(stream)))).count();
        }
    }

    @Test
    void aTimeRangeGoesFromEveryIndexAndTheStore() throws Exception {
        long epoch = 1_700_010_000_000L;
        Path frames = tmp.resolve("frames");
        IndexedStreams.write(es, "forget-range", epoch, 10, frames);
        HttpResponse<String> r = forget("forget-range", "{\"from\": " + (epoch + 2000) + ", \"to\": \"" + java.time.Instant.ofEpochMilli(epoch + 5000) + "\"}",
                ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(r.body());
        assertThat(report.get("documents").get("vw-frames").asLong()).isEqualTo(4);
        // Shots and episodes of [0, 2] s, [2, 4] s and [4, 6] s share a moment with [2, 5] s.
        assertThat(report.get("documents").get("vw-shots").asLong()).isEqualTo(3);
        assertThat(report.get("documents").get("vw-episodes").asLong()).isEqualTo(3);
        assertThat(report.get("frames_deleted").asLong()).isEqualTo(4);
        assertThat(report.get("total").asLong()).isEqualTo(10);
        for (int s = 0; s < 10; s++) {
            boolean gone = s >= 2 && s <= 5;
            assertThat(Files.exists(frames.resolve(Keyframe.storeKey("forget-range", epoch, s)))).as("keyframe " + s).isEqualTo(!gone);
        }
        assertThat(count("vw-frames", "forget-range")).isEqualTo(6);
        assertThat(count("vw-shots", "forget-range")).isEqualTo(2);
    }

    @Test
    void aPhraseGoesFromEveryPlaceItWasRead() throws Exception {
        long epoch = 1_700_020_000_000L;
        Path frames = tmp.resolve("frames");
        String stream = "lobby-forget-phrase";
        IndexedStreams.write(es, stream, epoch, 6, frames);
        String said = "the launch code is zebra orchid";
        IndexedStreams.put(es, List.of(
                EsDocuments.perception(new Perception(stream, epoch, 3, 3000, "first", List.of(new TextLine(said, 10, 40, 300, 20, 0.95)),
                        said, null, null, "cpu", 320, 200, List.of(), epoch + 3000)),
                EsDocuments.perception(new Perception(stream, epoch, 4, 4000, "first", List.of(new TextLine("weekly planning notes", 10, 40, 300, 20, 0.95)),
                        "weekly planning notes", null, null, "cpu", 320, 200, List.of(), epoch + 4000)),
                EsDocuments.episode(new EpisodeDoc(stream, epoch, 99, 1, "screen_activity", "user", epoch + 3000, epoch + 3500, 3000, 3500,
                        "notes", "Read a note", "The note said: The launch code is Zebra Orchid.", List.of(), List.of(), 1, null, "rules", true,
                        false)),
                EsDocuments.graph(new GraphDoc(stream + ":a:000000003000:g:says", stream, epoch, GraphDoc.EDGE, "says", GraphDoc.UTTERANCE,
                        stream + ":g:speaker:speaker", "speaker", stream + ":a:000000003000:g", "utterance", "speaker says: the launch code is zebra orchid",
                        3000, 3500, List.of(), stream + ":a:000000003000", 1, false))));
        assertThat(findable(stream, "zebra orchid")).isEqualTo(3);
        assertThat(forget(stream, "{\"phrase\": \"zebra orchid\"}", "nobody-token-000000000000").statusCode()).isEqualTo(401);
        assertThat(forget(stream, "{}", ADMIN).statusCode()).isEqualTo(400);
        HttpResponse<String> r = forget(stream, "{\"phrase\": \"zebra orchid\"}", LOBBY);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(r.body());
        assertThat(report.get("documents").get("vw-perception").asLong()).isEqualTo(1);
        assertThat(report.get("documents").get("vw-frames").asLong()).isEqualTo(1);
        assertThat(report.get("documents").get("vw-episodes").asLong()).isEqualTo(1);
        assertThat(report.get("documents").get("vw-graph").asLong()).as("the utterance's edge in the memory graph").isEqualTo(1);
        assertThat(report.get("frames_deleted").asLong()).isEqualTo(1);
        assertThat(findable(stream, "zebra orchid")).isZero();
        assertThat(frames.resolve(Keyframe.storeKey(stream, epoch, 3))).doesNotExist();
        assertThat(frames.resolve(Keyframe.storeKey(stream, epoch, 4))).exists();
        assertThat(findable(stream, "weekly planning notes")).isEqualTo(1);
        assertThat(count("vw-frames", stream)).isEqualTo(5);
    }

    private static Perception screen(String stream, long epoch, long frame, String title, String content) {
        return new Perception(stream, epoch, frame, frame * 1000, "first", List.of(new TextLine(title, 10, 4, 300, 16, 0.95),
                new TextLine(content, 10, 80, 300, 20, 0.95)), title + "\n" + content, null, null, "cpu", 320, 200, List.of(), epoch + frame * 1000);
    }

    @Test
    void anAppGoesFromEveryShotItWasOnScreenIn() throws Exception {
        long epoch = 1_700_030_000_000L;
        Path frames = tmp.resolve("frames");
        String stream = "forget-app";
        IndexedStreams.write(es, stream, epoch, 6, frames); // shots [0, 2), [2, 4), [4, 6); every frame a keyframe
        String vault = "zebra orchid vault";
        IndexedStreams.put(es, List.of(
                EsDocuments.perception(screen(stream, epoch, 2, "Passwords.kdbx - KeePassXC", vault)),
                EsDocuments.perception(screen(stream, epoch, 3, "Passwords.kdbx - KeePassXC", "bank entry " + vault)),
                EsDocuments.perception(screen(stream, epoch, 4, "Inbox - Mail", "weekly planning notes")),
                EsDocuments.episode(new EpisodeDoc(stream, epoch, 99, 1, "screen_activity", "user", epoch + 2000, epoch + 4000, 2000, 4000,
                        "keepassxc", "Looked up a password", "Opened the vault: " + vault, List.of(), List.of(), 1, null, "rules", true, false)),
                // What the memory graph derives from that episode, and an app node of another app that stays.
                EsDocuments.graph(new GraphDoc(stream + ":e:000099:g", stream, epoch, GraphDoc.NODE, "episode", GraphDoc.NODE, stream + ":e:000099:g",
                        "event " + stream + ":e:000099", null, null, "Looked up a password", 2000, 4000, List.of(), stream + ":e:000099", 1, false)),
                EsDocuments.graph(new GraphDoc(stream + ":e:000099:g:uses", stream, epoch, GraphDoc.EDGE, "uses", GraphDoc.LOW, stream + ":g:user:user",
                        "user", stream + ":g:app:keepassxc", "keepassxc", "user uses keepassxc (Looked up a password)", 2000, 4000, List.of(),
                        stream + ":e:000099", 1, false)),
                EsDocuments.graph(new GraphDoc(stream + ":g:app:keepassxc", stream, epoch, GraphDoc.NODE, "app", GraphDoc.NODE, stream + ":g:app:keepassxc",
                        "keepassxc", null, null, "application keepassxc", 2000, 4000, List.of(), null, 1, false)),
                EsDocuments.graph(new GraphDoc(stream + ":g:app:mail", stream, epoch, GraphDoc.NODE, "app", GraphDoc.NODE, stream + ":g:app:mail",
                        "mail", null, null, "application mail", 4000, 5000, List.of(), null, 1, false)),
                new io.videoworld.connectors.es.EsWrite(io.videoworld.core.Names.DEAD_LETTERS_INDEX, "dl-" + stream, 1,
                        Json.MAPPER.writeValueAsBytes(java.util.Map.of("index", "vw-perception", "doc_id", io.videoworld.core.Ids.frame(stream, 3),
                                "stream_id", stream, "reason", "refused", "source", "{\"text\": \"" + vault + "\"}", "failed_at_ms", epoch)))));
        assertThat(findable(stream, vault)).isEqualTo(3);
        assertThat(count("vw-dead-letters", stream)).isEqualTo(1);
        assertThat(forget(stream, "{\"app\": \"KeePassXC\", \"phrase\": \"x\"}", ADMIN).statusCode()).isEqualTo(400);
        assertThat(forget(stream, "{\"app\": \" - \"}", ADMIN).statusCode()).isEqualTo(400);
        HttpResponse<String> r = forget(stream, "{\"app\": \"KeePassXC\"}", ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(r.body());
        assertThat(report.get("app").asText()).isEqualTo("KeePassXC");
        JsonNode docs = report.get("documents");
        assertThat(docs.get("vw-perception").asLong()).isEqualTo(2);
        assertThat(docs.get("vw-frames").asLong()).as("the shot [2, 4)").isEqualTo(2);
        assertThat(docs.get("vw-shots").asLong()).isEqualTo(1);
        assertThat(docs.get("vw-episodes").asLong()).isEqualTo(1);
        assertThat(docs.get("vw-dead-letters").asLong()).isEqualTo(1);
        assertThat(docs.get("vw-graph").asLong()).as("the episode's node, its uses edge and the app's node").isEqualTo(3);
        assertThat(report.get("frames_deleted").asLong()).isEqualTo(2);
        // Nothing of the app can be found, the store holds none of its keyframes, and the rest stays.
        assertThat(findable(stream, vault)).isZero();
        assertThat(findable(stream, "KeePassXC")).isZero();
        assertThat(count("vw-dead-letters", stream)).isZero();
        for (int f = 0; f < 6; f++) {
            boolean gone = f == 2 || f == 3;
            assertThat(Files.exists(frames.resolve(Keyframe.storeKey(stream, epoch, f)))).as("keyframe " + f).isEqualTo(!gone);
        }
        assertThat(count("vw-frames", stream)).isEqualTo(4);
        assertThat(count("vw-shots", stream)).isEqualTo(2);
        assertThat(findable(stream, "weekly planning notes")).isEqualTo(1);
        assertThat(count("vw-episodes", stream)).isEqualTo(3);
        assertThat(count("vw-graph", stream)).as("the other app's node").isEqualTo(1);
    }
}
