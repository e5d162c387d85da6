package io.videoworld.core;

import java.util.List;

/**
 * One stretch of speech the voice-activity model found in a stream, and what the recogniser made
 * of it. A recognition that failed has status {@link #FAILED}, a reason and no text: a failure is
 * never an empty transcript. Its id ({@link Ids#transcript}) follows from the stream and the start.
 *
 * @param streamId stream
 * @param epochMs the push's epoch
 * @param startMs presentation time where the speech starts
 * @param endMs presentation time where it ends
 * @param speechProbability mean voice-activity probability over the stretch
 * @param loudnessDb the stretch's RMS level in dBFS
 * @param vad the voice-activity model
 * @param recognizer the recogniser that made (or failed to make) the text
 * @param status {@link #OK} or {@link #FAILED}
 * @param text what was said, null when failed
 * @param words each word with its times, where the recogniser gives them
 * @param failure why recognition failed, null when it did not
 */
public record TranscriptDoc(String streamId, long epochMs, long startMs, long endMs, double speechProbability, double loudnessDb, String vad, String recognizer,
        String status, String text, List<Word> words, String failure) {
    public static final String OK = "ok";
    public static final String FAILED = "failed";

    /** A recognised word and its presentation times. */
    public record Word(String word, long startMs, long endMs) {}

    /** The document id. */
    public String id() {
        return Ids.transcript(streamId, startMs);
    }
}
