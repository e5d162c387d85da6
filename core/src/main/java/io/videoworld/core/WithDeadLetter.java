package io.videoworld.core;

/**
 * An operator's result that may carry a dead letter beside it (a frame it could not decode), so
 * an async operator, which has no side outputs, can still hand the frame to the dead-letter topic.
 *
 * @param <T> the result proper; null when there is none
 */
public interface WithDeadLetter<T> {
    /** The result, or null. */
    T value();

    /** The dead letter, or null. */
    DeadLetter deadLetter();
}
