package io.videoworld.query.retrieval;

import java.util.List;

/**
 * The retrieval family's answers in the seeds' shape (seed 001's {@code candidates} and
 * {@code similar_segments}): records Jackson writes in snake_case with their fields in this order,
 * leaving out fields that are null.
 */
public final class RetrievalResponses {
    private RetrievalResponses() {}

    /** temporal_search (seed 001: search_segments_by_text); {@code sources} says what was searched. */
    public record TextSearch(List<Candidate> candidates, List<String> sources, double searchTimeMs) {}

    /** A shot, episodic event or transcript cue that matched, and what in it matched. */
    public record Candidate(String segmentId, double startTime, double endTime, double score, String sceneId, String matchedReason,
            List<String> frameIds) {}

    /** search_segments_by_semantics; {@code audio_note} when audio was asked for and the video has no transcript. */
    public record SemanticSearch(List<SemanticCandidate> candidates, String audioNote) {}

    /** A candidate and the modalities it matched in. */
    public record SemanticCandidate(String segmentId, double startTime, double endTime, double score, List<String> matchedModalities,
            String explanation) {}

    /** find_similar_segments (seed 001: search_similar_to_example). */
    public record Similar(List<SimilarSegment> similarSegments, String exampleSummary, String similarityMetric) {}

    /** A shot like the example, similarity 0-1. */
    public record SimilarSegment(String segmentId, double startTime, double endTime, double similarity, String sceneId) {}
}
