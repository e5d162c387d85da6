package io.videoworld.perception.audio;

/**
 * The voice-activity model's memory of one stream: its recurrent state (2 x 128) and the last
 * 64 samples it saw. Updated in place by {@link SileroVad#probability}.
 */
public record VadState(float[] state, float[] context) {}
