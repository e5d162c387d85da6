package io.videoworld.engines.perception;

import java.util.List;

/** Which detector and how to read it; serializable so the job graph can carry it. */
public record DetectorSettings(String model, List<String> labels, int inputSize, double minScore) implements java.io.Serializable {}
