package io.videoworld.query.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Ids derived from what they name (a memory's text and range, an entity's track), so writing the
 * same thing twice gives the same id and overwrites instead of duplicating.
 */
public final class ContentIds {
    private ContentIds() {}

    /** {@code prefix} and the first {@code hexChars} hex digits of the SHA-1 of {@code content}. */
    public static String of(String prefix, String content, int hexChars) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(content.getBytes(StandardCharsets.UTF_8));
            return prefix + HexFormat.of().formatHex(d).substring(0, hexChars);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
