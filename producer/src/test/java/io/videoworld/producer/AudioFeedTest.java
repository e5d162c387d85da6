package io.videoworld.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.AudioChunk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file's sound goes out beside its pictures: each batch's seconds of it, then the rest and the end-of-audio mark. */
class AudioFeedTest {
    @TempDir
    Path tmp;

    private Path tone(double seconds) throws Exception {
        int n = (int) (16_000 * seconds);
        byte[] pcm = new byte[n * 2];
        for (int i = 0; i < n; i++) {
            short v = (short) (8000 * Math.sin(2 * Math.PI * 440 * i / 16_000.0));
            pcm[2 * i] = (byte) v;
            pcm[2 * i + 1] = (byte) (v >> 8);
        }
        Path wav = tmp.resolve("tone.wav");
        AudioSystem.write(new AudioInputStream(new java.io.ByteArrayInputStream(pcm), new AudioFormat(16_000, 16, 1, true, false), n),
                AudioFileFormat.Type.WAVE, wav.toFile());
        return wav;
    }

    @Test
    void chunksGoOutUpToEachBatchsTimeThenTheRestAndTheMark() throws Exception {
        List<AudioChunk> sent = new ArrayList<>();
        List<Integer> flushedAt = new ArrayList<>();
        AudioFeed.Sink sink = new AudioFeed.Sink() {
            @Override
            public Future<RecordMetadata> send(AudioChunk chunk) {
                sent.add(chunk);
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void flush() {
                flushedAt.add(sent.size());
            }
        };
        try (AudioFeed feed = new AudioFeed(sink, tone(5.5).toString(), "talk", 1_700_000_000_000L).begin()) {
            feed.sendUntil(999);
            assertThat(sent).extracting(AudioChunk::ptsMs).containsExactly(0L);
            feed.sendUntil(3000);
            assertThat(sent).extracting(AudioChunk::ptsMs).containsExactly(0L, 1000L, 2000L, 3000L);
            assertThat(feed.finish()).isEqualTo(7);
        }
        assertThat(sent).extracting(AudioChunk::ptsMs).containsExactly(0L, 1000L, 2000L, 3000L, 4000L, 5000L, 5500L);
        assertThat(sent.get(5).samples()).isEqualTo(8000);
        assertThat(sent.get(6).isEnd()).as("the end-of-audio mark, at the time the sound ended").isTrue();
        assertThat(sent).extracting(AudioChunk::seq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(flushedAt).containsExactly(7);
    }
}
