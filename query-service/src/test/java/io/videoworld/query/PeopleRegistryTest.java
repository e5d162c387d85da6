package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.framestore.LocalFrameStore;
import io.videoworld.core.ActivityDoc;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Names;
import io.videoworld.core.SourceKind;
import io.videoworld.query.auth.Auth;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The person registry over REST on two kitchen-camera streams whose person at the counter (track
 * 2) has activities indexed: naming her "Ana" in both gives one person id; list_entities,
 * track_entity and query_entity_state answer for her across the streams, the last from her
 * activities and honouring the question; her history is appended to, not overwritten; forgetting
 * her leaves nothing of her in any index or in the frame store, and keeps everything else.
 */
class PeopleRegistryTest {
    private static final String ADMIN = "people-admin-token-0123456789";
    private static final String ONE = "people-one-token-0123456789";
    private static final String RUN = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
    private static final String A = "people33-a-" + RUN;
    private static final String B = "people33-b-" + RUN;
    private static final long EPOCH_A = 1_700_000_833_000L;
    private static final long EPOCH_B = 1_700_000_933_000L;
    private static final String NAME = "Ana Lima " + RUN;
    private static final double[] COOK = {0.3, 0.2, 0.25, 0.75};
    @TempDir
    static Path tmp;
    private static String es;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        es = TestInfra.get().elasticsearchUrl();
        Path frames = tmp.resolve("frames");
        for (String s : List.of(A, B)) {
            long epoch = s.equals(A) ? EPOCH_A : EPOCH_B;
            SnapshotStreams.indexCam(es, tmp, s, epoch, null);
            keyframes(s, epoch, frames);
        }
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, List.of(Names.ACTIVITIES_INDEX, Names.GRAPH_INDEX));
            // What the memory graph derives from her track 2 in A (its node, appears_in, a does edge) and from walker 1.
            String her = A + ":t:000002";
            SnapshotStreams.write(c, EsDocuments.graph(new io.videoworld.core.GraphDoc(her + ":g", A, EPOCH_A, io.videoworld.core.GraphDoc.NODE,
                    "person", io.videoworld.core.GraphDoc.NODE, her + ":g", "person (track 2)", null, null, "person 2, a person", 2000, 3800,
                    List.of(), her, 2, false)));
            SnapshotStreams.write(c, EsDocuments.graph(new io.videoworld.core.GraphDoc(her + ":g:appears_in", A, EPOCH_A,
                    io.videoworld.core.GraphDoc.EDGE, "appears_in", io.videoworld.core.GraphDoc.HIGH, her + ":g", "person (track 2)", A + ":g:camera:" + A,
                    "stream " + A, "a person (track 2) appears in stream " + A, 2000, 3800, List.of(), her, 2, false)));
            SnapshotStreams.write(c, EsDocuments.graph(new io.videoworld.core.GraphDoc(A + ":act:2:g", A, EPOCH_A, io.videoworld.core.GraphDoc.EDGE,
                    "does", io.videoworld.core.GraphDoc.LOW, her + ":g", "person (track 2)", A + ":g:activity:standing", "standing",
                    "person (track 2) does standing", 2000, 2800, List.of(), A + ":act:2", 5, false)));
            SnapshotStreams.write(c, EsDocuments.graph(new io.videoworld.core.GraphDoc(A + ":t:000001:g", A, EPOCH_A, io.videoworld.core.GraphDoc.NODE,
                    "person", io.videoworld.core.GraphDoc.NODE, A + ":t:000001:g", "person (track 1)", null, null, "person 1, a person", 0, 1000,
                    List.of(), A + ":t:000001", 2, false)));
            SnapshotStreams.write(c, EsDocuments.activity(new ActivityDoc(A, EPOCH_A, 2, "standing", 0.8, 2000, 2800, 5, List.of(50L, 55L, 60L, 65L, 70L))));
            SnapshotStreams.write(c, EsDocuments.activity(new ActivityDoc(A, EPOCH_A, 2, "raising_hand", 0.6, 3000, 3400, 3, List.of(75L, 80L, 85L))));
            SnapshotStreams.write(c, EsDocuments.activity(new ActivityDoc(B, EPOCH_B, 2, "sitting", 0.7, 2000, 3800, 10,
                    List.of(50L, 55L, 60L, 65L, 70L, 75L, 80L, 85L, 90L, 95L))));
            c.indices().refresh(r -> r.index("vw-*"));
        }
        Path tokens = Files.writeString(tmp.resolve("tokens.json"),
                "{\"tokens\": [{\"name\": \"one\", \"token\": \"" + ONE + "\", \"streams\": [\"" + A + "\"]}]}");
        server = new QueryServer(QueryConfig.of(es, frames.toString()).withAuth(Auth.load(tokens, ADMIN))).start("127.0.0.1", 0);
    }

    /** A stored JPEG keyframe and its frame document at every detection frame (0, 5, .., 145). */
    private static void keyframes(String stream, long epoch, Path dir) throws Exception {
        LocalFrameStore store = new LocalFrameStore(dir);
        BufferedImage img = new BufferedImage(640, 360, BufferedImage.TYPE_INT_RGB);
        var g = img.getGraphics();
        g.setColor(new Color(90, 120, 60));
        g.fillRect(0, 0, 640, 360);
        g.setColor(new Color(200, 40, 40));
        g.fillRect(192, 72, 160, 270);
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", jpeg);
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            for (long f = 0; f < 150; f += 5) {
                String key = Keyframe.storeKey(stream, epoch, f);
                store.put(key, jpeg.toByteArray());
                SnapshotStreams.write(c, EsDocuments.frame(new FrameDoc(stream, epoch, f, f * 40, epoch + f * 40, 0, 640, 360, jpeg.size(),
                        SourceKind.VIDEO, stream + ":shot:" + String.format("%010d", f / 50 * 50), null, "first", key)));
            }
            c.indices().refresh(r -> r.index("vw-*"));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody()) : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode tool(String name, String body) throws Exception {
        HttpResponse<String> r = send("POST", "/v1/tools/" + name, body, ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static String bbox(double[] b) {
        return "[" + b[0] + "," + b[1] + "," + b[2] + "," + b[3] + "]";
    }

    private static long count(String index, co.elastic.clients.elasticsearch._types.query_dsl.Query q) throws Exception {
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            c.indices().refresh(r -> r.index("vw-*"));
            return c.count(r -> r.index(index).ignoreUnavailable(true).query(q)).count();
        }
    }

    @Test
    void aNamedPersonIsOnePersonAcrossStreamsUntilForgotten() throws Exception {
        // Only a tracked person can be named: the cup under its own box is refused.
        HttpResponse<String> cup = send("POST", "/v1/tools/register_entity", "{\"video_id\":\"" + A
                + "\",\"timestamp\":3.0,\"bbox\":[0.45,0.5,0.07,0.1],\"name\":\"Mug\"}", ADMIN);
        assertThat(cup.statusCode()).as(cup.body()).isEqualTo(400);

        JsonNode inA = tool("register_entity", "{\"video_id\":\"" + A + "\",\"timestamp\":3.0,\"bbox\":" + bbox(COOK) + ",\"name\":\"" + NAME + "\"}");
        String id = inA.get("entity_id").asText();
        assertThat(id).startsWith("per_");
        assertThat(inA.get("name").asText()).isEqualTo(NAME);
        assertThat(inA.get("associated_tracks")).extracting(JsonNode::asText).containsExactly(A + ":t:000002");
        // The same name, cased and spaced differently, in the other stream: the same person.
        JsonNode inB = tool("register_entity", "{\"video_id\":\"" + B + "\",\"timestamp\":2.5,\"bbox\":" + bbox(COOK) + ",\"name\":\"  "
                + NAME.toLowerCase(java.util.Locale.ROOT).replace(" ", "  ") + "\"}");
        assertThat(inB.get("entity_id").asText()).isEqualTo(id);

        JsonNode listed = tool("list_entities", "{\"video_id\":\"" + A + "\"}");
        List<JsonNode> persons = new ArrayList<>();
        listed.get("entities").forEach(e -> {
            if ("person".equals(e.path("kind").asText())) {
                persons.add(e);
            }
        });
        assertThat(persons).hasSize(1);
        assertThat(persons.get(0).get("entity_id").asText()).isEqualTo(id);
        assertThat(persons.get(0).get("name").asText()).isEqualTo(NAME);

        JsonNode path = tool("track_entity", "{\"video_id\":\"" + A + "\",\"entity_id\":\"" + id + "\"}");
        List<String> tracks = new ArrayList<>();
        List<String> streams = new ArrayList<>();
        path.get("trajectory").forEach(p -> {
            tracks.add(p.get("track_id").asText());
            streams.add(p.path("stream_id").asText("here"));
        });
        assertThat(tracks).containsExactly(A + ":t:000002", B + ":t:000002");
        assertThat(streams).containsExactly("here", B);
        assertThat(path.get("total_appearance_duration").asDouble()).isEqualTo(1.8); // this video's frames 50-95 only

        // State questions from the indexed activities, no vision model.
        JsonNode sitting = tool("query_entity_state", "{\"video_id\":\"" + A + "\",\"entity_id\":\"" + id + "\",\"time\":3.2,\"query\":\"Is she sitting?\"}");
        assertThat(sitting.get("answer_source").asText()).isEqualTo("activities");
        assertThat(sitting.get("answer").asText()).isEqualTo("No: " + NAME + " is raising a hand, not sitting.");
        assertThat(sitting.get("supporting_evidence").asText()).contains("raising a hand 0.60 from 3.0 s to 3.4 s on frames [75, 80, 85]");
        JsonNode doing = tool("query_entity_state", "{\"video_id\":\"" + A + "\",\"entity_id\":\"" + id + "\",\"time\":2.4,\"query\":\"What is the person doing?\"}");
        assertThat(doing.get("answer").asText()).isEqualTo(NAME + " is standing.");
        JsonNode seated = tool("query_entity_state", "{\"video_id\":\"" + B + "\",\"entity_id\":\"" + id + "\",\"time\":3.0,\"query\":\"is she seated\"}");
        assertThat(seated.get("answer").asText()).isEqualTo("Yes: " + NAME.toLowerCase(java.util.Locale.ROOT) + " is sitting."); // as named in that stream
        // The walker has no activities: the measured answer stands.
        JsonNode walker = tool("query_entity_state", "{\"video_id\":\"" + A + "\",\"entity_id\":\"" + A + ":t:000001\",\"time\":1.0,\"query\":\"Is he sitting?\"}");
        assertThat(walker.get("answer_source").asText()).isEqualTo("structured");

        // The history, replayed: where she was seen and what she did, from when to when.
        JsonNode record = Json.MAPPER.readTree(send("GET", "/v1/people/" + id, null, ADMIN).body());
        assertThat(record.get("name").asText()).as("the name given last, spaces collapsed").isEqualTo(NAME.toLowerCase(java.util.Locale.ROOT));
        assertThat(record.get("seen")).extracting(s -> s.get("track_id").asText()).containsExactlyInAnyOrder(A + ":t:000002", B + ":t:000002");
        assertThat(record.get("activities")).extracting(d -> d.get("label").asText() + "@" + d.get("stream_id").asText())
                .containsExactlyInAnyOrder("standing@" + A, "raising_hand@" + A, "sitting@" + B);
        int events = record.get("events").asInt();
        // Her standing grows: a new record is appended, the old one stays, the replay takes the grown one.
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            SnapshotStreams.write(c, EsDocuments.activity(new ActivityDoc(A, EPOCH_A, 2, "standing", 0.75, 2000, 2900, 6,
                    List.of(50L, 55L, 60L, 65L, 70L, 72L))));
            c.indices().refresh(r -> r.index(Names.ACTIVITIES_INDEX));
        }
        JsonNode again = Json.MAPPER.readTree(send("GET", "/v1/people/" + id, null, ADMIN).body());
        assertThat(again.get("events").asInt()).isEqualTo(events + 1);
        JsonNode standing = null;
        for (JsonNode d : again.get("activities")) {
            if (d.get("label").asText().equals("standing")) {
                standing = d;
            }
        }
        assertThat(standing.get("to_ms").asLong()).isEqualTo(2900);
        assertThat(standing.get("samples").asInt()).isEqualTo(6);
        assertThat(count(Names.PEOPLE_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(x -> x.field("person_id").value(id))).filter(f -> f.term(x -> x.field("label").value("standing"))))))).isEqualTo(2);

        // Forgetting needs a caller who may read every stream she was seen in.
        assertThat(send("DELETE", "/v1/people/" + id, null, ONE).statusCode()).isEqualTo(403);
        HttpResponse<String> gone = send("DELETE", "/v1/people/" + id, null, ADMIN);
        assertThat(gone.statusCode()).as(gone.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(gone.body());
        assertThat(report.get("documents").get(Names.TRACKS_INDEX).asLong()).isEqualTo(2);
        assertThat(report.get("documents").get(Names.FRAMES_INDEX).asLong()).isEqualTo(20); // frames 50-95 of each stream
        assertThat(report.get("documents").get(Names.DETECTIONS_INDEX).asLong()).isEqualTo(20);
        assertThat(report.get("documents").get(Names.ACTIVITIES_INDEX).asLong()).isEqualTo(3);
        assertThat(report.get("documents").get(Names.ENTITIES_INDEX).asLong()).isEqualTo(2);
        assertThat(report.get("documents").get(Names.GRAPH_INDEX).asLong()).as("her track's node and the edges from it").isEqualTo(3);
        assertThat(report.get("frames_deleted").asLong()).isEqualTo(20);
        assertThat(count(Names.GRAPH_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(y -> y.field("stream_id")
                .value(A))))).as("walker 1's node stays").isEqualTo(1);

        // Nothing of her is left: not her id, her tracks, her name, her frames or their stored keyframes.
        List<FieldValue> herTracks = List.of(FieldValue.of(A + ":t:000002"), FieldValue.of(B + ":t:000002"));
        assertThat(count("vw-*", co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.bool(b -> b
                .should(s -> s.term(x -> x.field("person_id").value(id))).should(s -> s.term(x -> x.field("entity_id").value(id)))
                .should(s -> s.terms(x -> x.field("track_id").terms(v -> v.value(herTracks))))
                .should(s -> s.terms(x -> x.field("track_ids").terms(v -> v.value(herTracks))))
                .should(s -> s.matchPhrase(x -> x.field("name").query(NAME)))
                .minimumShouldMatch("1"))))).isZero();
        for (String s : List.of(A, B)) {
            long epoch = s.equals(A) ? EPOCH_A : EPOCH_B;
            for (long f = 0; f < 150; f += 5) {
                boolean hers = f >= 50 && f < 100;
                assertThat(Files.exists(tmp.resolve("frames").resolve(Keyframe.storeKey(s, epoch, f)))).as(s + " keyframe " + f).isEqualTo(!hers);
            }
            long frameF = 60;
            assertThat(count(Names.FRAMES_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.bool(b -> b
                    .filter(x -> x.term(y -> y.field("stream_id").value(s))).filter(x -> x.term(y -> y.field("frame_index").value(frameF))))))).isZero();
            assertThat(count(Names.FRAMES_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(y -> y.field("stream_id")
                    .value(s))))).isEqualTo(20);
            assertThat(count(Names.TRACKS_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(y -> y.field("stream_id")
                    .value(s))))).isEqualTo(3); // the two walkers and the cup stay
        }
        assertThat(send("GET", "/v1/people/" + id, null, ADMIN).statusCode()).isEqualTo(404);
        JsonNode after = tool("list_entities", "{\"video_id\":\"" + A + "\"}");
        after.get("entities").forEach(e -> assertThat(e.path("kind").asText()).isNotEqualTo("person"));
    }

    @Test
    void aPersonKnownOnlyByFaceInTwoStreamsIsForgottenWithTheirFaceDescriptors() throws Exception {
        String c = "people38-c-" + RUN;
        String d = "people38-d-" + RUN;
        long epochC = 1_700_000_383_000L;
        long epochD = 1_700_000_384_000L;
        String id = "per_face38" + RUN;
        SnapshotStreams.indexCam(es, tmp, c, epochC, null);
        SnapshotStreams.indexCam(es, tmp, d, epochD, null);
        float[] descriptor = new float[1024];
        descriptor[7] = 1;
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient client = EsClients.sync(t);
            // What the ingest job's face-identities operator writes for the walker (track 1) of each stream, linked to one person
            SnapshotStreams.write(client, EsDocuments.face(new io.videoworld.core.TrackFace(c, epochC, 1, descriptor, 3, 0, 1000,
                    List.of(0L, 10L, 20L), id)));
            SnapshotStreams.write(client, EsDocuments.face(new io.videoworld.core.TrackFace(d, epochD, 1, descriptor, 2, 500, 900,
                    List.of(10L, 20L), id)));
            client.indices().refresh(r -> r.index("vw-*"));
        }
        var face = co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(x -> x.field("person_id").value(id))).filter(f -> f.term(x -> x.field("kind").value("face")))));
        assertThat(count(Names.PEOPLE_INDEX, face)).isEqualTo(2);
        HttpResponse<String> gone = send("DELETE", "/v1/people/" + id, null, ADMIN);
        assertThat(gone.statusCode()).as(gone.body()).isEqualTo(200);
        JsonNode report = Json.MAPPER.readTree(gone.body());
        assertThat(report.get("documents").get(Names.PEOPLE_INDEX).asLong()).as("both face events, descriptors with them").isEqualTo(2);
        assertThat(report.get("documents").get(Names.TRACKS_INDEX).asLong()).as("the walker's track in each stream").isEqualTo(2);
        assertThat(count(Names.PEOPLE_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(x -> x.field("person_id")
                .value(id))))).isZero();
        for (String s : List.of(c, d)) {
            assertThat(count(Names.TRACKS_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(y -> y.field("stream_id")
                    .value(s))))).as("the other tracks of " + s + " stay").isEqualTo(3);
            assertThat(count(Names.TRACKS_INDEX, co.elastic.clients.elasticsearch._types.query_dsl.Query.of(q -> q.term(y -> y.field("track_id")
                    .value(s + ":t:000001"))))).isZero();
        }
        assertThat(send("DELETE", "/v1/people/" + id, null, ADMIN).statusCode()).isEqualTo(404);
    }
}
