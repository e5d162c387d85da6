package io.videoworld.engines.audio;

/**
 * One stretch of speech found by {@link SpeechSegmenter}.
 *
 * @param epochMs the push's epoch
 * @param startMs presentation time of the first sample
 * @param endMs presentation time after the last sample
 * @param samples 16 kHz mono samples
 * @param meanProbability the voice-activity model's mean probability over its speech windows
 */
public record Speech(long epochMs, long startMs, long endMs, float[] samples, double meanProbability) {}
