package io.videoworld.query.perception;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.esread.ActivityRepository;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.ActivityDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.Activities;
import io.videoworld.query.perception.PerceptionResponses.Activity;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * recognize_activity over the kitchen camera's four tracks with the person operator's activities
 * indexed for one of them (the person at the counter, track 2): that person answers from pose, the
 * other tracks from their speed, at both granularities, and the response says which is which.
 */
class PoseActivityAnswersTest {
    private static final String STREAM = "people33-cam";
    private static final long EPOCH = 1_700_000_733_000L;
    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ActivityTools tools;

    @BeforeAll
    static void index() throws Exception {
        String url = TestInfra.get().elasticsearchUrl();
        SnapshotStreams.indexCam(url, tmp, STREAM, EPOCH, null);
        transport = EsClients.transport(url);
        ElasticsearchClient es = EsClients.sync(transport);
        EsIndices.ensure(es, List.of(Names.ACTIVITIES_INDEX));
        // Track 2 stands at the counter from 2.0 s (frames 50-95, every 5): standing, then a hand raised over 3.0-3.4 s.
        SnapshotStreams.write(es, EsDocuments.activity(new ActivityDoc(STREAM, EPOCH, 2, "standing", 0.8, 2000, 2800, 5,
                List.of(50L, 55L, 60L, 65L, 70L))));
        SnapshotStreams.write(es, EsDocuments.activity(new ActivityDoc(STREAM, EPOCH, 2, "raising_hand", 0.6, 3000, 3400, 3,
                List.of(75L, 80L, 85L))));
        es.indices().refresh(r -> r.index(Names.ACTIVITIES_INDEX));
        tools = new ActivityTools(new VideoRepository(es), new ObjectRepository(es), new ActivityRepository(es));
    }

    @AfterAll
    static void close() throws Exception {
        transport.close();
    }

    private static Activities ask(String json) throws Exception {
        return tools.recognizeActivity(Args.of(Json.MAPPER.readTree(json)));
    }

    @Test
    void eventsSumThePosedPersonPerLabelAndTheOtherTracksBySpeed() throws Exception {
        Activities a = ask("{\"video_id\":\"" + STREAM + "\",\"start_time\":0,\"end_time\":6,\"top_k\":10}");
        Activity standing = one(a, "person standing");
        assertThat(standing.source()).isEqualTo("pose");
        assertThat(standing.subjects()).containsExactly(STREAM + ":t:000002");
        assertThat(standing.frames()).containsExactly(50L, 55L, 60L, 65L, 70L);
        assertThat(standing.confidence()).isEqualTo(0.5); // 5 of 8 posed samples at 0.8
        Activity hand = one(a, "person raising a hand");
        assertThat(hand.confidence()).isEqualTo(0.225); // 3 of 8 at 0.6
        assertThat(hand.startTime()).isEqualTo(3.0);
        Activity walking = one(a, "person walking");
        assertThat(walking.source()).isEqualTo("track_speed");
        assertThat(walking.subjects()).containsExactlyInAnyOrder(STREAM + ":t:000001", STREAM + ":t:000004");
        assertThat(walking.frames()).isNull();
        assertThat(one(a, "cup present").source()).isEqualTo("track_speed");
        assertThat(a.activities()).hasSize(4);
        assertThat(a.primaryActivity()).isEqualTo("person standing");
        assertThat(a.method()).contains("body pose and hip motion of 1 tracked person").contains("for 3 tracks with no pose indexed");
    }

    @Test
    void atomicListsEachRunAndEachUnposedTrackOnItsOwn() throws Exception {
        Activities a = ask("{\"video_id\":\"" + STREAM + "\",\"start_time\":0,\"end_time\":6,\"granularity\":\"atomic\",\"top_k\":10}");
        // Pose runs first, most confident first; then each unposed track, longest tracked first.
        assertThat(a.activities()).extracting(Activity::label)
                .containsExactlyInAnyOrder("person standing", "person raising a hand", "person walking", "person walking", "cup present");
        assertThat(a.activities().subList(0, 2)).extracting(Activity::label).containsExactly("person standing", "person raising a hand");
        assertThat(a.activities().get(0).confidence()).isEqualTo(0.8);
        assertThat(a.activities().get(1).frames()).containsExactly(75L, 80L, 85L);
        assertThat(a.activities().get(2).subjects()).hasSize(1);
        assertThat(a.method()).contains("each activity run with its own confidence");
    }

    @Test
    void whereNoPoseWasIndexedTheSpeedRuleAnswersAndSaysSo() throws Exception {
        Activities a = ask("{\"video_id\":\"" + STREAM + "\",\"start_time\":0,\"end_time\":1.9}");
        assertThat(a.activities()).extracting(Activity::source).containsOnly("track_speed");
        assertThat(a.method()).startsWith("track motion and labels").contains("with no pose indexed").doesNotContain("body pose");
    }

    private static Activity one(Activities a, String label) {
        List<Activity> found = a.activities().stream().filter(x -> x.label().equals(label)).toList();
        assertThat(found).as(label).hasSize(1);
        return found.get(0);
    }
}
