package io.videoworld.perception;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.TextLine;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real PP-OCRv4 weights on a rendered screenshot whose text is known. */
class OcrEngineTest {
    private static OcrEngine ocr;

    @BeforeAll
    static void load() throws Exception {
        ocr = OcrEngine.load(ModelDirectory.locate());
    }

    @AfterAll
    static void close() {
        ocr.close();
    }

    static byte[] screenshot(String... lines) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(250, 250, 250));
        g.fillRect(0, 0, 1280, 720);
        g.setColor(new Color(40, 90, 200));
        g.fillRect(0, 0, 1280, 56);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(34f));
        g.setColor(Color.WHITE);
        g.drawString("Inbox - Mail", 24, 40);
        g.setColor(new Color(30, 30, 30));
        g.setFont(font.deriveFont(28f));
        for (int i = 0; i < lines.length; i++) {
            g.drawString(lines[i], 60, 140 + i * 70);
        }
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    @Test
    void readsTheLinesOfARenderedScreenshotInOrder() throws Exception {
        List<TextLine> lines = ocr.read(screenshot("Quarterly report due Friday", "Meeting moved to 3pm", "Invoice 2041 paid"));
        List<String> text = lines.stream().map(TextLine::text).toList();
        assertThat(text).hasSize(4);
        assertThat(text.get(0)).isEqualToIgnoringWhitespace("Inbox-Mail");
        assertThat(text.get(1)).isEqualToIgnoringWhitespace("QuarterlyreportdueFriday");
        assertThat(text.get(2)).isEqualToIgnoringWhitespace("Meetingmovedto3pm");
        assertThat(text.get(3)).isEqualToIgnoringWhitespace("Invoice2041paid");
        TextLine second = lines.get(1);
        assertThat(second.y()).isBetween(95, 130);
        assertThat(second.x()).isBetween(40, 70);
        assertThat(second.score()).isGreaterThan(0.8);
    }

    @Test
    void aBatchOfScreensReadsAsEachScreenAlone() throws Exception {
        byte[] mail = screenshot("Quarterly report due Friday", "Meeting moved to 3pm");
        byte[] other = screenshot("Build 118 failed on main", "Rollback approved by Priya", "Standup at 9:15", "Coffee machine fixed");
        List<List<TextLine>> both;
        try {
            both = ocr.tensorBatching(true).readAll(List.of(mail, other, mail));
        } finally {
            ocr.tensorBatching(false);
        }
        assertThat(both).hasSize(3);
        assertThat(both.get(0)).extracting(TextLine::text).isEqualTo(ocr.read(mail).stream().map(TextLine::text).toList());
        assertThat(both.get(1)).extracting(TextLine::text).isEqualTo(ocr.read(other).stream().map(TextLine::text).toList());
        assertThat(both.get(1).stream().map(TextLine::text).toList()).anySatisfy(t -> assertThat(t).isEqualToIgnoringWhitespace("Standupat9:15"));
        assertThat(both.get(2)).extracting(TextLine::text).isEqualTo(both.get(0).stream().map(TextLine::text).toList());
    }

    @Test
    void aScreenReadAgainRecognisesOnlyTheLinesThatChangedAndReadsAsWithoutTheMemo() throws Exception {
        byte[] before = screenshot("Quarterly report due Friday", "Meeting moved to 3pm", "Invoice 2041 paid");
        byte[] after = screenshot("Quarterly report due Friday", "Meeting moved to 3pm", "Invoice 2042 overdue");
        DecodedImage first = DecodedImage.decode(before);
        DecodedImage second = DecodedImage.decode(after);
        List<OcrEngine.Crop> whole = List.of(new OcrEngine.Crop(0, 0, second.width(), second.height()));
        List<String> fresh;
        List<TextLine> again;
        long remembered;
        long recognised;
        long rememberedAgain;
        long recognisedAgain;
        try {
            ocr.lineMemo(OcrEngine.LINE_MEMO);
            fresh = ocr.read(after).stream().map(TextLine::text).toList();
            assertThat(ocr.linesRecognised()).as("a read that does not remember leaves the memo alone").isZero();
            ocr.readCrops(List.of(first), whole, true);
            remembered = ocr.linesRemembered();
            recognised = ocr.linesRecognised();
            again = ocr.readCrops(List.of(second), whole, true).get(0);
            rememberedAgain = ocr.linesRemembered();
            recognisedAgain = ocr.linesRecognised();
        } finally {
            ocr.lineMemo(OcrEngine.LINE_MEMO);
        }
        assertThat(recognised).as("the first read recognises every line").isEqualTo(4);
        assertThat(remembered).isZero();
        assertThat(again).extracting(TextLine::text).as("the same text as read without the memo").isEqualTo(fresh);
        assertThat(again.get(3).text()).isEqualToIgnoringWhitespace("Invoice2042overdue");
        assertThat(rememberedAgain).as("the title and the two lines that did not change").isEqualTo(3);
        assertThat(recognisedAgain - recognised).as("only the changed line is recognised").isEqualTo(1);
        assertThat(again.get(1).y()).as("a remembered line keeps the box found in this read").isBetween(95, 130);
    }

    @Test
    void ctcDecodingCollapsesRepeatsAndDropsBlanks() {
        List<String> alphabet = List.of("", "a", "b");
        float[] probs = {
            0.1f, 0.8f, 0.1f,
            0.1f, 0.8f, 0.1f,
            0.9f, 0.05f, 0.05f,
            0.1f, 0.8f, 0.1f,
            0.1f, 0.1f, 0.8f};
        PpOcrImages.Decoded d = PpOcrImages.ctcDecode(probs, 5, 3, alphabet);
        assertThat(d.text()).isEqualTo("aab");
        assertThat(d.score()).isCloseTo(0.8, org.assertj.core.api.Assertions.within(1e-6));
    }
}
