package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.StreamRulesStore;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Names;
import io.videoworld.core.TextLine;
import io.videoworld.engines.privacy.ExclusionMark;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.testkit.TestInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exclusion where the frames are captured and per stream: the producer, told {@code --exclude-app
 * KeePassXC}, reads each screen's chrome and sends the password manager's window as a grey stand-in
 * naming the rule (Kafka never holds its pixels); the stream's own rule ({@code title:Inbox}, set in
 * {@code vw-rules} as the REST endpoint sets it) is applied by the job with vw.privacy.stream-rules.
 * Both leave only their time and rule in vw-exclusions; no index holds either window's text.
 */
class ExclusionRulesEndToEndTest {
    private static final String STREAM = "rules-e2e-" + System.nanoTime();
    private static final String TOPIC = "rules.frames";
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;
    private static TestInfra infra;

    @BeforeAll
    static void pushAndIngest() throws Exception {
        infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        Path shots = Files.createDirectories(tmp.resolve("shots"));
        ScreenshotsEndToEndTest.screen(shots.resolve("001.png"), false, "Notes - Editor", "Plan the quarterly review", "Book the room");
        ScreenshotsEndToEndTest.screen(shots.resolve("002.png"), true, "Passwords.kdbx - KeePassXC", "zebra orchid vault 771",
                "Banking login for Dana Keller");
        ScreenshotsEndToEndTest.screen(shots.resolve("003.png"), false, "Inbox - Mail", "walrus lantern invoice", "Lunch on Friday");
        ScreenshotsEndToEndTest.screen(shots.resolve("004.png"), true, "Terminal - bash", "make deploy", "tail the quarterly log");
        new StreamRulesStore(es).append(STREAM, List.of("title:\\binbox\\b"), EPOCH);
        assertThat(VideoWorldCli.run("push", shots.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", TOPIC,
                "--stream-id", STREAM, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280", "--exclude-app", "KeePassXC",
                "--models", ModelDirectory.locate().toString())).isZero();
        job = IngestRun.start(infra, "rules", tmp.resolve("frames"), conf -> conf.set(DetectOptions.ENABLED, false)
                .set(PrivacyOptions.STREAM_RULES, true));
        IngestRun.await("perception of the first and last screens, and both exclusions", 240,
                () -> IngestRun.count(es, Names.PERCEPTION_INDEX, said("quarterly review")) >= 1
                        && IngestRun.count(es, Names.PERCEPTION_INDEX, said("make deploy")) >= 1
                        && IngestRun.count(es, Names.EXCLUSIONS_INDEX, mine()) >= 2);
        es.indices().refresh(r -> r.index(List.of(Names.PERCEPTION_INDEX, Names.EPISODES_INDEX, Names.EXCLUSIONS_INDEX, Names.FRAMES_INDEX)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (job != null) {
            job.cancel().get();
        }
        transport.close();
    }

    private static Query said(String phrase) {
        return Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM)).must(m -> m.matchPhrase(p -> p.field("text").query(phrase)))));
    }

    private static Query mine() {
        return Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM))));
    }

    @Test
    void theProducersExclusionNeverReachedKafka() throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "rules-reader-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<Frame> frames = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(TOPIC));
            long deadline = System.currentTimeMillis() + 60_000;
            while (frames.size() < 4 && System.currentTimeMillis() < deadline) {
                for (var r : c.poll(Duration.ofMillis(500))) {
                    if (STREAM.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        FrameBatch b = FrameBatchCodec.decode(r.value());
                        frames.addAll(b.frames());
                    }
                }
            }
        }
        assertThat(frames).extracting(Frame::index).containsExactly(0L, 1L, 2L, 3L);
        assertThat(ExclusionMark.ruleOf(frames.get(1).jpeg())).isEqualTo("app:KeePassXC");
        assertThat(frames.get(1).thumb()).isNull();
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            Map<Long, String> read = new TreeMap<>();
            for (Frame f : frames) {
                read.put(f.index(), ocr.read(f.jpeg()).stream().map(TextLine::text).collect(Collectors.joining(" ")));
            }
            assertThat(read.get(1L)).as("the stand-in shows nothing").isBlank();
            assertThat(read.get(0L)).containsIgnoringCase("quarterly");
            assertThat(read.values()).noneMatch(t -> t.toLowerCase().contains("zebra") || t.toLowerCase().contains("keepass"));
        }
    }

    @Test
    void bothExclusionsLeaveOnlyTheirTimeAndRule() throws Exception {
        List<JsonNode> excluded = es.search(s -> s.index(Names.EXCLUSIONS_INDEX).size(10).query(mine()), JsonNode.class)
                .hits().hits().stream().map(h -> h.source()).toList();
        Map<Long, String> rules = new TreeMap<>();
        excluded.forEach(e -> rules.put(e.get("frame_index").asLong(), e.get("rule").asText()));
        assertThat(rules).containsExactly(Map.entry(1L, "app:KeePassXC"), Map.entry(2L, "title:\\binbox\\b"));
        for (String index : List.of(Names.PERCEPTION_INDEX, Names.EPISODES_INDEX, Names.FRAMES_INDEX, Names.SHOTS_INDEX)) {
            String all = es.search(s -> s.index(index).size(50).query(mine()), JsonNode.class).hits().hits().stream()
                    .map(h -> h.source().toString()).reduce("", String::concat);
            assertThat(all).as(index).doesNotContainIgnoringCase("zebra").doesNotContainIgnoringCase("KeePass")
                    .doesNotContainIgnoringCase("walrus").doesNotContainIgnoringCase("Inbox");
        }
        String read = es.search(s -> s.index(Names.PERCEPTION_INDEX).size(50).query(mine()), JsonNode.class).hits().hits().stream()
                .map(h -> h.source().toString()).reduce("", String::concat);
        assertThat(read).containsIgnoringCase("quarterly review").containsIgnoringCase("make deploy");
    }
}
