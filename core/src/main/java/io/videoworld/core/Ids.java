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
        return streamId + ":f:" + String.format("%010d", frameIndex);
    }

    /** Id of a track document: tracks are numbered per stream in the order they are born. */
    public static String track(String streamId, long trackNumber) {
        return streamId + ":t:" + String.format("%06d", trackNumber);
    }

    /** Id of a stream's video document. */
    public static String video(String streamId) {
        return streamId;
    }
}
