package io.videoworld.engines.memory;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TranscriptDoc;
import java.util.List;

/**
 * What {@code EpisodeBatcher} keeps of one stream; Flink keyed state.
 *
 * @param epochMs the push
 * @param sourceKind video or screen, once known
 * @param nextBatch number of the next batch
 * @param emittedUntilPts presentation time up to which batches have been emitted
 * @param pending closed shots waiting for their keyframes' perception, in stream order
 * @param orphans perceptions not (yet) in a closed shot: the open shot's, or early ones
 * @param tracks recent tracks, to say who was seen in a batch
 * @param recent digests of the latest batches, newest last
 * @param lastEventTimeMs latest event time seen, for the idle timer
 * @param idleTimerAt the registered idle timer, or -1
 * @param openTimerAt the registered timer for the open shot's batches, or -1
 * @param tasks screens: the latest batch of each task (window title, and text under one title), for returns older than {@code recent}
 * @param lastKeyframe screens: the last keyframe batched, which the next one must continue ({@link ScreenContinuity}) or cut
 * @param views screens: what the last keyframe of each remembered batch showed, to find a task returned to by its content
 * @param said stretches of speech heard and not yet in a batch, by end time
 */
public record BatcherState(long epochMs, SourceKind sourceKind, long nextBatch, long emittedUntilPts, List<PendingShot> pending,
        List<Perception> orphans, List<TrackDoc> tracks, List<EpisodeBatch.Digest> recent, long lastEventTimeMs, long idleTimerAt,
        long openTimerAt, List<EpisodeBatch.Digest> tasks, Perception lastKeyframe, List<View> views, List<TranscriptDoc> said) {

    public BatcherState {
        // State written before tasks were kept restores with none.
        tasks = tasks == null ? List.of() : tasks;
        views = views == null ? List.of() : views;
        said = said == null ? List.of() : said;
    }

    /** A state holding no speech. */
    public BatcherState(long epochMs, SourceKind sourceKind, long nextBatch, long emittedUntilPts, List<PendingShot> pending,
            List<Perception> orphans, List<TrackDoc> tracks, List<EpisodeBatch.Digest> recent, long lastEventTimeMs, long idleTimerAt,
            long openTimerAt, List<EpisodeBatch.Digest> tasks, Perception lastKeyframe, List<View> views) {
        this(epochMs, sourceKind, nextBatch, emittedUntilPts, pending, orphans, tracks, recent, lastEventTimeMs, idleTimerAt, openTimerAt, tasks,
                lastKeyframe, views, List.of());
    }

    /**
     * Screens: what the last keyframe of batch {@code batchSeq} showed ({@code lines}: its content, normalised), the first
     * batch of its activity, and the words all its keyframes showed ({@code words}, bounded; {@link ScreenReturns}).
     */
    public record View(long batchSeq, long activity, List<String> lines, List<String> words) {
        public View {
            // State written before words were kept restores with none.
            words = words == null ? List.of() : words;
        }

        public View(long batchSeq, long activity, List<String> lines) {
            this(batchSeq, activity, lines, List.of());
        }
    }

    /** A closed shot and the perceptions of its keyframes received so far. */
    public record PendingShot(Segment shot, List<Perception> perceived) {}
}
