package io.videoworld.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a stream showed over one memory batch (at most 20 s, never across a shot boundary), with
 * how it relates to the batches before it; decided on by the episode writer.
 *
 * @param streamId the stream
 * @param epochMs the push
 * @param batchSeq batch number within the push, from 0
 * @param sourceKind video or screen
 * @param startPtsMs first presentation time covered
 * @param endPtsMs presentation time where it ends
 * @param startEventTimeMs event time of the start
 * @param endEventTimeMs event time of the end
 * @param frames 1-second slots covered (the frames MIRIX would take at 1 fps)
 * @param shotId the shot it lies in
 * @param sceneId the scene of that shot
 * @param app the application the window title names (screens), or null
 * @param title the window title or first line read, or null
 * @param lines distinct lines of text read, in order of first appearance (capped)
 * @param labels object categories seen, most frequent first
 * @param tracks tracks seen during the batch ("person t:000003")
 * @param embedding unit-length mean of the keyframes' text embeddings; null without text
 * @param relation the rules' view: continue, new, return or ambiguous
 * @param relatedBatch for return: the earlier batch it resembles; -1 otherwise
 * @param similarity embedding similarity behind the relation (cosine; -1 when unknown)
 * @param recent digests of the batches before it (newest last), the context a model sees
 * @param relevant events of the stream most similar to it, looked up in Elasticsearch
 * @param decidedBy who settled the relation: rules, llm or fallback
 * @param said the stretches of speech the batch carries (those ending in it, and any that came after their own batch was cut),
 *     text as stored (redacted when redaction is on)
 */
public record EpisodeBatch(String streamId, long epochMs, long batchSeq, SourceKind sourceKind, long startPtsMs, long endPtsMs,
        long startEventTimeMs, long endEventTimeMs, int frames, String shotId, String sceneId, String app, String title,
        List<String> lines, List<String> labels, List<String> tracks, float[] embedding, String relation, long relatedBatch,
        double similarity, List<Digest> recent, List<RelevantEvent> relevant, String decidedBy, List<Utterance> said) implements StreamRecord {
    public EpisodeBatch {
        said = said == null ? List.of() : said;
    }

    /** A batch in which nothing was said. */
    public EpisodeBatch(String streamId, long epochMs, long batchSeq, SourceKind sourceKind, long startPtsMs, long endPtsMs,
            long startEventTimeMs, long endEventTimeMs, int frames, String shotId, String sceneId, String app, String title,
            List<String> lines, List<String> labels, List<String> tracks, float[] embedding, String relation, long relatedBatch,
            double similarity, List<Digest> recent, List<RelevantEvent> relevant, String decidedBy) {
        this(streamId, epochMs, batchSeq, sourceKind, startPtsMs, endPtsMs, startEventTimeMs, endEventTimeMs, frames, shotId, sceneId, app,
                title, lines, labels, tracks, embedding, relation, relatedBatch, similarity, recent, relevant, decidedBy, List.of());
    }

    @Override
    public String position() {
        return "batch " + batchSeq;
    }

    public static final String CONTINUE = "continue";
    public static final String NEW = "new";
    public static final String RETURN = "return";
    public static final String AMBIGUOUS = "ambiguous";

    /** A short account of an earlier batch. */
    public record Digest(long batchSeq, long startPtsMs, long endPtsMs, String app, String title, String text, float[] embedding,
            String sceneId) {}

    /**
     * A stretch of speech: its presentation times, what was recognised (null when recognition failed) and by which recogniser.
     * {@code endPtsMs} decides the batch it belongs to.
     */
    public record Utterance(long startPtsMs, long endPtsMs, String text, String recognizer) {
        /** The stretch a transcript document describes. */
        public static Utterance of(TranscriptDoc t) {
            return new Utterance(t.startMs(), t.endMs(), TranscriptDoc.OK.equals(t.status()) ? t.text() : null, t.recognizer());
        }
    }

    /** An event found by similarity: id, summary, app, when, and the kNN score in [0, 1]. */
    public record RelevantEvent(String eventId, String summary, String app, long occurredAtMs, double score) {}

    public EpisodeBatch with(String newRelation, long newRelated, String by, List<RelevantEvent> found) {
        return new EpisodeBatch(streamId, epochMs, batchSeq, sourceKind, startPtsMs, endPtsMs, startEventTimeMs, endEventTimeMs, frames,
                shotId, sceneId, app, title, lines, labels, tracks, embedding, newRelation, newRelated, similarity, recent, found, by, said);
    }

    /** The same batch carrying {@code utterances}. */
    public EpisodeBatch withSaid(List<Utterance> utterances) {
        return new EpisodeBatch(streamId, epochMs, batchSeq, sourceKind, startPtsMs, endPtsMs, startEventTimeMs, endEventTimeMs, frames,
                shotId, sceneId, app, title, lines, labels, tracks, embedding, relation, relatedBatch, similarity, recent, relevant, decidedBy,
                List.copyOf(utterances));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EpisodeBatch b && streamId.equals(b.streamId) && epochMs == b.epochMs && batchSeq == b.batchSeq
                && startPtsMs == b.startPtsMs && endPtsMs == b.endPtsMs && Objects.equals(relation, b.relation)
                && relatedBatch == b.relatedBatch && Objects.equals(lines, b.lines) && Objects.equals(labels, b.labels)
                && Arrays.equals(embedding, b.embedding) && Objects.equals(decidedBy, b.decidedBy) && Objects.equals(said, b.said);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, epochMs, batchSeq);
    }

    @Override
    public String toString() {
        return "EpisodeBatch[" + streamId + " #" + batchSeq + " " + startPtsMs + "-" + endPtsMs + " " + app + " " + relation
                + (said.isEmpty() ? "" : " said " + said.size()) + "]";
    }
}
