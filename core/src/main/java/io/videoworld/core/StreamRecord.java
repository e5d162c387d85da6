package io.videoworld.core;

/** A record the ingest job passes between stages: a dead letter names it by stream and position. */
public interface StreamRecord {
    /** The stream it belongs to. */
    String streamId();

    /** Where in the stream, for a dead letter's origin ("frame 12", "batch 3"); empty when nothing finer than the stream applies. */
    default String position() {
        return "";
    }
}
