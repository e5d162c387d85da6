package io.videoworld.engines.privacy;

import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.Redactions;
import io.videoworld.core.TextLine;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Blacks out, in a keyframe's JPEG, the boxes of the text lines in which the {@link Redactor} replaced
 * something (their text holds a {@code [redacted:...]} marker), so that the picture kept in the frame
 * store cannot be read for what the text no longer holds. Each box is widened by a quarter of its
 * height on every side (at least two pixels) and filled black; the picture is encoded again as a JPEG
 * of the same size, the rest of it left as it was up to that re-encoding. A keyframe with no such line
 * keeps its bytes. Deterministic (the same lines give the same bytes), stateless and thread-safe.
 */
public final class KeyframePixels {
    /** Quality of the JPEG written after blacking out (0-1): high, so the rest of the picture keeps its detail. */
    static final float QUALITY = 0.92f;

    private KeyframePixels() {}

    /** Whether a line's text holds a redaction marker. */
    public static boolean redacted(TextLine line) {
        return line.text() != null && !Redactions.kinds(line.text()).isEmpty();
    }

    /** The boxes that are blacked out for these lines in a picture of this size: those of the redacted lines, widened, clipped. */
    public static List<Rectangle> boxes(List<TextLine> lines, int width, int height) {
        List<Rectangle> out = new ArrayList<>();
        if (lines == null) {
            return out;
        }
        Rectangle frame = new Rectangle(0, 0, width, height);
        for (TextLine l : lines) {
            if (!redacted(l) || l.width() <= 0 || l.height() <= 0) {
                continue;
            }
            int pad = Math.max(2, l.height() / 4);
            Rectangle r = new Rectangle(l.x() - pad, l.y() - pad, l.width() + 2 * pad, l.height() + 2 * pad).intersection(frame);
            if (!r.isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The JPEG with the redacted lines' boxes black; the same array when no line is redacted. Throws
     * {@link IllegalArgumentException} for bytes that do not decode as a picture.
     */
    public static byte[] blackOut(byte[] jpeg, List<TextLine> lines) {
        if (lines == null || lines.stream().noneMatch(KeyframePixels::redacted)) {
            return jpeg;
        }
        BufferedImage img = decode(jpeg);
        List<Rectangle> boxes = boxes(lines, img.getWidth(), img.getHeight());
        if (boxes.isEmpty()) {
            return jpeg;
        }
        BufferedImage rgb = new BufferedImage(img.getWidth(), img.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = rgb.createGraphics();
        g.drawImage(img, 0, 0, null);
        g.setColor(Color.BLACK);
        boxes.forEach(g::fill);
        g.dispose();
        return encode(rgb);
    }

    /**
     * The keyframe to keep in the frame store after perception {@code p} read it: its redacted lines
     * blacked out (the keyframe itself when none is). Null when there is nothing to keep it by: no
     * perception, one that failed (its text, so where a secret is, is unknown), or a picture with
     * redacted lines that does not decode here.
     */
    public static Keyframe toStore(Keyframe k, Perception p) {
        if (p == null || p.isFailed()) {
            return null;
        }
        byte[] out;
        try {
            out = blackOut(k.jpeg(), p.lines());
        } catch (IllegalArgumentException undecodable) {
            return null;
        }
        return out == k.jpeg() ? k : new Keyframe(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), out, k.eventTimeMs());
    }

    private static BufferedImage decode(byte[] jpeg) {
        try {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(jpeg));
            if (img == null) {
                throw new IllegalArgumentException("not a picture ImageIO can read (" + jpeg.length + " bytes)");
            }
            return img;
        } catch (IOException e) {
            throw new IllegalArgumentException("picture does not decode: " + e.getMessage(), e);
        }
    }

    private static byte[] encode(BufferedImage img) {
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
        ImageWriter writer = writers.next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(QUALITY);
            writer.setOutput(out);
            writer.write(null, new IIOImage(img, null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }
}
