package io.videoworld.query.memory;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.query.api.TimeRange;
import java.util.List;

/**
 * The memory family's answers in the seeds' shape (seed 001 APIs 12-14), and the memory document
 * the tools store: records Jackson writes in snake_case with their fields in this order, leaving
 * out fields that are null.
 */
public final class MemoryResponses {
    private MemoryResponses() {}

    /** write_memory; {@code timestamp} is when it was written (seconds since the epoch). */
    public record Written(String memoryId, double timestamp, String level, boolean success) {}

    /** read_memory. */
    public record Memories(List<Memory> memories, int totalRetrieved) {}

    /**
     * One memory: written by a tool, an episodic event of the ingest job, or what a keyframe showed.
     * An event whose keyframes read the query's text has {@code clips}: where in it, best first.
     */
    public record Memory(String memoryId, String level, TimeRange timeRange, String content, double relevanceScore, double importance,
            Object metadata, List<Clip> clips) {
        Memory(String memoryId, String level, TimeRange timeRange, String content, double relevanceScore, double importance, Object metadata) {
            this(memoryId, level, timeRange, content, relevanceScore, importance, metadata, null);
        }

        Memory withRelevance(double score) {
            return new Memory(memoryId, level, timeRange, content, score, importance, metadata, clips);
        }
    }

    /**
     * At most ten seconds of an event around the keyframes where the query's text was read.
     *
     * @param keyframeTimes the times (seconds) of those keyframes, best first
     * @param frameIds every analysed keyframe of the clip
     * @param text the line read that shares most words with the query
     */
    public record Clip(TimeRange timeRange, List<Double> keyframeTimes, List<String> frameIds, String text) {}

    /** Where an episodic event came from and what else is known of it. */
    public record EventMetadata(String source, long occurredAt, String app, JsonNode labels, JsonNode linkedEventIds, int batches,
            String details) {}

    /** Where a memory came from. */
    public record Source(String source) {}

    /** merge_events. */
    public record Merged(MergedEvent mergedEvent) {}

    /** The episode memory a merge wrote; {@code note} when causal links were asked for and none could be given. */
    public record MergedEvent(String memoryId, String level, TimeRange timeRange, String content, List<String> sourceEvents,
            String temporalStructure, List<JsonNode> causalChain, String method, String note) {}

    /** A memory as stored in {@code vw-memories}; {@code embedding} only when an embedder is loaded. */
    public record MemoryDoc(String memoryId, String streamId, String level, String type, String content, double startTime, double endTime,
            double importance, long createdMs, JsonNode metadata, float[] embedding) {}
}
