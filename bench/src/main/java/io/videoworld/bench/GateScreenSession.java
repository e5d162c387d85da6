package io.videoworld.bench;

import io.videoworld.perception.DecodedImage;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * The screen session {@link GateBench} reads: four apps at 1280x800, 1 fps, typing, scrolling and
 * idle stretches, as JPEG q90 like the producer sends them, each frame with the lines drawn on it
 * (the truth of the text-recall figures).
 */
final class GateScreenSession {
    private GateScreenSession() {}

    /** One frame as decoded from its JPEG, and the lines drawn on it. */
    record Shot(DecodedImage image, List<String> truth) {}

    private record App(String title, Color bar, Color background, long seed) {
        static final App[] APPS = {
            new App("Quarterly notes - Editor", new Color(40, 90, 200), new Color(250, 250, 250), 1),
            new App("Inbox - Mail", new Color(200, 70, 50), new Color(245, 245, 240), 2),
            new App("build.log - Terminal", new Color(60, 60, 60), new Color(235, 240, 235), 3),
            new App("Release plan - Wiki", new Color(30, 140, 90), new Color(250, 248, 240), 4)};
    }

    private record Rendered(BufferedImage image, List<String> truth) {}

    private static final String[] WORDS = {"invoice", "meeting", "report", "deploy", "review", "budget", "travel", "backlog", "kernel",
        "release", "customer", "schema", "monday", "coffee", "window", "server", "garden", "ticket", "design", "memory", "friday", "patch"};
    private static final int TOP = 80;
    private static final int PITCH = 40;
    private static Font font;

    private static List<String> document(App app) {
        Random rnd = new Random(app.seed());
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            StringBuilder sb = new StringBuilder().append(i + 1).append('.');
            int n = 2 + rnd.nextInt(7);
            for (int k = 0; k < n; k++) {
                sb.append(' ').append(WORDS[rnd.nextInt(WORDS.length)]);
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** A session: each activity 8-20 s in one app (typing at the end of its document's visible part, scrolling, or idle). */
    static List<Shot> session(int frames, long seed) throws Exception {
        Random rnd = new Random(seed);
        int[] scroll = new int[App.APPS.length];
        List<List<String>> docs = new ArrayList<>();
        for (App a : App.APPS) {
            docs.add(document(a));
        }
        List<Shot> out = new ArrayList<>();
        while (out.size() < frames) {
            int app = rnd.nextInt(App.APPS.length);
            int length = 8 + rnd.nextInt(13);
            int mode = rnd.nextInt(3);
            int line = -1;
            for (int s = 0; s < length && out.size() < frames; s++) {
                List<String> doc = docs.get(app);
                if (mode == 0) {
                    scroll[app] = Math.min(scroll[app] + 30 + rnd.nextInt(130), doc.size() * PITCH - 600);
                } else if (mode == 1) {
                    if (line < 0) {
                        line = Math.min(doc.size() - 1, scroll[app] / PITCH + 3 + rnd.nextInt(10));
                    }
                    if (doc.get(line).length() > 60) {
                        line = Math.min(doc.size() - 1, line + 1);
                    }
                    doc.set(line, doc.get(line) + " " + WORDS[rnd.nextInt(WORDS.length)]);
                } else if (s > 0 && rnd.nextInt(4) == 0) {
                    scroll[app] = Math.max(0, scroll[app] - 20 - rnd.nextInt(100)); // a small scroll back while reading
                }
                Rendered r = render(App.APPS[app], scroll[app], doc);
                out.add(new Shot(DecodedImage.decode(jpeg(r.image(), 90)), r.truth()));
            }
        }
        return out;
    }

    /** One frame of the first app, JPEG q90, to warm the OCR up. */
    static byte[] warmUpJpeg() throws Exception {
        App app = App.APPS[0];
        return jpeg(render(app, 0, document(app)).image(), 90);
    }

    private static Rendered render(App app, int scroll, List<String> doc) throws Exception {
        if (font == null) {
            font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        }
        BufferedImage img = new BufferedImage(1280, 800, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(app.background());
        g.fillRect(0, 0, 1280, 800);
        g.setColor(new Color(225, 228, 235));
        g.fillRect(0, TOP, 220, 800 - TOP);
        g.setFont(font.deriveFont(22f));
        List<String> truth = new ArrayList<>();
        g.setColor(new Color(60, 60, 70));
        String[] side = {"Home", "Recent", "Shared", "Starred", "Trash"};
        for (int i = 0; i < side.length; i++) {
            g.drawString(side[i], 24, TOP + 50 + i * 48);
            truth.add(side[i]);
        }
        g.setColor(new Color(30, 30, 30));
        g.setFont(font.deriveFont(24f));
        for (int i = 0; i < doc.size(); i++) {
            int base = TOP + 40 + i * PITCH - scroll;
            if (base - 28 < TOP || base + 8 > 800) {
                continue;
            }
            g.drawString(doc.get(i), 250, base);
            truth.add(doc.get(i));
        }
        g.setColor(app.bar());
        g.fillRect(0, 0, 1280, TOP - 16);
        g.setColor(Color.WHITE);
        g.setFont(font.deriveFont(28f));
        g.drawString(app.title(), 24, 44);
        truth.add(0, app.title());
        g.dispose();
        return new Rendered(img, truth);
    }

    private static byte[] jpeg(BufferedImage img, int quality) throws Exception {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = writer.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(quality / 100f);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            writer.write(null, new IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }
}
