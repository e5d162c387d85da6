package io.videoworld.core;

/**
 * What perception made of one keyframe: always a {@link Perception} (marked failed when inference
 * gave up), and a dead letter when the keyframe's JPEG did not decode; with pixel redaction on, the
 * keyframe to put in the frame store ({@code stored}: the redacted lines' boxes blacked out; null when
 * perception does not store keyframes, or has nothing it may store).
 */
public record PerceptionResult(Perception value, DeadLetter deadLetter, Keyframe stored) implements WithDeadLetter<Perception> {
    /** A result that puts nothing in the frame store. */
    public PerceptionResult(Perception value, DeadLetter deadLetter) {
        this(value, deadLetter, null);
    }

    /** The same result with {@code k} to store. */
    public PerceptionResult storing(Keyframe k) {
        return new PerceptionResult(value, deadLetter, k);
    }
}
