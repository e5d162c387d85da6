package io.videoworld.engines.privacy;

import java.nio.charset.StandardCharsets;

/**
 * The grey stand-in for a frame excluded where it was captured (the producer): the flat grey JPEG of
 * {@link WindowExclusion#blank} with the rule that matched in a JPEG comment segment right after the
 * start-of-image marker, so the ingest job records the exclusion (time, rule) without the pixels
 * ever having left the machine, and the frame numbering stays gap-free.
 */
public final class ExclusionMark {
    private static final byte[] PREFIX = "vw-excluded:".getBytes(StandardCharsets.UTF_8);
    private static final int MAX_RULE_BYTES = 1000;

    private ExclusionMark() {}

    /** A grey JPEG of this size that says it stands in for a frame excluded by {@code rule}. */
    public static byte[] excludedFrame(int width, int height, String rule) {
        byte[] grey = WindowExclusion.blank(width, height);
        byte[] text = rule.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(text.length, MAX_RULE_BYTES);
        int len = 2 + PREFIX.length + n;
        int at = commentAt(grey);
        byte[] out = new byte[grey.length + 2 + len];
        System.arraycopy(grey, 0, out, 0, at);
        out[at] = (byte) 0xFF;
        out[at + 1] = (byte) 0xFE;
        out[at + 2] = (byte) (len >> 8);
        out[at + 3] = (byte) len;
        System.arraycopy(PREFIX, 0, out, at + 4, PREFIX.length);
        System.arraycopy(text, 0, out, at + 4 + PREFIX.length, n);
        System.arraycopy(grey, at, out, at + 2 + len, grey.length - at);
        return out;
    }

    /** Where the comment goes: after the start of image and, when there is one, the JFIF segment that must come first. */
    private static int commentAt(byte[] jpeg) {
        int at = 2;
        if (jpeg.length > at + 4 && (jpeg[at] & 0xFF) == 0xFF && (jpeg[at + 1] & 0xFF) == 0xE0) {
            at += 2 + (((jpeg[at + 2] & 0xFF) << 8) | (jpeg[at + 3] & 0xFF));
        }
        return at;
    }

    /** The rule a marked stand-in names, or null for any other JPEG (only its first bytes are looked at). */
    public static String ruleOf(byte[] jpeg) {
        if (jpeg == null || jpeg.length < 8 || (jpeg[0] & 0xFF) != 0xFF || (jpeg[1] & 0xFF) != 0xD8) {
            return null;
        }
        int at = commentAt(jpeg);
        if (at + 4 + PREFIX.length > jpeg.length || (jpeg[at] & 0xFF) != 0xFF || (jpeg[at + 1] & 0xFF) != 0xFE) {
            return null;
        }
        int len = ((jpeg[at + 2] & 0xFF) << 8) | (jpeg[at + 3] & 0xFF);
        if (len < 2 + PREFIX.length || at + 2 + len > jpeg.length) {
            return null;
        }
        for (int i = 0; i < PREFIX.length; i++) {
            if (jpeg[at + 4 + i] != PREFIX[i]) {
                return null;
            }
        }
        return new String(jpeg, at + 4 + PREFIX.length, len - 2 - PREFIX.length, StandardCharsets.UTF_8);
    }
}
