package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.flink.es.ElasticsearchSink;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.Names;
import io.videoworld.testkit.TestInfra;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bulk sink against the real server: batching, external versions, dead letters and systemic failures. */
class ElasticsearchSinkTest {
    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(1).build());

    private static RestClientTransport transport;
    private static ElasticsearchClient es;

    @BeforeAll
    static void connect() {
        transport = EsClients.transport(TestInfra.get().elasticsearchUrl());
        es = EsClients.sync(transport);
    }

    @AfterAll
    static void close() throws Exception {
        transport.close();
    }

    private static EsWrite video(String id, long version, long frames) {
        String json = "{\"stream_id\":\"" + id + "\",\"frames_indexed\":" + frames + ",\"status\":\"live\"}";
        return new EsWrite(Names.VIDEOS_INDEX, id, version, json.getBytes(StandardCharsets.UTF_8));
    }

    private static void run(List<EsWrite> writes, int maxBatch) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(TypeInformation.of(EsWrite.class), writes.toArray(new EsWrite[0]))
                .sinkTo(ElasticsearchSink.builder(TestInfra.get().elasticsearchUrl()).maxBatchSize(maxBatch).build());
        env.execute();
    }

    @Test
    void manyWritesInSmallBatchesAllArriveAndALateOlderVersionLoses() throws Exception {
        String prefix = "sink-" + System.nanoTime() + "-";
        List<EsWrite> writes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            writes.add(video(prefix + i, 10, 10));
        }
        writes.add(video(prefix + "0", 20, 20));
        writes.add(video(prefix + "0", 15, 15));
        run(writes, 7);

        es.indices().refresh(r -> r.index(Names.VIDEOS_INDEX));
        long n = es.count(c -> c.index(Names.VIDEOS_INDEX).query(q -> q.prefix(p -> p.field("stream_id").value(prefix)))).count();
        assertThat(n).isEqualTo(120);
        var doc = es.get(g -> g.index(Names.VIDEOS_INDEX).id(prefix + "0"), JsonNode.class);
        assertThat(doc.source().get("frames_indexed").asLong()).isEqualTo(20);
        assertThat(doc.version()).isEqualTo(20);
    }

    @Test
    void aWriterFlushesOnDemandAndClosingItTwiceIsSafe() throws Exception {
        String id = "sink-close-" + System.nanoTime();
        var writer = ElasticsearchSink.builder(TestInfra.get().elasticsearchUrl()).build().createWriter(new TestSinkInitContext());
        writer.write(video(id, 3, 3), null);
        writer.flush(true);
        writer.close();
        writer.close();
        es.indices().refresh(r -> r.index(Names.VIDEOS_INDEX));
        assertThat(es.get(g -> g.index(Names.VIDEOS_INDEX).id(id), JsonNode.class).found()).isTrue();
    }

    @Test
    void documentsRefusedForTheirContentBecomeDeadLettersAndTheRestArrive() throws Exception {
        String run = "sink-refused-" + System.nanoTime();
        EsWrite unknownField = new EsWrite(Names.FRAMES_INDEX, run + ":mapping", EsWrite.UNVERSIONED,
                "{\"no_such_field\": 1}".getBytes(StandardCharsets.UTF_8));
        EsWrite immenseKeyword = new EsWrite(Names.VIDEOS_INDEX, run + ":immense", EsWrite.UNVERSIONED,
                ("{\"stream_id\":\"" + "k".repeat(40_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        EsWrite dateOutOfRange = new EsWrite(Names.FRAMES_INDEX, run + ":date", EsWrite.UNVERSIONED,
                "{\"stream_id\":\"x\",\"event_time_ms\":\"99999999999999999999999\"}".getBytes(StandardCharsets.UTF_8));
        EsWrite tooLarge = new EsWrite(Names.VIDEOS_INDEX, run + ":large", EsWrite.UNVERSIONED,
                ("{\"stream_id\":\"x\",\"codec\":\"" + "z".repeat(2 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8));
        List<EsWrite> writes = List.of(video(run + ":good-1", 1, 1), unknownField, immenseKeyword, dateOutOfRange, tooLarge,
                video(run + ":good-2", 1, 2));
        run(writes, 10);

        assertThat(es.get(g -> g.index(Names.VIDEOS_INDEX).id(run + ":good-1"), JsonNode.class).found()).isTrue();
        assertThat(es.get(g -> g.index(Names.VIDEOS_INDEX).id(run + ":good-2"), JsonNode.class).found()).isTrue();
        es.indices().refresh(r -> r.index(Names.DEAD_LETTERS_INDEX));
        var letters = es.search(s -> s.index(Names.DEAD_LETTERS_INDEX).size(10)
                .query(q -> q.prefix(p -> p.field("doc_id").value(run))), JsonNode.class).hits().hits();
        java.util.Map<String, JsonNode> byId = new java.util.HashMap<>();
        letters.forEach(h -> byId.put(h.source().get("doc_id").asText(), h.source()));
        assertThat(byId).containsOnlyKeys(run + ":mapping", run + ":immense", run + ":date", run + ":large");
        assertThat(byId.get(run + ":mapping").get("error_type").asText()).contains("strict_dynamic_mapping");
        assertThat(byId.get(run + ":mapping").get("index").asText()).isEqualTo(Names.FRAMES_INDEX);
        assertThat(byId.get(run + ":mapping").get("source").asText()).contains("no_such_field");
        assertThat(byId.get(run + ":immense").get("reason").asText()).contains("immense");
        assertThat(byId.get(run + ":date").get("status").asInt()).isEqualTo(400);
        assertThat(byId.get(run + ":large").get("status").asInt()).isEqualTo(413);
    }

    @Test
    void aClosedIndexIsSystemicAndStopsTheSinkWithTheReason() throws Exception {
        String index = "vw-sink-closed-" + System.nanoTime();
        es.indices().create(c -> c.index(index));
        es.indices().close(c -> c.index(index));
        EsWrite w = new EsWrite(index, "x", EsWrite.UNVERSIONED, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> run(List.of(w), 10)).rootCause().hasMessageContaining("Elasticsearch rejected")
                    .hasMessageContaining("index_closed_exception");
        } finally {
            es.indices().delete(d -> d.index(index));
        }
    }
}
