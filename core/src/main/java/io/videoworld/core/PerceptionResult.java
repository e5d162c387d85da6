package io.videoworld.core;

/**
 * What perception made of one keyframe: always a {@link Perception} (marked failed when inference
 * gave up), and a dead letter when the keyframe's JPEG did not decode.
 */
public record PerceptionResult(Perception value, DeadLetter deadLetter) implements WithDeadLetter<Perception> {}
