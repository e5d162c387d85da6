package io.videoworld.producer;

import io.videoworld.core.AudioChunk;
import io.videoworld.core.AudioChunkCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A file's sound sent alongside its pictures: decoded by {@link AudioPusher} on a thread of its
 * own, a few seconds ahead, and sent up to each frame batch's presentation time as the batches go
 * out. Sent after all the frames instead, what was said would reach the job after the episodes
 * spanning it were cut, and land in a later one.
 */
public final class AudioFeed implements AutoCloseable {
    /** Chunks decoded ahead of the frames: a few seconds, so a long file is never held in memory. */
    private static final int AHEAD = 8;
    private static final AudioChunk DONE = AudioChunk.end("done", 0, 0, 0);

    /** Where the chunks go: Kafka, keyed by stream, in {@link #start}. */
    interface Sink {
        Future<RecordMetadata> send(AudioChunk chunk);

        void flush();
    }

    private final Sink sink;
    private final BlockingQueue<AudioChunk> decoded = new ArrayBlockingQueue<>(AHEAD);
    private final List<Future<RecordMetadata>> sent = new ArrayList<>();
    private final Thread decoder;
    private volatile IOException failure;
    private AudioChunk next;
    private boolean finished;

    AudioFeed(Sink sink, String source, String streamId, long epochMs) {
        this.sink = sink;
        this.decoder = new Thread(() -> {
            try {
                AudioPusher.chunks(source, streamId, epochMs, c -> {
                    try {
                        decoded.put(c);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("audio decoding stopped", e);
                    }
                });
            } catch (IOException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new IOException(e.getMessage(), e);
            } finally {
                try {
                    decoded.put(DONE);
                } catch (InterruptedException e) {
                    // Closed: no one is reading any more.
                    Thread.currentThread().interrupt();
                }
            }
        }, "vw-push-audio");
        decoder.setDaemon(true);
    }

    /** Starts decoding {@code source}'s sound for {@code streamId}; nothing is sent until {@link #sendUntil}. */
    public static AudioFeed start(KafkaProducer<byte[], byte[]> producer, String topic, String source, String streamId, long epochMs) {
        byte[] key = streamId.getBytes(StandardCharsets.UTF_8);
        AudioFeed feed = new AudioFeed(new Sink() {
            @Override
            public Future<RecordMetadata> send(AudioChunk chunk) {
                return producer.send(new ProducerRecord<>(topic, key, AudioChunkCodec.encode(chunk)));
            }

            @Override
            public void flush() {
                producer.flush();
            }
        }, source, streamId, epochMs);
        return feed.begin();
    }

    AudioFeed begin() {
        decoder.start();
        return this;
    }

    /** Sends every chunk that starts at or before {@code ptsMs}, waiting for the decoder where it is behind. */
    public void sendUntil(long ptsMs) {
        try {
            while (!finished) {
                if (next == null) {
                    next = decoded.take();
                }
                if (next == DONE) {
                    finished = true;
                    return;
                }
                if (next.ptsMs() > ptsMs) {
                    return;
                }
                sent.add(sink.send(next));
                next = null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while sending audio", e));
        }
    }

    /** Sends what is left and waits until Kafka has every chunk; returns how many were sent. */
    public long finish() throws IOException {
        sendUntil(Long.MAX_VALUE);
        sink.flush();
        try {
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending audio", e);
        } catch (ExecutionException e) {
            throw new IOException("Kafka refused audio: " + e.getCause().getMessage(), e.getCause());
        }
        if (failure != null) {
            throw failure;
        }
        return sent.size();
    }

    @Override
    public void close() {
        decoder.interrupt();
    }
}
