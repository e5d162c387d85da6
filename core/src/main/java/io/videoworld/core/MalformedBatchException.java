package io.videoworld.core;

/** A Kafka record that cannot become a usable {@link FrameBatch}; the message is the dead-letter reason. */
public final class MalformedBatchException extends Exception {
    public MalformedBatchException(String reason) {
        super(reason);
    }
}
