package io.videoworld.core;

/** A memory batch with its episode decision made, or the dead letter of one whose decision threw. */
public record DecidedBatch(EpisodeBatch value, DeadLetter deadLetter) implements WithDeadLetter<EpisodeBatch> {
    /** A decided batch. */
    public static DecidedBatch of(EpisodeBatch b) {
        return new DecidedBatch(b, null);
    }
}
