package io.videoworld.core;

/** What the audio topic's source emits for each record: exactly one of a valid chunk or a dead letter. */
public record IngestedAudio(AudioChunk chunk, DeadLetter deadLetter) {

    public static IngestedAudio of(AudioChunk chunk) {
        return new IngestedAudio(chunk, null);
    }

    public static IngestedAudio dead(DeadLetter deadLetter) {
        return new IngestedAudio(null, deadLetter);
    }

    /** Event time: the chunk's first sample, or the Kafka timestamp of a dead letter. */
    public long eventTimeMs() {
        return chunk != null ? chunk.eventTimeMs() : deadLetter.timestampMs();
    }
}
