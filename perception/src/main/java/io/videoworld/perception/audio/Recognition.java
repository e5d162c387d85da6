package io.videoworld.perception.audio;

import java.util.List;

/**
 * What a recogniser heard in one stretch of speech.
 *
 * @param text the words, space-separated (empty when none were heard)
 * @param words each word with its times in milliseconds from the stretch's start, where the engine gives them
 */
public record Recognition(String text, List<Word> words) {
    /** A word and its times in milliseconds from the stretch's start. */
    public record Word(String word, long startMs, long endMs) {}
}
