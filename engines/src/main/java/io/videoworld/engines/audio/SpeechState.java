package io.videoworld.engines.audio;

import io.videoworld.perception.audio.SileroVad;

/**
 * What {@link SpeechSegmenter} keeps of one stream between chunks: the voice-activity model's
 * memory, samples not yet a whole window, the speech heard so far in an open stretch, and the
 * presentation clock. A Flink POJO (public fields, no-argument constructor) so a keyed operator
 * can hold it as state.
 */
public final class SpeechState {
    /** The push's epoch of the chunks. */
    public long epochMs;
    /** Presentation time of {@code pending[0]}, i.e. where the next chunk should start minus what is pending. */
    public long clockMs;
    /** Samples received since the last whole window. */
    public float[] pending = new float[0];
    /** Silero's recurrent state and context. */
    public float[] vadState = new float[SileroVad.STATE];
    public float[] vadContext = new float[SileroVad.CONTEXT];
    /** The last few windows before speech, kept to pad a stretch's start. */
    public float[] preroll = new float[0];
    /** Whether a stretch of speech is open. */
    public boolean inSpeech;
    /** Presentation time where the open stretch starts. */
    public long speechStartMs;
    /** Samples of the open stretch ({@code speechLength} of them are used). */
    public float[] speech = new float[0];
    public int speechLength;
    /** Sum and count of the probabilities of the stretch's speech windows. */
    public double probabilitySum;
    public int speechWindows;
    /** Windows below the end threshold since the last speech window. */
    public int silentWindows;
    /** Event time of the latest chunk's end, for the idle timer. */
    public long lastEventMs;

    public SpeechState() {}

    /** Presentation time just after the last sample received. */
    public long endMs() {
        return clockMs + pending.length * 1000L / 16_000;
    }
}
