package io.videoworld.engines.privacy;

import io.videoworld.core.ExclusionRules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
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

/** Exclusion rules read from rendered windows with the real OCR model: only the chrome decides, the content is never needed. */
class WindowExclusionTest {
    private static OcrEngine ocr;

    @BeforeAll
    static void load() throws Exception {
        ocr = OcrEngine.load(ModelDirectory.locate());
    }

    @AfterAll
    static void close() {
        ocr.close();
    }

    /** A 1280x720 window: an optional desktop panel with a clock, a title bar, an optional address bar, content lines. */
    static byte[] window(boolean panel, String title, String address, String... content) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(248, 248, 248));
        g.fillRect(0, 0, 1280, 720);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        int y = 0;
        if (panel) {
            g.setColor(new Color(20, 20, 20));
            g.fillRect(0, 0, 1280, 28);
            g.setFont(font.deriveFont(17f));
            g.setColor(Color.WHITE);
            g.drawString("Activities", 12, 20);
            g.drawString("Thu 14:05", 590, 20);
            y = 28;
        }
        g.setColor(new Color(60, 60, 70));
        g.fillRect(0, y, 1280, 44);
        g.setFont(font.deriveFont(24f));
        g.setColor(Color.WHITE);
        g.drawString(title, 24, y + 31);
        y += 44;
        if (address != null) {
            g.setColor(new Color(225, 225, 230));
            g.fillRect(0, y, 1280, 40);
            g.setColor(Color.BLACK);
            g.setFont(font.deriveFont(20f));
            g.drawString(address, 80, y + 27);
            y += 40;
        }
        g.setFont(font.deriveFont(26f));
        g.setColor(new Color(30, 30, 30));
        for (int i = 0; i < content.length; i++) {
            g.drawString(content[i], 60, y + 80 + i * 60);
        }
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static final ExclusionRules RULES = ExclusionRules.parse(List.of("app:KeePassXC", "title:(?i)\\bpayroll\\b",
            "domain:mybank.com", "private"));

    @Test
    void eachRuleExcludesItsWindowAndOnlyIt() throws Exception {
        WindowExclusion ex = new WindowExclusion(ocr, RULES);
        assertThat(ex.excludedBy(window(false, "Passwords.kdbx - KeePassXC", null, "github.com  alice  hunter2"))).isEqualTo("app:KeePassXC");
        assertThat(ex.excludedBy(window(true, "Passwords.kdbx - KeePassXC", null, "bank  alice  Tr0ub4dor"))).isEqualTo("app:KeePassXC");
        assertThat(ex.excludedBy(window(false, "Q3 Payroll.xlsx - Spreadsheet", null, "Dana 5400"))).isEqualTo("title:(?i)\\bpayroll\\b");
        assertThat(ex.excludedBy(window(false, "Accounts - Firefox", "https://online.mybank.com/accounts", "Balance 1200.00")))
                .isEqualTo("domain:mybank.com");
        assertThat(ex.excludedBy(window(true, "New Private Tab - Mozilla Firefox Private Browsing", "Search or enter address",
                "You are in a private window"))).isEqualTo("private");
        // Content does not decide: the same words below the chrome exclude nothing, and ordinary windows pass.
        assertThat(ex.excludedBy(window(false, "Inbox - Mail", null, "KeePassXC release notes", "payroll meeting at 3",
                "see mybank.com for details", "private browsing tips"))).isNull();
        assertThat(ex.excludedBy(window(false, "Accounts - Firefox", "https://www.notmybank.community/accounts", "Balance"))).isNull();
    }

    @Test
    void noRulesReadNothing() throws Exception {
        assertThat(new WindowExclusion(null, ExclusionRules.NONE).excludedBy(window(false, "Passwords.kdbx - KeePassXC", null))).isNull();
    }

    @Test
    void aBadRuleIsRefusedByName() {
        assertThatThrownBy(() -> ExclusionRules.parse(List.of("window:Mail"))).hasMessageContaining("window:Mail");
        assertThatThrownBy(() -> ExclusionRules.parse(List.of("app:"))).hasMessageContaining("names nothing");
    }

    @Test
    void theBlankHasTheFramesSizeAndNoDetail() {
        DecodedImage blank = DecodedImage.decode(WindowExclusion.blank(640, 360));
        assertThat(blank.width()).isEqualTo(640);
        assertThat(blank.height()).isEqualTo(360);
        byte[] bgr = blank.bgr();
        int min = 255;
        int max = 0;
        for (byte b : bgr) {
            min = Math.min(min, b & 0xff);
            max = Math.max(max, b & 0xff);
        }
        assertThat(max - min).isLessThanOrEqualTo(2);
    }
}
