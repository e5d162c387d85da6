package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.ElasticsearchSink;
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

/** The bulk sink against the real server: batching, external versions, and fatal rejections. */
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
    void aDocumentTheMappingRejectsFailsTheJobWithTheReason() {
        EsWrite bad = new EsWrite(Names.FRAMES_INDEX, "sink-bad-" + System.nanoTime(), EsWrite.UNVERSIONED,
                "{\"no_such_field\": 1}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> run(List.of(bad), 10))
                .rootCause().hasMessageContaining("Elasticsearch rejected").hasMessageContaining("strict_dynamic_mapping");
    }
}
