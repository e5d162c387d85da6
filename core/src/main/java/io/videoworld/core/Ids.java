package io.videoworld.core;

import java.util.regex.Pattern;

/**
 * Deterministic document ids: the same input always yields the same id, so a replay after a
 * failure overwrites a document instead of duplicating it.
 */
public final class Ids {
    /** Stream ids become parts of document ids and URLs, so they are kept to a safe alphabet. */
    public static final Pattern STREAM_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private Ids() {}

    /** Returns the id if valid, otherwise throws with a message naming the rule. */
    public static String checkStreamId(String streamId) {
        if (streamId == null || !STREAM_ID.matcher(streamId).matches()) {
            throw new IllegalArgumentException("stream id '" + streamId
                    + "' must be 1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return streamId;
    }

    /** Id of a frame document; zero-padded so ids sort in frame order. */
    public static String frame(String streamId, long frameIndex) {
        return streamId + ":f:" + zeroPadded(frameIndex, 10);
    }

    /** Id of a transcript document: a stretch of speech, by where it starts. */
    public static String transcript(String streamId, long startMs) {
        return streamId + ":a:" + zeroPadded(startMs, 12);
    }

    /** Id of a track document: tracks are numbered per stream in the order they are born. */
    public static String track(String streamId, long trackNumber) {
        return streamId + ":t:" + zeroPadded(trackNumber, 6);
    }

    /**
     * {@code n} as {@code String.format("%0<width>d", n)} writes it in ASCII digits (a minus sign
     * counts towards the width). Ids are built for every frame and shot a tool answers with, and
     * {@code String.format} parses its pattern and builds locale symbols on every call: it was
     * the largest source of garbage in the query service under load.
     */
    public static String zeroPadded(long n, int width) {
        String digits = Long.toString(n);
        if (digits.length() >= width) {
            return digits;
        }
        StringBuilder sb = new StringBuilder(width);
        int from = 0;
        if (n < 0) {
            sb.append('-');
            from = 1;
        }
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits, from, digits.length()).toString();
    }

    /** Id of a stream's video document. */
    public static String video(String streamId) {
        return streamId;
    }
}
