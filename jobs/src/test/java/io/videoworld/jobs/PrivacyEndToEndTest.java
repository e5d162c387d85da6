package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.Names;
import io.videoworld.core.TextLine;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Files;
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
 * Screens with an API key and an e-mail address rendered on them, and a password manager's window,
 * pushed through the job with redaction on (the default) and the password manager excluded by app:
 * OCR reads the screens, yet neither the key nor the address can be found in vw-perception or
 * vw-episodes afterwards while the words around them can, and the documents name the kinds
 * redacted; of the excluded window only its time and rule are kept, in vw-exclusions, and no
 * index holds its text and no stored keyframe shows it; the stored keyframes show neither the key nor
 * the address (their lines blacked out).
 */
class PrivacyEndToEndTest {
    private static final String STREAM = "privacy-" + System.nanoTime();
    private static final String VAULT = "zebra orchid vault";
    private static final long EPOCH = System.currentTimeMillis();
    private static final String KEY = "sk-Xa81kPq2mZr7TtY4vBn0";
    private static final String EMAIL = "dana.keller@example.org";

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;

    @BeforeAll
    static void pushScreens() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        Path shots = Files.createDirectories(tmp.resolve("shots"));
        ScreenshotsEndToEndTest.screen(shots.resolve("001.png"), true, "Terminal - bash", "export OPENAI_API_KEY=" + KEY,
                "python deploy_quarterly.py");
        ScreenshotsEndToEndTest.screen(shots.resolve("002.png"), false, "Inbox - Mail", "From: " + EMAIL, "Quarterly numbers attached");
        ScreenshotsEndToEndTest.screen(shots.resolve("003.png"), true, "Passwords.kdbx - KeePassXC", VAULT + " 771",
                "Banking login for Dana Keller");
        ScreenshotsEndToEndTest.screen(shots.resolve("004.png"), false, "Notes - Editor", "Plan the quarterly review", "Book the room");
        assertThat(VideoWorldCli.run("push", shots.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "privacy.frames",
                "--stream-id", STREAM, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280")).isZero();
        job = IngestRun.start(infra, "privacy", tmp.resolve("frames"), conf -> conf.set(DetectOptions.ENABLED, false)
                .set(PrivacyOptions.EXCLUDE, List.of("app:KeePassXC")));
        IngestRun.await("perception of the screens", 240, () -> IngestRun.count(es, Names.PERCEPTION_INDEX, mine()) >= 4
                && IngestRun.count(es, Names.EXCLUSIONS_INDEX, mine()) >= 1);
        es.indices().refresh(r -> r.index(List.of(Names.PERCEPTION_INDEX, Names.EPISODES_INDEX, Names.EXCLUSIONS_INDEX)));
    }

    @AfterAll
    static void stop() throws Exception {
        job.cancel().get();
        transport.close();
    }

    private static Query mine() {
        return Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM))));
    }

    private static long found(String index, String text) throws Exception {
        return es.search(s -> s.index(index).size(0).query(q -> q.bool(b -> b.filter(mine())
                .must(m -> m.multiMatch(mm -> mm.query(text).fields("text", "lines.text", "window_title", "summary", "details"))))), JsonNode.class)
                .hits().total().value();
    }

    @Test
    void theExcludedWindowLeavesOnlyItsTimeAndRule() throws Exception {
        List<JsonNode> excluded = es.search(s -> s.index(Names.EXCLUSIONS_INDEX).size(10).query(mine()), JsonNode.class)
                .hits().hits().stream().map(h -> h.source()).toList();
        assertThat(excluded).isNotEmpty().allSatisfy(e -> {
            assertThat(e.get("rule").asText()).isEqualTo("app:KeePassXC");
            assertThat(e.get("frame_index").asLong()).isEqualTo(2L);
            assertThat(e.get("event_time_ms").asLong()).isPositive();
        });
        // Neither its title nor its content is in any index the job writes, and the windows around it were read.
        for (String index : List.of(Names.PERCEPTION_INDEX, Names.EPISODES_INDEX, Names.FRAMES_INDEX, Names.SHOTS_INDEX)) {
            String all = es.search(s -> s.index(index).size(50).query(mine()), JsonNode.class).hits().hits().stream()
                    .map(h -> h.source().toString()).reduce("", String::concat);
            assertThat(all).as(index).doesNotContainIgnoringCase("zebra").doesNotContainIgnoringCase("KeePass")
                    .doesNotContainIgnoringCase("Banking login");
        }
        assertThat(found(Names.PERCEPTION_INDEX, VAULT)).isZero();
        assertThat(found(Names.PERCEPTION_INDEX, "Plan the quarterly review")).isPositive();
        // Every keyframe the store holds for the stream is read again: none shows the window.
        List<Path> stored;
        try (var files = Files.walk(tmp.resolve("frames"))) {
            stored = files.filter(Files::isRegularFile).filter(f -> f.toString().contains(STREAM)).toList();
        }
        assertThat(stored).isNotEmpty();
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            for (Path f : stored) {
                String read = ocr.read(Files.readAllBytes(f)).stream().map(TextLine::text).reduce("", (a, b) -> a + " " + b);
                assertThat(read).as(f.toString()).doesNotContainIgnoringCase("zebra").doesNotContainIgnoringCase("KeePass");
            }
        }
    }

    /** The keyframes in the frame store went there after they were read: the lines holding the key and the address are black. */
    @Test
    void theStoredKeyframesShowNeitherTheKeyNorTheAddress() throws Exception {
        long perceived = IngestRun.count(es, Names.PERCEPTION_INDEX, mine());
        IngestRun.await("every perceived keyframe in the store", 60, () -> stored().size() >= perceived);
        List<Path> stored = stored();
        StringBuilder all = new StringBuilder();
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            for (Path f : stored) {
                String read = ocr.read(Files.readAllBytes(f)).stream().map(TextLine::text).reduce("", (a, b) -> a + " " + b);
                assertThat(read).as(f.toString()).doesNotContain("Xa81kPq2").doesNotContain("sk-Xa").doesNotContainIgnoringCase("dana.keller")
                        .doesNotContainIgnoringCase("example.org");
                all.append(read).append('\n');
            }
        }
        // The pictures are there and the lines next to the secrets still read: only the secrets' lines went black.
        assertThat(all.toString().replace(" ", "")).contains("deploy_quarterly").contains("Quarterlynumbersattached")
                .contains("Planthequarterlyreview");
    }

    private static List<Path> stored() throws Exception {
        try (var files = Files.walk(tmp.resolve("frames"))) {
            return files.filter(Files::isRegularFile).filter(f -> f.toString().contains(STREAM)).toList();
        }
    }

    @Test
    void theKeyAndTheAddressAreReadButNotFindable() throws Exception {
        List<JsonNode> docs = es.search(s -> s.index(Names.PERCEPTION_INDEX).size(10).query(mine()), JsonNode.class)
                .hits().hits().stream().map(h -> h.source()).toList();
        String all = docs.toString();
        // OCR read the screens (the words around the secrets are there), and the secrets are not.
        assertThat(found(Names.PERCEPTION_INDEX, "deploy_quarterly.py")).isPositive();
        assertThat(found(Names.PERCEPTION_INDEX, "Quarterly numbers attached")).isPositive();
        assertThat(all).doesNotContain(KEY).doesNotContain("Xa81kPq2mZr7TtY4vBn0").doesNotContain(EMAIL).doesNotContain("dana.keller");
        assertThat(found(Names.PERCEPTION_INDEX, KEY)).isZero();
        assertThat(found(Names.PERCEPTION_INDEX, EMAIL)).isZero();
        assertThat(found(Names.PERCEPTION_INDEX, "dana.keller")).isZero();
        assertThat(found(Names.EPISODES_INDEX, KEY)).isZero();
        assertThat(found(Names.EPISODES_INDEX, EMAIL)).isZero();
        assertThat(docs).anySatisfy(d -> {
            assertThat(d.get("text").asText()).contains("[redacted:key]");
            assertThat(d.get("redacted").toString()).contains("key");
        });
        assertThat(docs).anySatisfy(d -> {
            assertThat(d.get("text").asText()).contains("[redacted:email]");
            assertThat(d.get("redacted").toString()).contains("email");
        });
        long redactedDocs = IngestRun.count(es, Names.PERCEPTION_INDEX, Query.of(q -> q.bool(b -> b.filter(mine())
                .filter(IngestRun.term("redacted", "key")))));
        assertThat(redactedDocs).isPositive();
    }
}
