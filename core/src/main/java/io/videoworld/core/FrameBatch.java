package io.videoworld.core;

import java.util.List;

/**
 * The unit on the {@code vw.frames} topic: consecutive frames of one stream.
 *
 * @param streamId the stream (video) id, also the Kafka record key; see {@link Ids#checkStreamId}
 * @param sourceKind video or screen
 * @param sourceUri where the frames came from (file path, URL or folder), for provenance and
 *     for decoding frames at arbitrary times later
 * @param seq the producer's batch number within the stream, from 0
 * @param epochMs wall-clock time that presentation time 0 corresponds to; event time of a frame
 *     is {@code captureTimeMs} when present, otherwise {@code epochMs + ptsMs}
 * @param source what the producer knows about the source
 * @param frames the frames, in presentation order; never empty on the wire
 */
public record FrameBatch(
        String streamId,
        SourceKind sourceKind,
        String sourceUri,
        long seq,
        long epochMs,
        SourceInfo source,
        List<Frame> frames) {

    /** Event time of one frame of this batch, in epoch milliseconds. */
    public long eventTimeMs(Frame frame) {
        return frame.captureTimeMs() != null ? frame.captureTimeMs() : epochMs + frame.ptsMs();
    }

    /** Event time of the batch: that of its first frame. */
    public long eventTimeMs() {
        return eventTimeMs(frames.get(0));
    }
}
