package io.videoworld.operators.deadletters;

/**
 * Marks a stage whose per-record failures become dead letters: every function of the ingest job
 * is one, which the job's wiring test checks over the whole stream graph.
 */
public interface Guarded {
    /** The stage named in this function's dead letters. */
    String stage();
}
