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
 * @param last true on the final batch of a finite source (a file or a folder): the stream has
 *     ended, so open shots and episodes close now instead of waiting for an idle timeout
 */
public record FrameBatch(
        String streamId,
        SourceKind sourceKind,
        String sourceUri,
        long seq,
        long epochMs,
        SourceInfo source,
        List<Frame> frames,
        boolean last) implements StreamRecord {
    @Override
    public String position() {
        return "batch " + seq;
    }

    /** A batch that is not the last of its stream. */
    public FrameBatch(String streamId, SourceKind sourceKind, String sourceUri, long seq, long epochMs, SourceInfo source,
            List<Frame> frames) {
        this(streamId, sourceKind, sourceUri, seq, epochMs, source, frames, false);
    }

    /** Event time of one frame of this batch, in epoch milliseconds. */
    public long eventTimeMs(Frame frame) {
        return frame.captureTimeMs() != null ? frame.captureTimeMs() : epochMs + frame.ptsMs();
    }

    /** Event time of the batch: that of its first frame. */
    public long eventTimeMs() {
        return eventTimeMs(frames.get(0));
    }
}
