package io.videoworld.engines.privacy;

import io.videoworld.core.ExclusionRules;
import io.videoworld.core.TextLine;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.OcrEngine;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Decides, before a frame is perceived or stored, whether its window is excluded: only the frame's
 * top band (where title bars, tab strips and address bars are) is read, its rows are matched
 * against the {@link ExclusionRules}, and an excluded frame's pixels are replaced by a flat grey
 * picture of the same size, so no later stage sees or keeps the window.
 */
public final class WindowExclusion {
    /** The share of the frame's height read as chrome. */
    public static final double TOP_BAND = 0.2;
    /** The least height of the band in pixels, for small frames. */
    public static final int MIN_BAND = 48;

    private final OcrEngine ocr;
    private final ExclusionRules rules;

    /** Reads chrome with {@code ocr} (used by one thread at a time) and matches it with {@code rules}. */
    public WindowExclusion(OcrEngine ocr, ExclusionRules rules) {
        this.ocr = ocr;
        this.rules = rules;
    }

    /** The rows of text in the top band of a picture, top first, the pieces of one row joined left to right. */
    public List<String> chromeRows(DecodedImage image) {
        int band = Math.min(image.height(), Math.max(MIN_BAND, (int) Math.round(image.height() * TOP_BAND)));
        List<TextLine> lines = new ArrayList<>(ocr.readCrops(List.of(image), List.of(new OcrEngine.Crop(0, 0, image.width(), band))).get(0));
        lines.sort(Comparator.comparingInt(TextLine::y).thenComparingInt(TextLine::x));
        List<String> rows = new ArrayList<>();
        List<TextLine> row = new ArrayList<>();
        for (TextLine l : lines) {
            if (!row.isEmpty()) {
                TextLine first = row.get(0);
                double mid = l.y() + l.height() / 2.0;
                if (mid < first.y() || mid > first.y() + first.height()) {
                    rows.add(join(row));
                    row = new ArrayList<>();
                }
            }
            row.add(l);
        }
        if (!row.isEmpty()) {
            rows.add(join(row));
        }
        return rows;
    }

    private static String join(List<TextLine> row) {
        row.sort(Comparator.comparingInt(TextLine::x));
        StringBuilder sb = new StringBuilder();
        for (TextLine l : row) {
            sb.append(sb.isEmpty() ? "" : "  ").append(l.text().strip());
        }
        return sb.toString();
    }

    /** The spec of the rule that excludes this JPEG's window, or null when none does (or there are no rules). */
    public String excludedBy(byte[] jpeg) {
        return excludedBy(jpeg, rules);
    }

    /** The spec of the first of {@code rules} that excludes this JPEG's window, or null when none does. */
    public String excludedBy(byte[] jpeg, ExclusionRules rules) {
        if (rules.isEmpty()) {
            return null;
        }
        DecodedImage image;
        try {
            image = DecodedImage.decode(jpeg);
        } catch (RuntimeException undecodable) {
            return null; // no stage can read it either; the frame's own checks dead-letter it downstream
        }
        return rules.match(chromeRows(image));
    }

    /** A flat grey JPEG of this size: what stands in for an excluded frame downstream. */
    public static byte[] blank(int width, int height) {
        BufferedImage img = new BufferedImage(Math.max(1, width), Math.max(1, height), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(128, 128, 128));
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "jpg", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
