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
 * The evaluation set: three minutes of a desk (documents, mail, code, a spreadsheet, a video, a
 * chat; scrolling, typing, app switches and returns) rendered by headless Chromium at 1 fps,
 * pushed as a screenshot folder; the events in vw-episodes must start where the activities do.
 */
class EpisodesEndToEndTest {
    private static final String STREAM = "desk-day";
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;
    private static ScreenActivity.Stream desk;
    private static List<JsonNode> events;

    @BeforeAll
    static void pushTheDesk() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        desk = ScreenActivity.write(tmp.resolve("desk"), 7, 180, EPOCH);
        assertThat(VideoWorldCli.run("push", desk.folder().toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "desk.frames",
                "--stream-id", STREAM, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280", "--sort", "mtime")).isZero();
        // 8-second batches, so activities longer than that are built by merges.
        job = IngestRun.start(infra, "desk", tmp.resolve("frames"), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(MemoryOptions.MAX_BATCH, java.time.Duration.ofSeconds(8));
        });
        Query mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
        // The last activity's event ends where the stream does once every batch is written.
        IngestRun.await("events up to the end of the stream", 300, () -> IngestRun.count(es, Names.EPISODES_INDEX, Query.of(q -> q.bool(b -> b
                .filter(mine).filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte(178_000.0))))))) >= 1);
        Thread.sleep(1500);
        es.indices().refresh(r -> r.index(Names.EPISODES_INDEX));
        events = es.search(s -> s.index(Names.EPISODES_INDEX).size(200).query(mine)
                .sort(o -> o.field(f -> f.field("occurred_at").order(SortOrder.Asc))), JsonNode.class).hits().hits().stream().map(h -> h.source()).toList();
    }

    @AfterAll
    static void stop() throws Exception {
        job.cancel().get();
        transport.close();
    }

    @Test
    void eventBoundariesMatchTheActivityChanges() {
        List<Double> predicted = new ArrayList<>();
        for (JsonNode e : events) {
            predicted.add((e.get("occurred_at").asLong() - EPOCH) / 1000.0);
        }
        List<Integer> truth = desk.truth().stream().map(ScreenActivity.Activity::start).toList();
        int matched = 0;
        List<Double> free = new ArrayList<>(predicted);
        for (int t : truth) {
            Double best = null;
            for (double p : free) {
                if (Math.abs(p - t) <= 2.0 && (best == null || Math.abs(p - t) < Math.abs(best - t))) {
                    best = p;
                }
            }
            if (best != null) {
                free.remove(best);
                matched++;
            }
        }
        double precision = (double) matched / predicted.size();
        double recall = (double) matched / truth.size();
        double f1 = 2 * precision * recall / (precision + recall);
        System.out.printf("episode boundaries: %d events, %d activities, P=%.3f R=%.3f F1=%.3f%n", predicted.size(), truth.size(), precision, recall, f1);
        events.forEach(e -> System.out.println("  " + (e.get("occurred_at").asLong() - EPOCH) / 1000.0 + " " + e.get("app").asText("?")
                + " links=" + e.get("linked_event_ids") + " " + e.get("summary").asText()));
        System.out.println("truth: " + desk.truth());
        assertThat(f1).isGreaterThanOrEqualTo(0.85);
    }

    @Test
    void aReturnToAnEarlierAppLinksToTheEarlierEvent() {
        List<String> seen = new ArrayList<>();
        int returns = 0;
        for (ScreenActivity.Activity a : desk.truth()) {
            if (seen.contains(a.app())) {
                returns++;
                JsonNode e = events.stream().filter(x -> Math.abs((x.get("occurred_at").asLong() - EPOCH) / 1000.0 - a.start()) <= 2.0)
                        .findFirst().orElseThrow(() -> new AssertionError("no event starts near " + a));
                assertThat(e.get("linked_event_ids")).as("event at %s returns to %s", a.start(), a.app()).isNotEmpty();
                String earlier = e.get("linked_event_ids").get(0).asText();
                JsonNode target = events.stream().filter(x -> x.get("event_id").asText().equals(earlier)).findFirst().orElseThrow();
                assertThat(target.get("app").asText()).isEqualTo(e.get("app").asText());
                assertThat(target.get("occurred_at").asLong()).isLessThan(e.get("occurred_at").asLong());
            }
            seen.add(a.app());
        }
        assertThat(returns).isPositive();
    }

    @Test
    void mergedEventsKeepTheirStartAndSayWhatWasSeen() {
        for (JsonNode e : events) {
            assertThat(e.get("summary").asText()).isNotBlank();
            assertThat(e.get("details").asText().length()).isLessThanOrEqualTo(5000);
            assertThat(e.get("occurred_at").asLong()).isEqualTo(EPOCH + e.get("start_pts_ms").asLong());
        }
        JsonNode merged = events.stream().filter(e -> e.get("batches").asInt() > 1).findFirst().orElseThrow();
        assertThat(merged.get("revision").asLong()).isGreaterThanOrEqualTo(merged.get("batches").asLong());
        assertThat(merged.get("details").asText().split("\n")).hasSize(merged.get("batches").asInt());
    }
}
