package io.videoworld.core;

/**
 * A stream's document in {@code vw-videos}: what the source is and how much of it is indexed.
 * It is also the per-stream keyed state of the catalog operator, so what is written is exactly
 * what the operator knows.
 *
 * @param streamId the stream
 * @param sourceKind video or screen
 * @param sourceUri where the frames came from
 * @param source what the producer reported about the source (from the latest batch)
 * @param epochMs wall-clock time of presentation time 0
 * @param firstEventTimeMs event time of the first indexed frame
 * @param lastEventTimeMs event time of the latest indexed frame
 * @param lastPtsMs presentation time of the latest indexed frame
 * @param framesIndexed frames indexed so far
 * @param batches batches accepted so far
 * @param lastSeq the latest accepted batch number; also the document version
 * @param maxFrameIndex the highest frame number seen
 * @param width encoded width of the latest frame
 * @param height encoded height of the latest frame
 * @param status "live" while frames arrive, "ended" after the last batch of a file or folder, "idle"
 *     once the stream has been silent past the idle timeout
 */
public record VideoDoc(
        String streamId,
        SourceKind sourceKind,
        String sourceUri,
        SourceInfo source,
        long epochMs,
        long firstEventTimeMs,
        long lastEventTimeMs,
        long lastPtsMs,
        long framesIndexed,
        long batches,
        long lastSeq,
        long maxFrameIndex,
        int width,
        int height,
        String status) implements StreamRecord {

    public static final String LIVE = "live";
    public static final String IDLE = "idle";
    public static final String ENDED = "ended";

    public String id() {
        return Ids.video(streamId);
    }

    public VideoDoc withStatus(String newStatus) {
        return new VideoDoc(streamId, sourceKind, sourceUri, source, epochMs, firstEventTimeMs, lastEventTimeMs,
                lastPtsMs, framesIndexed, batches, lastSeq, maxFrameIndex, width, height, newStatus);
    }
}
