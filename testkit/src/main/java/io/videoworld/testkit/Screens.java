package io.videoworld.testkit;

import io.videoworld.core.TextLine;
import io.videoworld.perception.DecodedImage;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Java2D screens with text at known places: a title bar, and a document of lines scrolled by some pixels. */
public final class Screens {
    public static final int WIDTH = 1280;
    public static final int HEIGHT = 800;
    public static final int TOP = 80;
    public static final int PITCH = 44;
    private static Font font;

    private Screens() {}

    public static Font font() {
        if (font == null) {
            try {
                font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
            } catch (IOException | FontFormatException e) {
                throw new IllegalStateException(e);
            }
        }
        return font;
    }

    /** The document's lines from {@code scroll} pixels down, under a fixed title bar; with the boxes where each whole line is. */
    public record Screen(DecodedImage image, List<TextLine> truth) {}

    public static Screen render(String title, List<String> doc, int scroll) {
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(250, 250, 250));
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setFont(font().deriveFont(26f));
        g.setColor(new Color(30, 30, 30));
        List<TextLine> truth = new ArrayList<>();
        for (int i = 0; i < doc.size(); i++) {
            int base = TOP + 40 + i * PITCH - scroll;
            if (base - 30 < TOP || base + 10 > HEIGHT) {
                continue;
            }
            g.drawString(doc.get(i), 60, base);
            int w = g.getFontMetrics().stringWidth(doc.get(i));
            truth.add(new TextLine(doc.get(i), 60, base - 22, w, 30, 1));
        }
        g.setColor(new Color(40, 90, 200));
        g.fillRect(0, 0, WIDTH, TOP - 16);
        g.setColor(Color.WHITE);
        g.setFont(font().deriveFont(30f));
        g.drawString(title, 24, 44);
        truth.add(0, new TextLine(title, 24, 18, g.getFontMetrics().stringWidth(title), 34, 1));
        g.dispose();
        return new Screen(decoded(img), truth);
    }

    public static DecodedImage decoded(BufferedImage img) {
        byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        return new DecodedImage(img.getWidth(), img.getHeight(), bgr.clone());
    }

    public static List<String> document(int lines, long seed) {
        String[] words = {"invoice", "meeting", "report", "deploy", "review", "budget", "travel", "backlog", "kernel", "release",
            "customer", "schema", "monday", "coffee", "window", "server", "garden", "ticket", "design", "memory"};
        java.util.Random rnd = new java.util.Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            StringBuilder sb = new StringBuilder().append(i + 1).append('.');
            int n = 3 + rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                sb.append(' ').append(words[rnd.nextInt(words.length)]);
            }
            out.add(sb.toString());
        }
        return out;
    }

}
