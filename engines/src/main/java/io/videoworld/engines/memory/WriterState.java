package io.videoworld.engines.memory;

import java.util.List;

/**
 * What {@code EpisodeWriter} keeps of one stream: the latest events as they were last written.
 *
 * @param epochMs the push
 * @param nextSeq number the next inserted event gets
 * @param events the latest ten events, oldest first, after up to forty older ones kept without their text for returns to link to
 * @param lastEventTimeMs latest batch end, for the idle timer
 * @param timerAt the registered idle timer, or -1
 */
public record WriterState(long epochMs, long nextSeq, List<Event> events, long lastEventTimeMs, long timerAt) {

    /**
     * One event.
     *
     * @param seq its number
     * @param revision writes so far
     * @param occurredAtMs event time of its start
     * @param endEventTimeMs event time of its end
     * @param startPtsMs presentation time of its start
     * @param endPtsMs presentation time of its end
     * @param app application, or null
     * @param title latest window title, or null
     * @param keyLines lines that make its summary: the first ones of each batch, old before new
     * @param labels object categories seen
     * @param details the appended per-batch details
     * @param links earlier events it continues or returns to
     * @param embeddingSum sum of its batches' embeddings
     * @param embeddedBatches batches that had an embedding
     * @param batches batches folded in
     * @param batchSeqs numbers of its latest batches (returns are found through them)
     * @param decidedBy how its latest write was decided
     * @param closed whether later batches may still merge into it
     * @param said the first words said during it (a short quote for its summary), or null
     */
    public record Event(long seq, long revision, long occurredAtMs, long endEventTimeMs, long startPtsMs, long endPtsMs, String app,
            String title, List<String> keyLines, List<String> labels, String details, List<String> links, float[] embeddingSum,
            int embeddedBatches, int batches, List<Long> batchSeqs, String decidedBy, boolean closed, String said) {
        /** An event in which nothing was said. */
        public Event(long seq, long revision, long occurredAtMs, long endEventTimeMs, long startPtsMs, long endPtsMs, String app,
                String title, List<String> keyLines, List<String> labels, String details, List<String> links, float[] embeddingSum,
                int embeddedBatches, int batches, List<Long> batchSeqs, String decidedBy, boolean closed) {
            this(seq, revision, occurredAtMs, endEventTimeMs, startPtsMs, endPtsMs, app, title, keyLines, labels, details, links, embeddingSum,
                    embeddedBatches, batches, batchSeqs, decidedBy, closed, null);
        }
    }
}
