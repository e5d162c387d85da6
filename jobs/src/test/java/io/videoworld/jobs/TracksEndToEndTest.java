package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real footage (OpenCV's vtest.avi: pedestrians on a square, from Debian's opencv-doc) pushed
 * through the whole job with detection at 3 fps: people come back as tracks in vw-tracks, and the
 * object and entity tools answer over REST from them.
 */
class TracksEndToEndTest {
    private static final String STREAM = "plaza-cam";
    private static final long EPOCH = System.currentTimeMillis();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;
    private static QueryServer server;
    private static Query mine;

    @BeforeAll
    static void pushFootage() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        Path video = ModelDirectory.samples().resolve("vtest.avi");
        assertThat(VideoWorldCli.run("push", video.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "plaza.frames",
                "--stream-id", STREAM, "--epoch-ms", String.valueOf(EPOCH), "--width", "640")).isZero();
        job = IngestRun.start(infra, "plaza", tmp.resolve("frames"), conf -> conf.set(DetectOptions.FPS, 3.0));
        mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
        // The last sample ends every track, so dead tracks mean the whole video went through.
        IngestRun.await("tracks of the whole video", 400, () -> IngestRun.count(es, Names.TRACKS_INDEX, Query.of(q -> q.bool(b -> b.filter(mine)
                .filter(IngestRun.term("alive", "false"))))) >= 3 && IngestRun.count(es, Names.TRACKS_INDEX, Query.of(q -> q.bool(b -> b
                .filter(mine).filter(IngestRun.term("alive", "true"))))) == 0);
        server = new QueryServer(QueryConfig.of(infra.elasticsearchUrl(), tmp.resolve("frames").toString())
                .withDetector(ObjectDetector.load(ModelDirectory.locate(), "centernet", List.of(), 0, 0.1))).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        job.cancel().get();
        transport.close();
    }

    private static JsonNode ok(String tool, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/tools/" + tool))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static List<JsonNode> tracks() throws Exception {
        return es.search(s -> s.index(Names.TRACKS_INDEX).size(200).query(mine), JsonNode.class).hits().hits().stream().map(h -> h.source()).toList();
    }

    @Test
    void pedestriansBecomePersonTracksWithTimelines() throws Exception {
        List<JsonNode> people = tracks().stream().filter(t -> t.get("category").asText().equals("person") && t.get("samples").asInt() >= 6).toList();
        assertThat(people).as("person tracks of 2 s or more").hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode t : people) {
            assertThat(t.get("timeline")).hasSize(t.get("samples").asInt());
            assertThat(t.get("last_seen_ms").asLong()).isGreaterThan(t.get("first_seen_ms").asLong());
            assertThat(t.get("appearance")).hasSize(128);
            JsonNode box = t.get("timeline").get(0).get("bbox");
            assertThat(box.get(2).asDouble()).isGreaterThan(box.get(0).asDouble());
        }
        long sampled = IngestRun.count(es, Names.DETECTIONS_INDEX, mine);
        assertThat(sampled).as("frames sampled at 3 fps").isBetween(200L, 260L);
    }

    @Test
    void aPedestrianCanBeRegisteredFollowedAndAskedAbout() throws Exception {
        JsonNode longest = tracks().stream().filter(t -> t.get("category").asText().equals("person"))
                .max((a, b) -> Integer.compare(a.get("samples").asInt(), b.get("samples").asInt())).orElseThrow();
        JsonNode point = longest.get("timeline").get(longest.get("timeline").size() / 2);
        double t = point.get("pts_ms").asLong() / 1000.0;
        JsonNode b = point.get("bbox");
        String bbox = "[" + b.get(0) + "," + b.get(1) + "," + (b.get(2).asDouble() - b.get(0).asDouble()) + "," + (b.get(3).asDouble() - b.get(1).asDouble()) + "]";

        JsonNode seen = ok("detect_objects", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":" + t + ",\"category\":\"person\",\"confidence_threshold\":0.2}");
        assertThat(seen.get("detection_method").asText()).isEqualTo("precomputed");
        assertThat(seen.get("objects")).isNotEmpty().allSatisfy(o -> assertThat(o.get("category").asText()).isEqualTo("person"));

        JsonNode entity = ok("register_entity", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":" + t + ",\"entity_hint\":\"pedestrian\",\"bbox\":" + bbox + "}");
        String id = entity.get("entity_id").asText();
        assertThat(entity.get("associated_tracks").get(0).asText()).isEqualTo(longest.get("track_id").asText());
        assertThat(ok("register_entity", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":" + t + ",\"bbox\":" + bbox + "}")
                .get("entity_id").asText()).as("same box, same entity").isEqualTo(id);

        JsonNode path = ok("get_entity_trajectory", "{\"video_id\":\"" + STREAM + "\",\"entity_id\":\"" + id + "\",\"min_confidence\":0}");
        assertThat(path.get("first_appearance").asDouble()).isEqualTo(longest.get("first_seen_ms").asLong() / 1000.0);
        assertThat(path.get("trajectory").get(0).get("bboxes")).isNotEmpty();
        assertThat(path.get("trajectory").get(0).get("path_summary").asText()).isNotBlank();

        JsonNode state = ok("query_entity_state", "{\"video_id\":\"" + STREAM + "\",\"entity_id\":\"" + id + "\",\"time\":" + t
                + ",\"query\":\"Is the person walking?\"}");
        assertThat(state.get("answer_source").asText()).isEqualTo("structured");
        assertThat(state.get("answer").asText()).contains("person");
        assertThat(state.get("crop").get("data").asText()).isNotEmpty();

        JsonNode listed = ok("list_entities", "{\"video_id\":\"" + STREAM + "\"}");
        assertThat(listed.get("entities")).anySatisfy(e -> assertThat(e.get("entity_id").asText()).isEqualTo(id));

        JsonNode rel = ok("spatial_relation", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":" + t + ",\"subject\":\"" + id + "\"}");
        assertThat(rel.get("subject").get("id").asText()).isEqualTo(id);

        JsonNode acts = ok("recognize_activity", "{\"video_id\":\"" + STREAM + "\",\"start_time\":0,\"end_time\":60}");
        assertThat(acts.get("primary_activity").asText()).startsWith("person");

        JsonNode scene = ok("get_scene_attributes", "{\"video_id\":\"" + STREAM + "\",\"timestamp\":" + t + "}");
        assertThat(scene.get("camera_motion").asText()).as("a fixed camera").isEqualTo("static");
        assertThat(scene.get("camera_angle").asText()).isEqualTo("long_shot");
    }

    private static List<JsonNode> all(String index, Query q) throws Exception {
        return es.search(s -> s.index(index).size(5000).query(q), JsonNode.class).hits().hits().stream().map(h -> h.source()).toList();
    }

    @Test
    void theMemoryGraphHoldsEachTrackAndEventOnceAndAskCitesItsEdges() throws Exception {
        List<JsonNode> tracks = tracks();
        // Episodes close after the stream goes idle: wait until every event has its node.
        IngestRun.await("graph nodes of every event", 180, () -> {
            long events = IngestRun.count(es, Names.EPISODES_INDEX, mine);
            return events > 0 && IngestRun.count(es, Names.GRAPH_INDEX, Query.of(q -> q.bool(b -> b.filter(mine)
                    .filter(IngestRun.term("kind", "episode"))))) == events;
        });
        List<JsonNode> graph = all(Names.GRAPH_INDEX, mine);
        List<JsonNode> trackEdges = graph.stream().filter(g -> g.get("kind").asText().equals("appears_in") && g.get("level").asText().equals("high"))
                .toList();
        assertThat(trackEdges).as("one edge per track, no more").hasSize(tracks.size());
        // The last sample's detection document and the track it ended go through different bulk requests: wait for both.
        java.util.Set<String> named = new java.util.HashSet<>();
        trackEdges.forEach(e -> e.get("frame_ids").forEach(f -> named.add(f.asText())));
        java.util.Set<String> sampled = new java.util.HashSet<>();
        IngestRun.await("the detection documents of the frames the graph names", 60, () -> {
            sampled.clear();
            all(Names.DETECTIONS_INDEX, mine).forEach(d -> sampled.add(io.videoworld.core.Ids.frame(STREAM, d.get("frame_index").asLong())));
            return sampled.containsAll(named);
        });
        for (JsonNode t : tracks) {
            JsonNode e = trackEdges.stream().filter(g -> g.get("graph_id").asText().equals(t.get("track_id").asText() + ":g:appears_in"))
                    .findFirst().orElseThrow();
            assertThat(e.get("start_ms").asLong()).isEqualTo(t.get("first_seen_ms").asLong());
            assertThat(e.get("end_ms").asLong()).isEqualTo(t.get("last_seen_ms").asLong());
            assertThat(e.get("source_label").asText()).startsWith(t.get("category").asText() + " (track ");
            assertThat(e.get("frame_ids")).isNotEmpty().allSatisfy(f -> assertThat(sampled).as("a sampled frame").contains(f.asText()));
            assertThat(e.get("frame_ids").get(0).asText()).isEqualTo(io.videoworld.core.Ids.frame(STREAM, t.get("first_frame").asLong()));
        }
        for (JsonNode ep : all(Names.EPISODES_INDEX, mine)) {
            String id = ep.get("event_id").asText();
            for (JsonNode label : ep.get("labels")) {
                JsonNode edge = graph.stream().filter(g -> g.get("graph_id").asText().equals(id + ":g:appears_in:" + label.asText())).findFirst()
                        .orElseThrow(() -> new AssertionError("no edge for " + label + " in " + id));
                assertThat(edge.get("start_ms").asLong()).isEqualTo(ep.get("start_pts_ms").asLong());
                assertThat(edge.get("end_ms").asLong()).isEqualTo(ep.get("end_pts_ms").asLong());
                assertThat(edge.get("clip_id").asText()).isEqualTo(id);
            }
        }
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/ask"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"When was a person on the square?\", \"stream_ids\": [\"" + STREAM + "\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode first = Json.MAPPER.readTree(r.body()).get("evidence").get(0);
        String edgeId = first.get("segment_id").asText();
        assertThat(edgeId).as("the best clip comes from a graph edge").startsWith("edge:");
        JsonNode cited = graph.stream().filter(g -> g.get("graph_id").asText().equals(edgeId.substring(5))).findFirst().orElseThrow();
        assertThat(first.get("start_time").asDouble()).isEqualTo(cited.get("start_ms").asLong() / 1000.0);
        assertThat(first.get("end_time").asDouble() - first.get("start_time").asDouble()).isLessThanOrEqualTo(10.0);
    }
}
