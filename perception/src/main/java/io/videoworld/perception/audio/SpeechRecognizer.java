package io.videoworld.perception.audio;

/** Turns a stretch of 16 kHz mono speech into words; implementations name themselves in every transcript. */
public interface SpeechRecognizer extends AutoCloseable {
    /** The engine and model, as written in transcripts (e.g. {@code sphinx4:en-us}). */
    String name();

    /**
     * What was said in {@code samples} (16 kHz mono, in [-1, 1]); word times are milliseconds from
     * the first sample. Throws when recognition fails: an empty result means no words were heard.
     */
    Recognition recognize(float[] samples) throws Exception;

    @Override
    default void close() {}
}
