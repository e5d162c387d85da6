package io.videoworld.producer;

/** What one push did; {@link #line()} is the summary the CLI prints. */
public record PushSummary(String streamId, long frames, long batches, long bytes, long elapsedMs) {

    public double framesPerSecond() {
        return elapsedMs == 0 ? frames : frames * 1000.0 / elapsedMs;
    }

    public String line() {
        return String.format("pushed %s: %d frames in %d batches, %.1f MB, %.1f s, %.1f frames/s",
                streamId, frames, batches, bytes / 1e6, elapsedMs / 1000.0, framesPerSecond());
    }
}
