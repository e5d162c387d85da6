package io.videoworld.core;

/**
 * One stretch of speech with its text: a subtitle cue or a transcription segment.
 *
 * @param start seconds from the start of the video
 * @param end seconds
 * @param text what was said
 * @param speaker speaker label when the source gives one, else null
 * @param confidence 0-1; 1 for subtitles, which are authored
 */
public record Cue(double start, double end, String text, String speaker, double confidence) {}
