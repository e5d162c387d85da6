package io.videoworld.operators.deadletters;

/**
 * A failure no record can be blamed for (a model that will not load, a store that refuses every
 * write): thrown from a stage, it fails the job as before instead of dead-lettering the record.
 */
public class SystemicException extends RuntimeException {
    public SystemicException(String message, Throwable cause) {
        super(message, cause);
    }

    public SystemicException(String message) {
        super(message);
    }
}
