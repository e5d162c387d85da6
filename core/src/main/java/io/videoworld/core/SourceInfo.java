package io.videoworld.core;

/**
 * What the producer learned about the source when it opened it; travels in every batch so that
 * any single batch is enough to describe the stream.
 *
 * <p>Fields the source cannot tell (a live URL has no duration, a screenshot folder no codec)
 * are null or zero rather than guessed.
 *
 * @param fps frame rate of the source (for screenshots: the assumed capture rate)
 * @param durationMs whole length of the source, null for live sources
 * @param totalFrames frames in the source as its container reports them, null when unknown
 * @param codec video codec name, "jpeg"/"png" for screenshots
 * @param hasAudio whether the source carries an audio track
 * @param audioChannels audio channel count, 0 without audio
 * @param audioSampleRate audio sample rate in Hz, 0 without audio
 * @param fileSizeBytes size of the source file, null for live sources
 * @param bitrateKbps container bitrate, null when unknown
 * @param width source width in pixels before any resize
 * @param height source height in pixels before any resize
 * @param sampleFps rate the producer sampled at (frames per second of stream time)
 */
public record SourceInfo(
        double fps,
        Long durationMs,
        Long totalFrames,
        String codec,
        boolean hasAudio,
        int audioChannels,
        int audioSampleRate,
        Long fileSizeBytes,
        Long bitrateKbps,
        int width,
        int height,
        double sampleFps) {

    /**
     * Whether a source with this description is live (a camera, a screen as it is captured): it has
     * neither a duration nor a frame count (a screenshot folder has no duration either, but a count).
     */
    public static boolean isLive(SourceInfo s) {
        return s != null && s.durationMs() == null && s.totalFrames() == null;
    }
}
