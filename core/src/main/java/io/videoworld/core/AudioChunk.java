package io.videoworld.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * About a second of one stream's sound, as the producer sends it on the audio topic (wire format
 * in {@link AudioChunkCodec}): mono PCM at {@link #RATE} Hz, little-endian, 16-bit integers
 * ({@link #S16LE}) or 32-bit floats in [-1, 1] ({@link #F32LE}).
 *
 * @param streamId the stream the sound belongs to, the same id as its frames
 * @param seq chunk number within the push, from 0
 * @param epochMs the push's epoch (as on frame batches): presentation times count from it
 * @param ptsMs presentation time of the first sample, on the same clock as the frames' pts
 * @param sampleRate samples per second; this version carries {@link #RATE} only
 * @param channels channels; this version carries 1 only
 * @param format {@link #S16LE} or {@link #F32LE}
 * @param samples how many samples the chunk declares; {@code pcm} must hold exactly these
 * @param pcm the samples
 */
public record AudioChunk(String streamId, long seq, long epochMs, long ptsMs, int sampleRate, int channels, String format, int samples,
        byte[] pcm) implements StreamRecord {
    public static final int RATE = 16_000;
    public static final String S16LE = "s16le";
    public static final String F32LE = "f32le";

    /** A 16-bit chunk of {@code values} in [-1, 1]. */
    public static AudioChunk s16(String streamId, long seq, long epochMs, long ptsMs, float[] values, int from, int to) {
        ByteBuffer b = ByteBuffer.allocate((to - from) * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = from; i < to; i++) {
            b.putShort((short) Math.max(-32768, Math.min(32767, Math.round(values[i] * 32767))));
        }
        return new AudioChunk(streamId, seq, epochMs, ptsMs, RATE, 1, S16LE, to - from, b.array());
    }

    /**
     * The mark a producer sends after a push's last samples: no samples, at the time the sound
     * ended. It lets the job close and recognise the last stretch at once instead of waiting for
     * event time to pass it.
     */
    public static AudioChunk end(String streamId, long seq, long epochMs, long ptsMs) {
        return new AudioChunk(streamId, seq, epochMs, ptsMs, RATE, 1, S16LE, 0, new byte[0]);
    }

    /** Whether this is the end-of-audio mark ({@link #end}). */
    public boolean isEnd() {
        return samples == 0;
    }

    /** Bytes per sample of a format, 0 for an unknown one. */
    public static int bytesPerSample(String format) {
        return S16LE.equals(format) ? 2 : F32LE.equals(format) ? 4 : 0;
    }

    /** The samples as floats in [-1, 1]. */
    public float[] values() {
        ByteBuffer b = ByteBuffer.wrap(pcm).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[samples];
        boolean f32 = F32LE.equals(format);
        for (int i = 0; i < samples; i++) {
            out[i] = f32 ? b.getFloat() : b.getShort() / 32768f;
        }
        return out;
    }

    @Override
    public String position() {
        return "audio " + seq;
    }

    /** Length in milliseconds. */
    public long durationMs() {
        return samples * 1000L / Math.max(1, sampleRate);
    }

    /** Event time: the push's epoch plus the first sample's presentation time. */
    public long eventTimeMs() {
        return epochMs + ptsMs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AudioChunk c && streamId.equals(c.streamId) && seq == c.seq && epochMs == c.epochMs && ptsMs == c.ptsMs
                && sampleRate == c.sampleRate && channels == c.channels && Objects.equals(format, c.format) && samples == c.samples
                && Arrays.equals(pcm, c.pcm);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, seq, ptsMs) * 31 + Arrays.hashCode(pcm);
    }

    @Override
    public String toString() {
        return "AudioChunk[" + streamId + "#" + seq + " pts " + ptsMs + " ms, " + samples + " samples]";
    }
}
