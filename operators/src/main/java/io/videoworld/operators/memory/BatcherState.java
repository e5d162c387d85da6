package io.videoworld.operators.memory;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.TrackDoc;
import java.util.List;

/**
 * What {@link EpisodeBatcher} keeps of one stream; Flink keyed state.
 *
 * @param epochMs the push
 * @param nextBatch number of the next batch
 * @param pending closed shots waiting for their keyframes' perception, in stream order
 * @param orphans perceptions that arrived before their shot
 * @param tracks recent tracks, to say who was seen in a batch
 * @param recent digests of the latest batches, newest last
 * @param lastEventTimeMs latest event time seen, for the idle timer
 * @param timerAt the registered idle timer, or -1
 */
public record BatcherState(long epochMs, long nextBatch, List<PendingShot> pending, List<Perception> orphans, List<TrackDoc> tracks,
        List<EpisodeBatch.Digest> recent, long lastEventTimeMs, long timerAt) {

    /** A closed shot and the perceptions of its keyframes received so far. */
    public record PendingShot(Segment shot, List<Perception> perceived) {}
}
