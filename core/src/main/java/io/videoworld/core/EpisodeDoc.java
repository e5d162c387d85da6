package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An episodic event (MIRIX's episodic memory entry), one document in {@code vw-episodes}, or
 * the deletion of one ({@code deleted}) when events are consolidated.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param seq event number within the push; the id is {@code <stream>:e:<seq>}
 * @param revision how many times it has been written; orders its versions
 * @param eventType "screen_activity" or "scene_activity"
 * @param actor "user" for screens, "scene" for cameras
 * @param occurredAtMs event time of its start (kept by merges)
 * @param endEventTimeMs event time of its end
 * @param startPtsMs presentation time of its start
 * @param endPtsMs presentation time of its end
 * @param app the application (screens) or null
 * @param summary one or two sentences; a merge rewrites it to cover old and new
 * @param details what each batch added, appended, at most 5000 characters
 * @param labels object categories seen
 * @param linkedEventIds earlier events it returns to or continues
 * @param batches memory batches folded into it
 * @param embedding unit-length mean text embedding of its batches, or null
 * @param decidedBy how its latest write was decided: rules, llm, fallback
 * @param closed no later batch will merge into it (too long, or consolidated)
 * @param deleted this write removes the event
 */
public record EpisodeDoc(String streamId, long epochMs, long seq, long revision, String eventType, String actor, long occurredAtMs,
        long endEventTimeMs, long startPtsMs, long endPtsMs, String app, String summary, String details, List<String> labels,
        List<String> linkedEventIds, int batches, float[] embedding, String decidedBy, boolean closed, boolean deleted) implements StreamRecord {

    public String id() {
        return id(streamId, seq);
    }

    public static String id(String streamId, long seq) {
        return streamId + ":e:" + String.format("%06d", seq);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EpisodeDoc d && streamId.equals(d.streamId) && epochMs == d.epochMs && seq == d.seq && revision == d.revision
                && occurredAtMs == d.occurredAtMs && endPtsMs == d.endPtsMs && Objects.equals(summary, d.summary)
                && Objects.equals(details, d.details) && Objects.equals(linkedEventIds, d.linkedEventIds) && closed == d.closed
                && deleted == d.deleted && Arrays.equals(embedding, d.embedding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, seq, revision);
    }

    @Override
    public String toString() {
        return "EpisodeDoc[" + id() + " r" + revision + (deleted ? " deleted" : "") + " " + summary + "]";
    }
}
