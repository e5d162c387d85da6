package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.producer.VideoWorldCli;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Names;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same desk, ingested once cleanly and once by a job that fails three times (a mapper in
 * front of the episode writer throws on the first batch after a completed checkpoint): both
 * leave exactly the same events in vw-episodes; none lost, none doubled, no summary older.
 */
class EpisodesExactlyOnceTest {
    private static final long EPOCH = System.currentTimeMillis() / 1000 * 1000;
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
    static final AtomicInteger FAILURES_DONE = new AtomicInteger();
    static final AtomicInteger SEEN = new AtomicInteger();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;

    /**
     * Throws on the first batch after a completed checkpoint once 2, 6 and 10 batches have gone by
     * (counting replays), so the failures fall early, in the middle and late in the stream.
     */
    static final class FailAfterCheckpoint extends RichMapFunction<EpisodeBatch, EpisodeBatch> implements CheckpointListener {
        private transient boolean armed;

        @Override
        public EpisodeBatch map(EpisodeBatch b) throws InterruptedException {
            if (!armed && FAILURES_LEFT.get() > 0) {
                // After a restart the replayed batches can all pass before the next checkpoint completes
                // (a fast run injected one failure of three); holding each a moment lets one complete first.
                Thread.sleep(300);
            }
            int seen = SEEN.incrementAndGet();
            if (armed && FAILURES_LEFT.get() > 0 && seen >= 2 + 4 * FAILURES_DONE.get()) {
                FAILURES_LEFT.decrementAndGet();
                FAILURES_DONE.incrementAndGet();
                throw new IllegalStateException("injected failure before batch " + b.batchSeq());
            }
            return b;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            armed = true;
        }
    }

