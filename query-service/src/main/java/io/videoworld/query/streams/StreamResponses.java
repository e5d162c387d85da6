package io.videoworld.query.streams;

import java.util.List;

/** The shapes {@code /v1/streams} answers with. */
public final class StreamResponses {
    private StreamResponses() {}

    /** {@code GET /v1/streams}: the streams the caller may read, by id. */
    public record StreamList(List<StreamInfo> streams, int total) {}

    /**
     * One stream: what it is, how far it is indexed, and how much each index holds for it.
     *
     * @param timeRange event times of its first and latest indexed frames
     * @param lastActivity the latest indexed frame's event time (ISO-8601), which retention reads
     * @param storedBytes the JPEG bytes of its keyframes in the frame store (what the storage budget counts)
     */
    public record StreamInfo(String id, String kind, String status, String sourceUri, long frames, TimeRange timeRange,
            String lastActivity, long lastActivityMs, long shots, long scenes, long episodes, long tracks, long storedBytes) {}

    /** A span of wall-clock time, in epoch milliseconds and ISO-8601. */
    public record TimeRange(long startMs, long endMs, String start, String end, double durationSeconds) {}

    /** {@code DELETE /v1/streams/{id}}: what went. */
    public record Deleted(String id, long documents, boolean framesDeleted) {}

    /**
     * {@code POST /v1/streams/{id}/forget}: what was asked to be forgotten (a time range, a phrase or an app) and
     * how many documents went from each index, and how many stored keyframes.
     */
    public record Forgotten(String id, Long fromMs, Long toMs, String phrase, String app, java.util.Map<String, Long> documents, long total,
            long framesDeleted) {}

    /**
     * {@code POST /v1/streams/budget}: one storage-budget pass: the bounds, the stored keyframe bytes
     * of all streams before and after, the bytes freed per stream and the stored keyframes deleted.
     */
    public record Budgeted(long perStreamBytes, long totalBytes, long usedBefore, long usedAfter, java.util.Map<String, Long> freed,
            long framesDeleted) {}

    /** One retention pass: documents older than the cutoff, and the streams that went whole. */
    public record Expired(long cutoffMs, String cutoff, List<String> streamsDeleted, long documents, long framesDeleted) {}
}
