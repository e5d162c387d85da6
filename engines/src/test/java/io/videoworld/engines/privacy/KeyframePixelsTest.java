package io.videoworld.engines.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Stored keyframes lose the pixels of redacted lines: read with the real OCR model, redacted, blacked out, read again. */
class KeyframePixelsTest {
    private static final String EMAIL = "jane.doe@example.com";
    private static final String KEY = "ghp_Q7mZx2LkP9vR4tYw8NbC3dFh6JsA1uEo";
    private static OcrEngine ocr;

    @BeforeAll
    static void load() throws Exception {
        ocr = OcrEngine.load(ModelDirectory.locate());
    }

    @AfterAll
    static void close() {
        ocr.close();
    }

    /** A 1280x720 mail-like screen: a title bar, lines of prose, an address and a token among them. */
    static byte[] screen(String... lines) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(246, 246, 244));
        g.fillRect(0, 0, 1280, 720);
        g.setColor(new Color(60, 60, 70));
        g.fillRect(0, 0, 1280, 44);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(22f));
        g.setColor(Color.WHITE);
        g.drawString("Inbox - Thunderbird", 24, 30);
        // A coloured block that no text covers: whatever happens to the lines must leave it as it was.
        g.setColor(new Color(40, 120, 200));
        g.fillRect(900, 420, 300, 200);
        g.setFont(font.deriveFont(26f));
        g.setColor(new Color(25, 25, 25));
        for (int i = 0; i < lines.length; i++) {
            g.drawString(lines[i], 60, 130 + i * 70);
        }
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static BufferedImage decode(byte[] jpeg) throws Exception {
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }

    private static int luma(int rgb) {
        return (((rgb >> 16) & 0xFF) * 299 + ((rgb >> 8) & 0xFF) * 587 + (rgb & 0xFF) * 114) / 1000;
    }

    private static String text(List<TextLine> lines) {
        StringBuilder sb = new StringBuilder();
        lines.forEach(l -> sb.append(l.text()).append('\n'));
        return sb.toString();
    }

    @Test
    void theSecretsBoxesAreBlackAndTheRestOfThePictureStays() throws Exception {
        byte[] jpeg = screen("Meeting notes for Thursday", "Reply to " + EMAIL + " before noon", "Deploy token " + KEY,
                "Agenda: budget review and hiring");
        List<TextLine> read = ocr.read(jpeg);
        assertThat(text(read)).contains(EMAIL).contains(KEY);
        List<TextLine> redacted = Redactor.ALL.redactLines(read);
        assertThat(redacted.stream().filter(KeyframePixels::redacted).count()).isEqualTo(2);

        byte[] out = KeyframePixels.blackOut(jpeg, redacted);
        assertThat(out).isNotSameAs(jpeg);
        BufferedImage before = decode(jpeg);
        BufferedImage after = decode(out);
        assertThat(after.getWidth()).isEqualTo(1280);
        assertThat(after.getHeight()).isEqualTo(720);

        List<Rectangle> boxes = KeyframePixels.boxes(redacted, 1280, 720);
        assertThat(boxes).hasSize(2);
        for (Rectangle r : boxes) {
            // Each redacted line's box (widened) is black, wherever the secret's characters stood in it.
            long sum = 0;
            int max = 0;
            for (int y = r.y + 1; y < r.y + r.height - 1; y++) {
                for (int x = r.x + 1; x < r.x + r.width - 1; x++) {
                    int v = luma(after.getRGB(x, y));
                    sum += v;
                    max = Math.max(max, v);
                }
            }
            assertThat(sum / (double) ((r.width - 2) * (r.height - 2))).as("mean luma in %s", r).isLessThan(3);
            assertThat(max).as("brightest pixel in %s", r).isLessThan(40);
        }

        // Away from the boxes (beyond the 8x8 blocks the re-encoding shares with them) the picture is the one captured.
        long diff = 0;
        long n = 0;
        int worst = 0;
        for (int y = 0; y < 720; y++) {
            for (int x = 0; x < 1280; x++) {
                final int px = x;
                final int py = y;
                if (boxes.stream().anyMatch(r -> new Rectangle(r.x - 16, r.y - 16, r.width + 32, r.height + 32).contains(px, py))) {
                    continue;
                }
                int d = Math.abs(luma(before.getRGB(x, y)) - luma(after.getRGB(x, y)));
                diff += d;
                worst = Math.max(worst, d);
                n++;
            }
        }
        assertThat(diff / (double) n).as("mean luma change outside the boxes").isLessThan(1.0);
        assertThat(worst).as("largest luma change outside the boxes").isLessThan(40);
        assertThat(Math.abs(luma(after.getRGB(1050, 520)) - luma(before.getRGB(1050, 520)))).as("inside the untouched block").isLessThan(4);

        // Read again, the stored picture gives neither secret back; the other lines still read.
        String again = text(ocr.read(out));
        assertThat(again).doesNotContain(EMAIL).doesNotContain("example.com").doesNotContain("ghp_").doesNotContain("Q7mZx2");
        assertThat(again).contains("Meeting notes for Thursday").contains("Agenda");
        // Deterministic: the same lines give the same bytes (a replay rewrites the same file).
        assertThat(KeyframePixels.blackOut(jpeg, redacted)).isEqualTo(out);
    }

    @Test
    void aPictureWithNothingRedactedKeepsItsBytes() throws Exception {
        byte[] jpeg = screen("Meeting notes for Thursday", "Agenda: budget review and hiring");
        List<TextLine> redacted = Redactor.ALL.redactLines(ocr.read(jpeg));
        assertThat(redacted).isNotEmpty().noneMatch(KeyframePixels::redacted);
        assertThat(KeyframePixels.blackOut(jpeg, redacted)).isSameAs(jpeg);
        Keyframe k = new Keyframe("s", 1L, 7L, 700L, "first", jpeg, 1_000L);
        assertThat(KeyframePixels.toStore(k, perception(k, redacted, Perception.OK))).isSameAs(k);
    }

    @Test
    void theStoredKeyframeKeepsItsKeyAndAFailedReadingStoresNothing() throws Exception {
        byte[] jpeg = screen("Your password: Tr0ub4dor&3");
        Keyframe k = new Keyframe("s", 1L, 7L, 700L, "first", jpeg, 1_000L);
        List<TextLine> redacted = Redactor.ALL.redactLines(ocr.read(jpeg));
        assertThat(text(redacted)).contains("[redacted:password]");
        Keyframe stored = KeyframePixels.toStore(k, perception(k, redacted, Perception.OK));
        assertThat(stored.storeKey()).isEqualTo(k.storeKey());
        assertThat(stored.jpeg()).isNotEqualTo(jpeg);
        assertThat(text(ocr.read(stored.jpeg()))).doesNotContain("Tr0ub4dor");
        assertThat(KeyframePixels.toStore(k, Perception.failed(k, "cpu", 1280, 720, "inference timed out"))).isNull();
        assertThat(KeyframePixels.toStore(k, null)).isNull();
        // A redacted line over bytes that are no picture: nothing to store rather than the bytes unredacted.
        Keyframe broken = new Keyframe("s", 1L, 8L, 800L, "first", new byte[] {1, 2, 3}, 1_000L);
        assertThat(KeyframePixels.toStore(broken, perception(broken, redacted, Perception.OK))).isNull();
    }

    private static Perception perception(Keyframe k, List<TextLine> lines, String status) {
        return new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, text(lines), null, null, "cpu",
                1280, 720, List.of(), k.eventTimeMs(), status, null);
    }
}
