package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.flink.kafka.AudioChunkDeserializer;
import io.videoworld.producer.AudioPusher;
import io.videoworld.core.AudioChunk;
import io.videoworld.core.AudioChunkCodec;
import io.videoworld.core.IngestedAudio;
import io.videoworld.perception.ModelDirectory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The producer's audio chunks from a recorded file, and the job's edge deciding on records. */
class AudioEdgeTest {
    private static ConsumerRecord<byte[], byte[]> record(String key, byte[] value) {
        return new ConsumerRecord<>("vw.audio", 0, 7, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    @Test
    void aRecordingBecomesOneSecondChunksOnThePresentationClock() throws Exception {
        String wav = ModelDirectory.samples().resolve("speech").resolve("Front_Center.wav").toString();
        List<AudioChunk> chunks = new ArrayList<>();
        long n = AudioPusher.chunks(wav, "talk", 1_000, chunks::add);
        // 137 090 bytes of 48 kHz 16-bit mono: 1.428 s, so one whole second, the rest, and the end-of-audio mark.
        assertThat(n).isEqualTo(3);
        assertThat(chunks.get(0).samples()).isEqualTo(16_000);
        assertThat(chunks.get(0).ptsMs()).isZero();
        assertThat(chunks.get(1).ptsMs()).isEqualTo(1_000);
        assertThat(chunks.get(1).samples()).isBetween(6_500, 7_200);
        assertThat(chunks.get(2).isEnd()).isTrue();
        assertThat(chunks.get(2).ptsMs()).isEqualTo(1_000 + chunks.get(1).samples() * 1000L / AudioChunk.RATE);
        assertThat(chunks).extracting(AudioChunk::seq).containsExactly(0L, 1L, 2L);
        for (AudioChunk c : chunks) {
            IngestedAudio in = AudioChunkDeserializer.decode(record("talk", AudioChunkCodec.encode(c)));
            assertThat(in.deadLetter()).isNull();
            assertThat(in.chunk()).isEqualTo(c);
            assertThat(in.eventTimeMs()).isEqualTo(1_000 + c.ptsMs());
        }
        // Not silence: the voice is in the samples.
        float peak = 0;
        for (float v : chunks.get(0).values()) {
            peak = Math.max(peak, Math.abs(v));
        }
        assertThat(peak).isGreaterThan(0.1f);
    }

    @Test
    void badRecordsBecomeDeadLettersWithTheirReasonAndBytes() {
        AudioChunk ok = AudioChunk.s16("talk", 0, 0, 0, new float[1600], 0, 1600);
        IngestedAudio wrongKey = AudioChunkDeserializer.decode(record("other", AudioChunkCodec.encode(ok)));
        assertThat(wrongKey.chunk()).isNull();
        assertThat(wrongKey.deadLetter().reason()).contains("stream id 'talk'");
        assertThat(wrongKey.deadLetter().origin()).isEqualTo("vw.audio/0@7");
        AudioChunk stereo44 = new AudioChunk("talk", 1, 0, 100, 44_100, 2, AudioChunk.S16LE, 1600, new byte[3200]);
        byte[] bytes = AudioChunkCodec.encode(stereo44);
        IngestedAudio changed = AudioChunkDeserializer.decode(record("talk", bytes));
        assertThat(changed.deadLetter().reason()).contains("sample rate 44100 Hz");
        assertThat(changed.deadLetter().value()).isEqualTo(bytes);
        assertThat(AudioChunkDeserializer.decode(record("talk", null)).deadLetter().reason()).contains("too short");
    }
}
