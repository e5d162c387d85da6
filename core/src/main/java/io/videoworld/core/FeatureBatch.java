package io.videoworld.core;

import java.util.List;

/**
 * The features of one {@link FrameBatch}, kept together so the keyed shot operator loads and
 * saves its state once per batch rather than once per frame.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param sampleFps frames per second of stream time
 * @param last whether this ends a finite source
 * @param frames the frames' features in order
 * @param live whether the source is live ({@link SourceInfo#isLive}): what falls behind may be skipped
 */
public record FeatureBatch(String streamId, long epochMs, double sampleFps, boolean last, List<FrameFeatures> frames, boolean live) implements StreamRecord {

    /** A batch of a file or folder (not live). */
    public FeatureBatch(String streamId, long epochMs, double sampleFps, boolean last, List<FrameFeatures> frames) {
        this(streamId, epochMs, sampleFps, last, frames, false);
    }

    /** Event time of the last frame. */
    public long lastEventTimeMs() {
        return frames.get(frames.size() - 1).eventTimeMs();
    }
}
