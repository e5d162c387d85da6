package io.videoworld.query.retrieval;

import java.util.List;

/**
 * One piece of evidence an answer can cite: a clip of a stream with its frames, either at most
 * ten seconds around the keyframes where the question's text was read, inside the episodic event
 * that covers them, a stretch of speech whose words matched ({@code matchedText} is what was
 * said), or (where nothing matched) a whole shot.
 *
 * @param clip the clip number the model refers to, 1-based, stable within one ask
 * @param streamId the stream
 * @param segmentId the event (or, where no event covers the clip, the shot) the clip lies in; {@code edge:<id>} for a clip cut
 *     from a memory graph edge
 * @param sceneId the scene the shot belongs to, or null for a clip of an event
 * @param startTime start in seconds
 * @param endTime end in seconds
 * @param frameIds keyframe ids in the clip
 * @param thumbnails thumbnail URLs of those frames
 * @param episodeIds the episodic events the clip lies in (empty where none covers it yet)
 * @param score how well the clip matches the question, 0-1 (hybrid BM25 + embedding over the text
 *     read in its keyframes); null when nothing in it matched
 * @param matchedText the best-matching text read in the clip, or null
 * @param matchedTimes the times (seconds) of the keyframes in the clip whose text matched, best first; empty when none did
 * @param text one line describing the clip for the model
 */
public record Evidence(int clip, String streamId, String segmentId, String sceneId, double startTime, double endTime, List<String> frameIds,
        List<String> thumbnails, List<String> episodeIds, Double score, String matchedText, List<Double> matchedTimes, String text) {}
