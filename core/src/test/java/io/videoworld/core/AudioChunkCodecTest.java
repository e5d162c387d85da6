package io.videoworld.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AudioChunkCodecTest {
    private static AudioChunk second(long seq) {
        float[] v = new float[AudioChunk.RATE];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (0.5 * Math.sin(2 * Math.PI * 440 * i / AudioChunk.RATE));
        }
        return AudioChunk.s16("cam-1", seq, 1_700_000_000_000L, seq * 1000, v, 0, v.length);
    }

    private static AudioChunk with(AudioChunk c, int rate, int channels, String format, int samples, byte[] pcm) {
        return new AudioChunk(c.streamId(), c.seq(), c.epochMs(), c.ptsMs(), rate, channels, format, samples, pcm);
    }

    @Test
    void roundTripKeepsEverySample() throws MalformedBatchException {
        AudioChunk c = second(3);
        byte[] wire = AudioChunkCodec.encode(c);
        assertThat(wire[0]).isEqualTo((byte) 'V');
        assertThat(wire[1]).isEqualTo((byte) 'A');
        AudioChunk back = AudioChunkCodec.decode(wire);
        assertThat(back).isEqualTo(c);
        assertThat(back.values()[4]).isCloseTo(c.values()[4], org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(back.durationMs()).isEqualTo(1000);
        assertThat(back.eventTimeMs()).isEqualTo(1_700_000_003_000L);
        // Wire size: the PCM plus a small header.
        assertThat(wire.length).isLessThan(c.pcm().length + 200);
    }

    @Test
    void refusesAnotherRateOrChannelCountNamingIt() {
        AudioChunk c = second(0);
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 44_100, 1, c.format(), c.samples(), c.pcm()))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("sample rate 44100 Hz");
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 2, c.format(), c.samples(), c.pcm()))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("2 channels");
    }

    @Test
    void refusesTruncatedPcm() {
        AudioChunk c = second(0);
        byte[] cut = Arrays.copyOf(c.pcm(), c.pcm().length - 3);
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, c.format(), c.samples(), cut))))
                .isInstanceOf(MalformedBatchException.class).hasMessageStartingWith("truncated");
        byte[] wire = AudioChunkCodec.encode(c);
        assertThatThrownBy(() -> AudioChunkCodec.decode(Arrays.copyOf(wire, wire.length / 2)))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("undecodable");
    }

    @Test
    void theEndOfAudioMarkHasNoSamplesAndNothingElseMayBeEmpty() throws MalformedBatchException {
        AudioChunk end = AudioChunkCodec.decode(AudioChunkCodec.encode(AudioChunk.end("cam-1", 7, 1_700_000_000_000L, 6_500)));
        assertThat(end.isEnd()).isTrue();
        assertThat(end.ptsMs()).isEqualTo(6_500);
        assertThat(end.durationMs()).isZero();
        assertThat(second(0).isEnd()).isFalse();
        AudioChunk c = second(0);
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, c.format(), 0, c.pcm()))))
                .as("a mark with PCM").isInstanceOf(MalformedBatchException.class).hasMessageStartingWith("truncated");
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, c.format(), -1, new byte[0]))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("-1 samples");
    }

    @Test
    void refusesNanAndOutOfRangeFloats() throws MalformedBatchException {
        ByteBuffer ok = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putFloat(0.1f).putFloat(-0.9f).putFloat(1f).putFloat(0f);
        AudioChunk c = with(second(0), 16_000, 1, AudioChunk.F32LE, 4, ok.array());
        assertThat(AudioChunkCodec.decode(AudioChunkCodec.encode(c)).values()).containsExactly(0.1f, -0.9f, 1f, 0f);
        ByteBuffer nan = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putFloat(0.1f).putFloat(Float.NaN).putFloat(1f).putFloat(0f);
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, AudioChunk.F32LE, 4, nan.array()))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("sample 1 is NaN");
        ByteBuffer loud = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putFloat(3f).putFloat(0f).putFloat(1f).putFloat(0f);
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, AudioChunk.F32LE, 4, loud.array()))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("sample 0 is 3.0");
    }

    @Test
    void refusesFramesBytesUnknownFormatsAndBadIds() {
        AudioChunk c = second(0);
        assertThatThrownBy(() -> AudioChunkCodec.decode(new byte[] {'V', 'W', 1, 0}))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("not a VideoWorld audio chunk");
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(with(c, 16_000, 1, "opus", c.samples(), c.pcm()))))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("unknown sample format 'opus'");
        AudioChunk badId = new AudioChunk("../etc", 0, 0, 0, 16_000, 1, AudioChunk.S16LE, c.samples(), c.pcm());
        assertThatThrownBy(() -> AudioChunkCodec.decode(AudioChunkCodec.encode(badId))).isInstanceOf(MalformedBatchException.class)
                .hasMessageContaining("stream id");
    }
}
