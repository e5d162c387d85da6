package io.videoworld.operators.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.SourceKind;
import io.videoworld.core.ExclusionRules;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.StreamRulesStore;
import io.videoworld.engines.privacy.ExclusionMark;
import io.videoworld.testkit.TestInfra;

/** The exclusion stage on a batch of two real rendered windows: the excluded one goes on grey, the other untouched, one exclusion document. */
class ExcludeWindowsTest {
    static byte[] window(String title, String content) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(248, 248, 248));
        g.fillRect(0, 0, 1280, 720);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setColor(new Color(60, 60, 70));
        g.fillRect(0, 0, 1280, 50);
        g.setColor(Color.WHITE);
        g.setFont(font.deriveFont(26f));
        g.drawString(title, 24, 34);
        g.setColor(Color.BLACK);
        g.drawString(content, 60, 300);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    @Test
    void theExcludedFrameGoesOnGreyAndOnlyItsRuleIsKept() throws Exception {
        byte[] vault = window("Passwords.kdbx - KeePassXC", "bank  alice  Tr0ub4dor");
        byte[] mail = window("Inbox - Mail", "Lunch with Dana at noon");
        FrameBatch in = new FrameBatch("desk", SourceKind.SCREEN, "/screens", 4, 1_700_000_000_000L, null,
                List.of(new Frame(10, 10_000, null, 1280, 720, vault, new byte[] {1, 2, 3}), new Frame(11, 11_000, null, 1280, 720, mail)));
        ExcludeWindows fn = new ExcludeWindows(ModelDirectory.locate().toString(), ExclusionRules.parse(List.of("app:KeePassXC")));
        try (OneInputStreamOperatorTestHarness<FrameBatch, FrameBatch> h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fn))) {
            h.open();
            h.processElement(new StreamRecord<>(in, 1L));
            List<FrameBatch> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            FrameBatch b = out.get(0);
            assertThat(b.seq()).isEqualTo(4);
            Frame grey = b.frames().get(0);
            assertThat(grey.index()).isEqualTo(10);
            assertThat(grey.thumb()).isNull();
            DecodedImage d = DecodedImage.decode(grey.jpeg());
            assertThat(d.width()).isEqualTo(1280);
            int min = 255;
            int max = 0;
            for (byte v : d.bgr()) {
                min = Math.min(min, v & 0xff);
                max = Math.max(max, v & 0xff);
            }
            assertThat(max - min).as("nothing of the window is left").isLessThanOrEqualTo(2);
            assertThat(b.frames().get(1).jpeg()).isEqualTo(mail);
            List<EsWrite> excluded = h.getSideOutput(ExcludeWindows.EXCLUDED).stream().map(StreamRecord::getValue).toList();
            assertThat(excluded).hasSize(1);
            assertThat(excluded.get(0).index()).isEqualTo(Names.EXCLUSIONS_INDEX);
            var doc = Json.MAPPER.readTree(excluded.get(0).json());
            assertThat(doc.get("rule").asText()).isEqualTo("app:KeePassXC");
            assertThat(doc.get("frame_index").asLong()).isEqualTo(10);
            assertThat(doc.get("event_time_ms").asLong()).isEqualTo(1_700_000_010_000L);
            assertThat(doc.toString()).doesNotContain("Tr0ub4dor").doesNotContain("Passwords");
            // A camera's frames are not read for window chrome: they pass as they are.
            FrameBatch camera = new FrameBatch("porch", SourceKind.VIDEO, "/cam.mp4", 0, 1_700_000_000_000L, null, in.frames());
            h.processElement(new StreamRecord<>(camera, 2L));
            assertThat(h.extractOutputValues().get(1)).isEqualTo(camera);
            assertThat(h.getSideOutput(ExcludeWindows.EXCLUDED)).hasSize(1);
        }
    }

    private static List<FrameBatch> run(ExcludeWindows fn, FrameBatch in, List<EsWrite> excluded) throws Exception {
        try (OneInputStreamOperatorTestHarness<FrameBatch, FrameBatch> h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fn))) {
            h.open();
            h.processElement(new StreamRecord<>(in, 1L));
            var side = h.getSideOutput(ExcludeWindows.EXCLUDED);
            if (side != null) {
                side.forEach(r -> excluded.add(r.getValue()));
            }
            return h.extractOutputValues();
        }
    }

    @Test
    void aFrameTheProducerExcludedIsRecordedWithoutBeingRead() throws Exception {
        byte[] stand = ExclusionMark.excludedFrame(1280, 720, "app:KeePassXC");
        byte[] mail = window("Inbox - Mail", "Lunch with Dana at noon");
        FrameBatch in = new FrameBatch("desk", SourceKind.SCREEN, "/screens", 0, 1_700_000_000_000L, null,
                List.of(new Frame(0, 0, null, 1280, 720, mail), new Frame(1, 1_000, null, 1280, 720, stand)));
        List<EsWrite> excluded = new java.util.ArrayList<>();
        // No rules of the job's and no model: the stage reads nothing, it only records what the producer left out.
        List<FrameBatch> out = run(new ExcludeWindows("/no/models/here", ExclusionRules.NONE, null), in, excluded);
        assertThat(out).containsExactly(in);
        assertThat(excluded).hasSize(1);
        var doc = Json.MAPPER.readTree(excluded.get(0).json());
        assertThat(doc.get("rule").asText()).isEqualTo("app:KeePassXC");
        assertThat(doc.get("frame_index").asLong()).isEqualTo(1);
        assertThat(doc.get("event_time_ms").asLong()).isEqualTo(1_700_000_001_000L);
    }

    @Test
    void aStreamsRulesFromElasticsearchApplyByEventTimeTheSameOnEveryRun() throws Exception {
        String stream = "rules-" + System.nanoTime();
        long epoch = 1_700_000_000_000L;
        try (var transport = EsClients.transport(TestInfra.get().elasticsearchUrl())) {
            StreamRulesStore store = new StreamRulesStore(EsClients.sync(transport));
            store.append(stream, List.of("app:KeePassXC"), epoch + 10_500);
            store.append(stream, List.of(), epoch + 20_000);
        }
        byte[] vault = window("Passwords.kdbx - KeePassXC", "bank  alice  Tr0ub4dor");
        // The same window before the rule was set, while it held, and after it was lifted.
        FrameBatch in = new FrameBatch(stream, SourceKind.SCREEN, "/screens", 0, epoch, null, List.of(
                new Frame(0, 10_000, null, 1280, 720, vault), new Frame(1, 11_000, null, 1280, 720, vault),
                new Frame(2, 21_000, null, 1280, 720, vault)));
        String models = ModelDirectory.locate().toString();
        String es = TestInfra.get().elasticsearchUrl();
        for (int run = 0; run < 2; run++) { // a replay (a new operator, rules read afresh) decides the same
            List<EsWrite> excluded = new java.util.ArrayList<>();
            List<FrameBatch> out = run(new ExcludeWindows(models, ExclusionRules.NONE, es), in, excluded);
            assertThat(out).hasSize(1);
            List<Frame> frames = out.get(0).frames();
            assertThat(frames.get(0).jpeg()).isEqualTo(vault);
            assertThat(frames.get(1).jpeg()).isNotEqualTo(vault);
            assertThat(frames.get(2).jpeg()).isEqualTo(vault);
            assertThat(excluded).hasSize(1);
            var doc = Json.MAPPER.readTree(excluded.get(0).json());
            assertThat(doc.get("frame_index").asLong()).isEqualTo(1);
            assertThat(doc.get("rule").asText()).isEqualTo("app:KeePassXC");
        }
        // Another stream has none of these rules; the job's own still apply to it.
        FrameBatch other = new FrameBatch("other-" + stream, SourceKind.SCREEN, "/screens", 0, epoch, null, in.frames());
        List<EsWrite> excluded = new java.util.ArrayList<>();
        assertThat(run(new ExcludeWindows(models, ExclusionRules.NONE, es), other, excluded)).containsExactly(other);
        assertThat(excluded).isEmpty();
        run(new ExcludeWindows(models, ExclusionRules.parse(List.of("title:passwords")), es), other, excluded);
        assertThat(excluded).hasSize(3);
    }
}
