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
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder of screenshots pushed with the CLI: repeated screens are dropped as duplicates,
 * the switch from the mail app to the code editor is a shot boundary, and the text on screen
 * comes back through OCR with an embedding, in vw-perception.
 */
class ScreenshotsEndToEndTest {
    private static final String STREAM = "desk-screens";
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @TempDir
    static Path tmp;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static JobClient job;

    static void screen(Path file, boolean dark, String title, String... lines) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(dark ? new Color(30, 30, 34) : new Color(250, 250, 250));
        g.fillRect(0, 0, 1280, 720);
        g.setColor(dark ? new Color(60, 60, 70) : new Color(40, 90, 200));
        g.fillRect(0, 0, 1280, 56);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(34f));
        g.setColor(Color.WHITE);
        g.drawString(title, 24, 40);
        g.setFont(font.deriveFont(28f));
        g.setColor(dark ? new Color(220, 220, 220) : new Color(30, 30, 30));
        for (int i = 0; i < lines.length; i++) {
            g.drawString(lines[i], 60, 140 + i * 70);
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    @BeforeAll
    static void pushScreens() throws Exception {
        TestInfra infra = TestInfra.get();
        transport = EsClients.transport(infra.elasticsearchUrl());
        es = EsClients.sync(transport);
        Path shots = Files.createDirectories(tmp.resolve("shots"));
        screen(shots.resolve("001.png"), false, "Inbox - Mail", "Quarterly report due Friday", "Lunch with Dana at noon");
        screen(shots.resolve("002.png"), false, "Inbox - Mail", "Quarterly report due Friday", "Lunch with Dana at noon");
        screen(shots.resolve("003.png"), true, "Editor - billing.py", "def total_invoice(items):", "return sum(items)");
        screen(shots.resolve("004.png"), true, "Editor - billing.py", "def total_invoice(items):", "return sum(items) + tax");
        assertThat(VideoWorldCli.run("push", shots.toString(), "--bootstrap", infra.kafkaBootstrap(), "--topic", "screens.frames",
                "--stream-id", STREAM, "--epoch-ms", String.valueOf(EPOCH), "--width", "1280")).isZero();
        job = IngestRun.start(infra, "screens", tmp.resolve("frames"));
        Query mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM))
                .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
        IngestRun.await("perception of the screens", 180, () -> IngestRun.count(es, Names.PERCEPTION_INDEX, mine) >= 3
                && IngestRun.count(es, Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b.filter(mine)
                        .filter(IngestRun.term("kind", "shot"))))) >= 2);
    }

    @AfterAll
    static void stop() throws Exception {
        job.cancel().get();
        transport.close();
    }

    private static List<JsonNode> perceptions() throws Exception {
        return es.search(s -> s.index(Names.PERCEPTION_INDEX).size(20)
                .query(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM))
                        .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))))
                .sort(o -> o.field(f -> f.field("frame_index").order(SortOrder.Asc))), JsonNode.class)
                .hits().hits().stream().map(h -> h.source()).toList();
    }

    @Test
    void theTextOnScreenIsReadAndEmbedded() throws Exception {
        List<JsonNode> seen = perceptions();
        JsonNode mail = seen.get(0);
        assertThat(mail.get("frame_index").asLong()).isZero();
        assertThat(mail.get("text").asText()).contains("Quarterly report due Friday").contains("Lunch with Dana at noon");
        assertThat(mail.get("text_embedding")).hasSize(384);
        assertThat(mail.get("image_descriptor")).hasSize(176);
        assertThat(mail.get("device").asText()).isEqualTo("cpu");
        assertThat(seen).anySatisfy(p -> assertThat(p.get("text").asText()).contains("def total_invoice(items):"));
    }

    @Test
    void theRepeatedScreenIsDroppedAndTheAppSwitchIsAShotBoundary() throws Exception {
        List<JsonNode> shots = es.search(s -> s.index(Names.SHOTS_INDEX).size(10)
                .query(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("kind", "shot"))
                        .filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))))
                .sort(o -> o.field(f -> f.field("start_frame").order(SortOrder.Asc))), JsonNode.class)
                .hits().hits().stream().map(h -> h.source()).toList();
        assertThat(shots).extracting(s -> s.get("start_frame").asLong()).containsExactly(0L, 2L);
        // The exact repeat (frame 1) is dropped; the editor frame that differs by two typed words (frame 3) is kept and read,
        // because episodic memory must see what was typed.
        List<JsonNode> read = perceptions();
        assertThat(read).extracting(p -> p.get("frame_index").asLong()).containsExactly(0L, 2L, 3L);
        assertThat(read.get(2).get("text").asText().replace(" ", "")).contains("+tax");
    }
}
