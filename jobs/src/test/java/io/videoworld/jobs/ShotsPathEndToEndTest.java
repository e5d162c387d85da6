package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.core.Names;
import io.videoworld.core.Segment;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotTracker;
import io.videoworld.engines.shots.VideoShots;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest path is the benchmark's path: real clips pushed with the CLI at their own frame rate
 * through Kafka and the ingest job come back from {@code vw-shots} as the shots the file path
 * ({@link VideoShots}, what {@code bench shots} scores) finds in the same files.
 */
class ShotsPathEndToEndTest {
    private static final long EPOCH = System.currentTimeMillis();
    /**
     * Real clips from deploy/samples.sh: a trailer's edited dialogue (MPEG-4), a fixed camera on
     * pedestrians (MS-MPEG-4), and from its {@code --shots} set a game cutscene that cuts into TV
     * static (Cinepak, a codec the file path once decoded blank) and a black-and-white film with two
     * cuts (Theora).
     */
    private static final List<String> CLIPS = List.of("Megamind.avi", "vtest.avi", "shots/planetblupi-history2.mkv",
            "shots/Shepard_Calais_1906_FrenchGP.ogv");

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;

    private static String stream(String clip) {
        return "shotpath-" + clip.replaceAll("[^A-Za-z0-9]", "-").toLowerCase(java.util.Locale.ROOT);
    }

    @BeforeAll
    static void pushClips() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        for (String clip : CLIPS) {
            Path file = ModelDirectory.samples().resolve(clip);
            assertThat(file).as("run deploy/samples.sh and deploy/samples.sh --shots first").isRegularFile();
            assertThat(VideoWorldCli.run("push", file.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "shotpath.frames",
                    "--stream-id", stream(clip), "--epoch-ms", String.valueOf(EPOCH))).isZero();
        }
        job = IngestRun.start(infra, "shotpath", tmp.resolve("frames"));
        for (String clip : CLIPS) {
            IngestRun.await("the ended stream " + clip, 240, () -> {
                var v = es.get(g -> g.index(Names.VIDEOS_INDEX).id(stream(clip)), JsonNode.class);
                return v.found() && v.source().get("epoch_ms").asLong() == EPOCH && "ended".equals(v.source().path("status").asText());
            });
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (job != null) {
            job.cancel().get();
        }
        if (transport != null) {
            transport.close();
        }
    }

    /** "start frame, pts, transition" of every shot, in order. */
    private static List<String> written(String clip) throws Exception {
        return es.search(s -> s.index(Names.SHOTS_INDEX).size(200)
                .query(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", stream(clip))).filter(IngestRun.term("kind", "shot"))
                        .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))))
                .sort(o -> o.field(f -> f.field("start_frame").order(SortOrder.Asc))), JsonNode.class)
                .hits().hits().stream().map(h -> h.source())
                .map(d -> d.get("start_frame").asLong() + " @" + d.get("start_pts_ms").asLong() + " " + d.get("transition_in").asText())
                .toList();
    }

    private static List<String> onFile(String clip) throws Exception {
        List<String> out = new ArrayList<>();
        VideoShots.detect(ModelDirectory.samples().resolve(clip).toString(), ShotParams.defaults(), ShotTracker.Output.shots(s -> {
            if (Segment.SHOT.equals(s.kind())) {
                out.add(s.startFrame() + " @" + s.startPtsMs() + " " + s.transitionIn());
            }
        }));
        return out;
    }

    /** Clips whose every shot must match; the black-and-white film's cuts must (see below). */
    private static final List<String> EXACT = CLIPS.subList(0, 3);

    private static List<String> awaitWritten(String clip, int atLeast) throws Exception {
        List<String> job = new ArrayList<>();
        IngestRun.await("every shot of " + clip, 60, () -> {
            job.clear();
            job.addAll(written(clip));
            return job.size() >= atLeast;
        });
        return job;
    }

    /**
     * The job reads 80-pixel JPEG thumbnails made by the producer, the file path the decoder's own
     * 80-pixel pictures: on the grainy black-and-white film the job's path finds a dissolve that the
     * file path does not (the gradual detector fits mixes pixel by pixel). Its cuts are the same.
     */
    @Test
    void onBlackAndWhiteFilmTheJobWritesTheCutsTheBenchFinds() throws Exception {
        String clip = CLIPS.get(3);
        List<String> bench = onFile(clip).stream().filter(s -> !s.endsWith(" dissolve")).toList();
        List<String> job = awaitWritten(clip, bench.size()).stream().filter(s -> !s.endsWith(" dissolve")).toList();
        assertThat(job).as(clip).isEqualTo(bench);
        assertThat(bench).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void theJobWritesTheShotsTheBenchFindsInTheSameFile() throws Exception {
        for (String clip : EXACT) {
            List<String> bench = onFile(clip);
            List<String> job = new ArrayList<>();
            IngestRun.await("every shot of " + clip, 60, () -> {
                job.clear();
                job.addAll(written(clip));
                return job.size() >= bench.size();
            });
            assertThat(job).as(clip).isEqualTo(bench);
        }
        // Megamind is edited (three cuts); the comparison is not between two empty lists.
        assertThat(onFile("Megamind.avi")).hasSizeGreaterThanOrEqualTo(4);
    }
}
