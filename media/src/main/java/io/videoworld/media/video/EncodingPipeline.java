package io.videoworld.media.video;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * Resizes and JPEG-encodes decoded pictures on worker threads while the caller decodes the next
 * ones, and hands the results back in submission order. Encoding is three quarters of the push's
 * CPU; on one thread the push used one core however many were idle, and on busy cores it got one
 * thread's share. The bytes are the same as {@link JpegEncoder#encode} on the caller's thread.
 */
final class EncodingPipeline implements AutoCloseable {
    /** Pictures waiting or being encoded stay under this many bytes (at least one per worker plus one). */
    static final long MAX_QUEUED_BYTES = 64L * 1024 * 1024;

    private static final AtomicInteger POOLS = new AtomicInteger();

    private final JpegEncoder encoder;
    private final ExecutorService workers;
    private final int threads;
    private final ArrayDeque<Future<SourceFrame>> queued = new ArrayDeque<>();
    private int depth;

    /** @param threads encoding threads, at least 1 */
    EncodingPipeline(JpegEncoder encoder, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("encode threads must be at least 1, got " + threads);
        }
        this.encoder = encoder;
        this.threads = threads;
        this.depth = 2 * threads + 2;
        int pool = POOLS.incrementAndGet();
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "vw-push-encode-" + pool + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Encoding threads for this machine: one per core, at most 4 (the decoder and Kafka need some too). */
    static int defaultThreads() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /** Whether the caller should take a result before it submits another picture. */
    boolean full() {
        return queued.size() >= depth;
    }

    boolean isEmpty() {
        return queued.isEmpty();
    }

    /** Queues a copy of {@code bgr} (the decoder reuses its buffer) for encoding. */
    void submit(Mat bgr, long ptsMs, Long captureTimeMs) {
        if (queued.isEmpty()) {
            // Large pictures (4K is 25 MB in BGR) would make a deep queue expensive in native memory.
            long bytes = Math.max(1L, (long) bgr.cols() * bgr.rows() * bgr.channels());
            depth = (int) Math.max(threads + 1, Math.min(2L * threads + 2, MAX_QUEUED_BYTES / bytes));
        }
        Mat copy = bgr.clone();
        queued.add(workers.submit(() -> {
            try (copy) {
                return encoder.encode(copy, ptsMs, captureTimeMs);
            }
        }));
    }

    /** The oldest submitted picture, encoded, waiting for it if needed; null when none is queued. */
    SourceFrame take() throws IOException {
        Future<SourceFrame> next = queued.poll();
        if (next == null) {
            return null;
        }
        try {
            return next.get();
        } catch (ExecutionException e) {
            throw new IOException("JPEG encoding failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while encoding", e);
        }
    }

    @Override
    public void close() {
        // Let queued pictures finish (each closes its own copy), so no native copy is left to the GC.
        workers.shutdown();
        for (Future<SourceFrame> f : queued) {
            try {
                f.get();
            } catch (ExecutionException e) {
                // Closing: the caller stopped reading, a failure of a frame it will not read is no news.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        queued.clear();
    }
}
