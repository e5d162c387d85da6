package io.videoworld.core;

/**
 * What detection made of one sampled frame: the frame with its objects (width 0 when detection
 * failed, which the tracker skips), and a dead letter when its JPEG did not decode.
 */
public record DetectionResult(DetectedFrame value, DeadLetter deadLetter) implements WithDeadLetter<DetectedFrame> {}
