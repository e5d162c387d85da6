package io.videoworld.query.retrieval;

import java.util.List;

/**
 * One piece of evidence an answer can cite: a clip of a stream (a shot, later also episodes and
 * track events) with its frames.
 *
 * @param clip the clip number the model refers to, 1-based, stable within one ask
 * @param streamId the stream
 * @param segmentId the shot or episode id
 * @param sceneId the scene the shot belongs to
 * @param startTime start in seconds
 * @param endTime end in seconds
 * @param frameIds keyframe ids in the clip
 * @param thumbnails thumbnail URLs of those frames
 * @param episodeIds episodes the clip belongs to (none until episodic memory exists)
 * @param score how well the clip matches the question, 0-1 (hybrid BM25 + embedding over the text
 *     read in its keyframes); null when nothing in it matched
 * @param matchedText the best-matching text read in the clip, or null
 * @param text one line describing the clip for the model
 */
public record Evidence(int clip, String streamId, String segmentId, String sceneId, double startTime, double endTime, List<String> frameIds,
        List<String> thumbnails, List<String> episodeIds, Double score, String matchedText, String text) {}
