package io.videoworld.core;

/**
 * What the Kafka source emits for each record: exactly one of a valid batch or a dead letter.
 * Keeping both in one type lets the source assign event time from the payload before the
 * stream is split.
 */
public record Ingested(FrameBatch batch, DeadLetter deadLetter) {

    public static Ingested of(FrameBatch batch) {
        return new Ingested(batch, null);
    }

    public static Ingested dead(DeadLetter deadLetter) {
        return new Ingested(null, deadLetter);
    }

    /** Event time: the first frame's for a batch, the Kafka timestamp for a dead letter. */
    public long eventTimeMs() {
        return batch != null ? batch.eventTimeMs() : deadLetter.timestampMs();
    }
}
