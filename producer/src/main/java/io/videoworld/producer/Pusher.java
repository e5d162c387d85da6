package io.videoworld.producer;

import io.videoworld.media.video.FrameSource;
import io.videoworld.media.video.SourceFrame;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Ids;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.privacy.ExclusionMark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Reads a {@link FrameSource} to its end and publishes it as {@link FrameBatch}es keyed by
 * stream id. A batch closes at {@code batchFrames} frames or when the next frame would push it
 * past {@code maxBatchBytes}, so no record exceeds the topic's message size.
 */
public final class Pusher {
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int batchFrames;
    private final long maxBatchBytes;
    private Exclusion exclusion;
    private final java.util.Map<String, Long> excluded = new java.util.TreeMap<>();

    /** Decides on the producer's side whether a screen frame's window is excluded: the rule that matched, or null. */
    @FunctionalInterface
    public interface Exclusion {
        /** The spec of the rule that excludes this JPEG's window, or null. */
        String excludedBy(byte[] jpeg);
    }

    public Pusher(Producer<byte[], byte[]> producer, String topic, int batchFrames, long maxBatchBytes) {
        if (batchFrames < 1) {
            throw new IllegalArgumentException("batch-frames must be at least 1");
        }
        this.producer = producer;
        this.topic = topic;
        this.batchFrames = batchFrames;
        this.maxBatchBytes = maxBatchBytes;
    }

    /**
     * Screen frames whose window {@code exclusion} excludes leave as a grey stand-in that names the rule
     * ({@link ExclusionMark}): their pixels never leave the machine, the job records the exclusion.
     */
    public Pusher excluding(Exclusion exclusion) {
        this.exclusion = exclusion;
        return this;
    }

    /** How many frames each rule excluded in the pushes so far. */
    public java.util.Map<String, Long> excluded() {
        return java.util.Collections.unmodifiableMap(excluded);
    }

    /**
     * @param epochMs wall-clock time of presentation time 0
     * @param progress called with the running frame count after each batch is sent
     */
    public PushSummary push(FrameSource source, String streamId, String sourceUri, long epochMs, LongConsumer progress)
            throws IOException {
        Ids.checkStreamId(streamId);
        long started = System.nanoTime();
        List<Frame> pending = new ArrayList<>();
        long pendingBytes = 0;
        long frameIndex = 0;
        long seq = 0;
        long bytes = 0;
        List<Future<RecordMetadata>> inFlight = new ArrayList<>();
        byte[] key = streamId.getBytes(StandardCharsets.UTF_8);
        SourceFrame f;
        while ((f = source.next()) != null) {
            if (!pending.isEmpty() && (pending.size() >= batchFrames || pendingBytes + f.jpeg().length > maxBatchBytes)) {
                bytes += send(key, new FrameBatch(streamId, source.kind(), sourceUri, seq++, epochMs, source.info(), pending), inFlight);
                progress.accept(frameIndex);
                pending = new ArrayList<>();
                pendingBytes = 0;
            }
            String rule = exclusion == null || source.kind() != SourceKind.SCREEN ? null : exclusion.excludedBy(f.jpeg());
            Frame frame = rule == null ? new Frame(frameIndex++, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), f.jpeg(), f.thumb())
                    : new Frame(frameIndex++, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), ExclusionMark.excludedFrame(f.width(), f.height(), rule), null);
            if (rule != null) {
                excluded.merge(rule, 1L, Long::sum);
            }
            pending.add(frame);
            pendingBytes += frame.jpeg().length;
        }
        if (!pending.isEmpty()) {
            // A finite source's final batch says so; a live source never ends this way.
            boolean last = source.expectedFrames() >= 0;
            bytes += send(key, new FrameBatch(streamId, source.kind(), sourceUri, seq++, epochMs, source.info(), pending, last),
                    inFlight);
        }
        producer.flush();
        awaitAll(inFlight);
        progress.accept(frameIndex);
        return new PushSummary(streamId, frameIndex, seq, bytes, (System.nanoTime() - started) / 1_000_000);
    }

    private int send(byte[] key, FrameBatch batch, List<Future<RecordMetadata>> inFlight) throws IOException {
        byte[] value = FrameBatchCodec.encode(batch);
        Future<RecordMetadata> sent = producer.send(new ProducerRecord<>(topic, key, value));
        inFlight.add(sent);
        // A send that failed at once (no broker answered within max.block.ms) ends the push now,
        // rather than after every remaining batch has waited as long.
        if (inFlight.size() >= 64 || sent.isDone()) {
            awaitAll(inFlight);
        }
        return value.length;
    }

    private static void awaitAll(List<Future<RecordMetadata>> inFlight) throws IOException {
        try {
            for (Future<RecordMetadata> f : inFlight) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw new IOException("Kafka refused a batch: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending", e);
        } finally {
            inFlight.clear();
        }
    }
}
