package io.videoworld.query.entity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@code query_entity_state} reads off the pixels of one tracked box (its crop as a JPEG, its
 * dominant colour, the frame's size), remembered per stream, push, time and box (the caller adds
 * the picture's id, which on a live stream is the nearest stored keyframe and can change). A track
 * point is a stored detection in a fixed frame of one push, so its look never changes: without this every
 * call decoded the frame, cropped, re-encoded and decoded again (about 2.3 s p99 at 200 requests/s
 * on 2 cores). A re-push has another epoch and so other keys; a deleted stream is forgotten
 * ({@link #forgetStream}). Concurrent misses of one key share one read, and the entries are
 * bounded by their bytes, least recently used first out.
 */
public final class EntityLooks {
    /** The pixels' findings for one box: the crop, its dominant colour (null when none stands out) and the frame's size. */
    public record Look(byte[] crop, String colour, int width, int height) {
        long bytes() {
            return crop.length + 64L;
        }
    }

    /** Reads a look; may fail. */
    @FunctionalInterface
    public interface Reader {
        Look read() throws IOException;
    }

    /** The default bound: some thousands of crops of a 640x360 video. */
    public static final long DEFAULT_MAX_BYTES = 16L << 20;

    private final long maxBytes;
    private final LinkedHashMap<String, Look> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final ConcurrentHashMap<String, CompletableFuture<Look>> reading = new ConcurrentHashMap<>();
    private long bytes;
    /** Bumped by {@link #forgetStream}: a read that began before it does not store what it read. */
    private long generation;

    public EntityLooks(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The key of a box of a push at a presentation time. */
    public static String key(String streamId, long epochMs, long ptsMs, double[] box) {
        return streamId + "\u0000" + epochMs + "\u0000" + ptsMs + "\u0000" + java.util.Arrays.toString(box);
    }

    /** The look under {@code key}, read by {@code reader} once however many callers ask for it at the same time. */
    public Look get(String key, Reader reader) throws IOException {
        long started;
        synchronized (this) {
            Look known = entries.get(key);
            if (known != null) {
                return known;
            }
            started = generation;
        }
        CompletableFuture<Look> mine = new CompletableFuture<>();
        CompletableFuture<Look> running = reading.putIfAbsent(key, mine);
        if (running != null) {
            return await(running);
        }
        try {
            Look look = reader.read();
            put(key, look, started);
            mine.complete(look);
            return look;
        } catch (IOException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            reading.remove(key, mine);
        }
    }

    private synchronized void put(String key, Look look, long started) {
        if (generation != started || look.bytes() > maxBytes) {
            return;
        }
        Look old = entries.put(key, look);
        bytes += look.bytes() - (old == null ? 0 : old.bytes());
        for (Iterator<Look> it = entries.values().iterator(); bytes > maxBytes && it.hasNext();) {
            bytes -= it.next().bytes();
            it.remove();
        }
    }

    /** Forgets every look of a stream, as when it is deleted. */
    public synchronized void forgetStream(String streamId) {
        generation++;
        String prefix = streamId + "\u0000";
        for (Iterator<Map.Entry<String, Look>> it = entries.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Look> e = it.next();
            if (e.getKey().startsWith(prefix)) {
                bytes -= e.getValue().bytes();
                it.remove();
            }
        }
    }

    /** How many looks are held (for tests and health). */
    public synchronized int size() {
        return entries.size();
    }

    /** The bytes the held looks take, by the bound's count. */
    public synchronized long bytes() {
        return bytes;
    }

    private static Look await(CompletableFuture<Look> f) throws IOException {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }
}
