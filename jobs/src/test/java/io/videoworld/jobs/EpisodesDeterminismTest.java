package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Names;
import io.videoworld.testkit.ScreenActivity;
import io.videoworld.testkit.TestInfra;
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
 * The same desk pushed as two streams at once, ingested side by side by one job: every stream's
 * events are the same, field for field, with the stream's name taken out. Whatever an episode holds
 * must follow from its own stream's frames, never from how far the job got with another stream or
 * with its own writes when a batch was decided.
 */
class EpisodesDeterminismTest {
    private static final List<String> COPIES = List.of("same-desk-a", "same-desk-b");
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;

    @BeforeAll
    static void pushTheDeskTwice() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        ScreenActivity.Stream desk = ScreenActivity.write(tmp.resolve("desk"), 11, 100, EPOCH);
        for (String copy : COPIES) {
            assertThat(VideoWorldCli.run("push", desk.folder().toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "same.frames",
                    "--stream-id", copy, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280", "--sort", "mtime")).isZero();
        }
        job = IngestRun.start(infra, "same", tmp.resolve("frames"), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(MemoryOptions.MAX_BATCH, java.time.Duration.ofSeconds(8));
        });
        for (String copy : COPIES) {
            // The last frame is at 99 s: an event must cover it, and then the copy's events must stop changing (a later
            // batch can still revise the event before it), so a copy is compared once it is settled, not half-way.
            IngestRun.await("events of " + copy + " up to the end of the stream", 300, () -> IngestRun.count(es, Names.EPISODES_INDEX,
                    Query.of(q -> q.bool(b -> b.filter(mine(copy)).filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gt(99_000.0))))))) >= 1);
            String[] last = {null};
            long[] since = {System.nanoTime()};
            IngestRun.await("events of " + copy + " unchanged for 5 s", 120, () -> {
                es.indices().refresh(r -> r.index(Names.EPISODES_INDEX));
                String now = events(copy);
                if (!now.equals(last[0])) {
                    last[0] = now;
                    since[0] = System.nanoTime();
                }
                return System.nanoTime() - since[0] > 5_000_000_000L;
            });
        }
    }

    private static Query mine(String stream) {
        return Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", stream)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
    }

    @AfterAll
    static void stop() throws Exception {
        job.cancel().get();
        transport.close();
    }

    /** A stream's events in time order as text, its own name replaced by one placeholder. */
    private static String events(String stream) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (var h : es.search(s -> s.index(Names.EPISODES_INDEX).size(500).query(mine(stream))
                .sort(o -> o.field(f -> f.field("occurred_at").order(SortOrder.Asc))), JsonNode.class).hits().hits()) {
            sb.append(h.id().replace(stream, "STREAM")).append(' ').append(h.source().toString().replace(stream, "STREAM")).append('\n');
        }
        return sb.toString();
    }

    @Test
    void everyCopyHoldsTheSameEvents() throws Exception {
        String first = events(COPIES.get(0));
        assertThat(first.lines().count()).isGreaterThan(3);
        for (String copy : COPIES.subList(1, COPIES.size())) {
            assertThat(events(copy)).as(copy).isEqualTo(first);
        }
    }
}
