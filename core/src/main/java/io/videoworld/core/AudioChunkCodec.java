package io.videoworld.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The versioned wire format of {@link AudioChunk}: the magic bytes {@code 'V' 'A'}, one version
 * byte, then the chunk as CBOR with snake_case field names and the PCM as a byte string, decoded
 * as strictly as frame batches ({@link FrameBatchCodec}). A refusal throws
 * {@link MalformedBatchException} with a reason fit for a dead-letter header: a sample rate or
 * channel count this version does not carry (so a change mid-stream is refused chunk by chunk),
 * an unknown sample format, a chunk longer than {@link #MAX_SAMPLES}, PCM whose length is not
 * what the chunk declares (truncated), or a float sample that is NaN, infinite or outside [-1, 1].
 */
public final class AudioChunkCodec {
    public static final byte MAGIC_0 = 'V';
    public static final byte MAGIC_1 = 'A';
    public static final byte VERSION = 1;
    /** Longest chunk: five seconds. */
    public static final int MAX_SAMPLES = 5 * AudioChunk.RATE;
    private static final WireEnvelope ENVELOPE = new WireEnvelope(MAGIC_0, MAGIC_1, VERSION, "audio chunk", "audio wire version",
            FrameBatchCodec.strictMapper());

    private AudioChunkCodec() {}

    /** Encodes a chunk; not validated here so tests can make malformed ones. */
    public static byte[] encode(AudioChunk chunk) {
        return ENVELOPE.encode(chunk);
    }

    /** Decodes and validates; never returns an unusable chunk. */
    public static AudioChunk decode(byte[] bytes) throws MalformedBatchException {
        AudioChunk c = ENVELOPE.decode(bytes, AudioChunk.class);
        validate(c);
        return c;
    }

    /** The checks {@link #decode} makes, for a chunk built in memory. */
    public static void validate(AudioChunk c) throws MalformedBatchException {
        if (c == null) {
            throw new MalformedBatchException("empty body");
        }
        try {
            Ids.checkStreamId(c.streamId());
        } catch (IllegalArgumentException e) {
            throw new MalformedBatchException(e.getMessage());
        }
        if (c.seq() < 0 || c.seq() > FrameLimits.MAX_SEQ) {
            throw new MalformedBatchException("seq " + c.seq() + " is outside 0-" + FrameLimits.MAX_SEQ);
        }
        if (c.epochMs() < 0 || c.ptsMs() < 0 || c.epochMs() + c.ptsMs() > FrameLimits.MAX_TIME_MS) {
            throw new MalformedBatchException("epoch_ms " + c.epochMs() + " and pts_ms " + c.ptsMs() + " must be 0 or more and end before the year 2200");
        }
        if (c.sampleRate() != AudioChunk.RATE) {
            throw new MalformedBatchException("sample rate " + c.sampleRate() + " Hz; this wire version carries " + AudioChunk.RATE + " Hz only");
        }
        if (c.channels() != 1) {
            throw new MalformedBatchException(c.channels() + " channels; this wire version carries mono only");
        }
        int width = AudioChunk.bytesPerSample(c.format());
        if (width == 0) {
            throw new MalformedBatchException("unknown sample format '" + c.format() + "' (s16le or f32le)");
        }
        if (c.samples() < 0 || c.samples() > MAX_SAMPLES) {
            throw new MalformedBatchException(c.samples() + " samples; a chunk holds 1-" + MAX_SAMPLES + " (0: the end of the push's audio)");
        }
        if (c.pcm() == null || c.pcm().length != c.samples() * width) {
            throw new MalformedBatchException("truncated: " + (c.pcm() == null ? 0 : c.pcm().length) + " bytes of PCM for " + c.samples()
                    + " " + c.format() + " samples (" + c.samples() * width + " bytes)");
        }
        if (width == 4) {
            ByteBuffer b = ByteBuffer.wrap(c.pcm()).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < c.samples(); i++) {
                float v = b.getFloat();
                if (!(v >= -1f && v <= 1f)) {
                    throw new MalformedBatchException("sample " + i + " is " + v + "; float samples must be finite, in [-1, 1]");
                }
            }
        }
    }
}