    /** Two minutes of a desk: mail, editor, chat, back to mail, editor again, each with changing text. */
    static Path desk() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("desk"));
        String[][] plan = {{"Inbox - Mail", "18"}, {"billing.py - Code Editor", "20"}, {"#team - Chat", "16"}, {"Inbox - Mail", "14"},
            {"billing.py - Code Editor", "12"}};
        int frame = 0;
        for (String[] p : plan) {
            for (int i = 0; i < Integer.parseInt(p[1]); i++, frame++) {
                Path png = dir.resolve(String.format("%05d.png", frame));
                screen(png, p[0], p[0].contains("Mail") ? "Message " + (frame / 3) + " from Dana"
                        : p[0].contains("Chat") ? "shall we ship release " + (frame / 4) : "def total_" + (frame / 3) + "(items):", "line " + frame / 2);
                Files.setLastModifiedTime(png, java.nio.file.attribute.FileTime.fromMillis(EPOCH + frame * 1000L));
            }
        }
        return dir;
    }

    /** A screen in the look of its app: the editor dark, the chat with a sidebar, the mail plain. */
    static void screen(Path file, String title, String... lines) throws Exception {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(1280, 720, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        boolean editor = title.contains("Editor");
        boolean chat = title.contains("Chat");
        g.setColor(editor ? new java.awt.Color(30, 30, 34) : new java.awt.Color(250, 250, 250));
        g.fillRect(0, 0, 1280, 720);
        int left = 60;
        if (chat) {
            g.setColor(new java.awt.Color(74, 21, 75));
            g.fillRect(0, 56, 260, 664);
            left = 300;
        }
        g.setColor(editor ? new java.awt.Color(60, 60, 70) : chat ? new java.awt.Color(54, 12, 55) : new java.awt.Color(40, 90, 200));
        g.fillRect(0, 0, 1280, 56);
        java.awt.Font font = java.awt.Font.createFont(java.awt.Font.TRUETYPE_FONT, new java.io.File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(34f));
        g.setColor(java.awt.Color.WHITE);
        g.drawString(title, 24, 40);
        g.setFont(font.deriveFont(28f));
        g.setColor(editor ? new java.awt.Color(220, 220, 220) : new java.awt.Color(30, 30, 30));
        for (int i = 0; i < lines.length; i++) {
            g.drawString(lines[i], left, 140 + i * 70);
        }
        g.dispose();
        javax.imageio.ImageIO.write(img, "png", file.toFile());
    }

    private static List<JsonNode> ingest(TestInfra infra, Path folder, String stream, int failures, boolean gate) throws Exception {
        ElasticsearchClient es = EsClients.sync(transport);
        String prefix = "once-" + stream;
        assertThat(VideoWorldCli.run("push", folder.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", prefix + ".frames",
                "--stream-id", stream, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280", "--sort", "mtime")).isZero();
        FAILURES_LEFT.set(failures);
        FAILURES_DONE.set(0);
        SEEN.set(0);
        JobClient job = IngestRun.start(infra, prefix, tmp.resolve("frames-" + stream), conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(PerceptionOptions.CHANGE_GATE, gate);
            conf.set(MemoryOptions.MAX_BATCH, Duration.ofSeconds(6));
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        }, batches -> batches.map(new FailAfterCheckpoint()).name("failure injection"));
        Query mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", stream)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
        IngestRun.await("the last event of " + stream, 300, () -> IngestRun.count(es, Names.EPISODES_INDEX, Query.of(q -> q.bool(b -> b
                .filter(mine).filter(f -> f.range(r -> r.number(n -> n.field("end_pts_ms").gte(79_000.0))))))) >= 1);
        // Let late writes of the same revisions land before comparing.
        Thread.sleep(3000);
        job.cancel().get();
        es.indices().refresh(r -> r.index(Names.EPISODES_INDEX));
        return es.search(s -> s.index(Names.EPISODES_INDEX).size(500).query(mine)
                .sort(o -> o.field(f -> f.field("seq").order(SortOrder.Asc))), JsonNode.class).hits().hits().stream()
                .map(h -> normalised(h.source(), stream)).toList();
    }

    /** The document with the stream's name taken out of ids, so two streams' events compare. */
    private static JsonNode normalised(JsonNode doc, String stream) {
        return parse(doc.toString().replace(stream + ":", "STREAM:").replace("\"" + stream + "\"", "\"STREAM\""));
    }

    private static JsonNode parse(String json) {
        try {
            return io.videoworld.core.Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path desk;

    private static void exactlyOnce(String name, boolean gate, int failures) throws Exception {
        TestInfra infra = TestInfra.get();
        if (transport == null) {
            transport = EsClients.transport(infra.elasticsearchUrl());
            desk = desk();
        }
        List<JsonNode> clean = ingest(infra, desk, name + "-clean", 0, gate);
        List<JsonNode> failing = ingest(infra, desk, name + "-failing", failures, gate);
        clean.forEach(e -> System.out.println("  " + e.get("seq") + " " + e.get("start_pts_ms") + "-" + e.get("end_pts_ms") + " " + e.get("app")
                + " r" + e.get("revision") + " " + e.get("linked_event_ids") + " " + e.get("summary").asText()));
        assertThat(FAILURES_DONE.get()).as("failures injected").isEqualTo(failures);
        assertThat(clean).hasSizeGreaterThanOrEqualTo(5);
        assertThat(failing).hasSameSizeAs(clean);
        for (int i = 0; i < clean.size(); i++) {
            assertThat(failing.get(i)).as("event %d", i).isEqualTo(clean.get(i));
        }
        System.out.println("exactly once" + (gate ? " (change gate on)" : "") + ": " + clean.size() + " events, identical after " + failures + " injected failures");
    }

    @Test
    void failuresAfterCheckpointsLeaveExactlyTheEventsOfACleanRun() throws Exception {
        exactlyOnce("desk", false, 3);
    }

    /**
     * The change gate's memory (the last keyframe, as keyed state) restored with the job: the text read after a restart is the
     * clean run's. One failure: gated, the desk is read so fast that the batches after a second checkpoint are too few to fail on.
     */
    @Test
    void withTheChangeGateAFailureLeavesExactlyTheEventsOfACleanRun() throws Exception {
        exactlyOnce("gated", true, 1);
    }

    @AfterAll
    static void stop() throws Exception {
        if (transport != null) {
            transport.close();
        }
    }
}
