package io.videoworld.core;

/**
 * The one fact kept about a frame whose window an exclusion rule kept from perception and storage.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param frameIndex producer frame number
 * @param ptsMs presentation time
 * @param eventTimeMs event time of the frame
 * @param rule the rule that matched, as it was written
 */
public record WindowExcluded(String streamId, long epochMs, long frameIndex, long ptsMs, long eventTimeMs, String rule) {
    /** The document id: one per frame, so a replay overwrites. */
    public String id() {
        return Ids.frame(streamId, frameIndex);
    }
}
