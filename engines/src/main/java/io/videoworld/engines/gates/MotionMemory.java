package io.videoworld.engines.gates;

/**
 * What {@code MotionGateFunction} keeps of one stream between samples; Flink keyed state (about
 * 15 KB for a 640-wide camera).
 *
 * @param width thumbnail width of the last detected sample
 * @param height its height
 * @param thumb its grey thumbnail, {@code width * height} bytes
 * @param sinceFull samples since it (0: it was the latest)
 * @param eventTimeMs event time of the stream's latest sample
 */
public record MotionMemory(int width, int height, byte[] thumb, int sinceFull, long eventTimeMs) {}
