package io.videoworld.connectors.es;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Remembers read results for a short time. Elasticsearch makes writes searchable once a second
 * (the indices' refresh interval), so reads already lag by up to that much; a cache of half of it
 * adds little staleness and takes repeated reads of a busy stream off the server.
 *
 * <p>Two things keep a busy key's tail latency flat: concurrent misses of one key share one read
 * (no stampede when an entry expires under load), and an entry that expired less than
 * {@link #STALE_GRACE_MS} ago is answered at once while one background read renews it, so no
 * caller of a hot key waits for Elasticsearch. An entry older than that is read again in line.
 *
 * @param <K> key
 * @param <V> value
 */
public final class TtlCache<K, V> {
    /** How long past its expiry an entry may still answer while its renewal is under way. */
    static final long STALE_GRACE_MS = 1000;

    private record Entry<V>(V value, long expiresNanos) {}

    /** A read that may fail. */
    @FunctionalInterface
    public interface Loader<K, V> {
        V load(K key) throws IOException;
    }

    private static final int MAX_ENTRIES = 10_000;
    /** Background renewals; daemon threads, so a cache never keeps a process alive. */
    private static final java.util.concurrent.ExecutorService RENEWALS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ttl-cache-renewal");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<K, CompletableFuture<V>> loading = new ConcurrentHashMap<>();
    private final long ttlNanos;
    /** Bumped by {@link #clear}: a read that began before it does not store what it read. */
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

    public TtlCache(long ttlMs) {
        this.ttlNanos = ttlMs * 1_000_000;
    }

    public V get(K key, Loader<K, V> loader) throws IOException {
        if (ttlNanos <= 0) {
            return loader.load(key);
        }
        long now = System.nanoTime();
        Entry<V> e = entries.get(key);
        if (e != null && e.expiresNanos() - now > 0) {
            return e.value();
        }
        if (e != null && e.expiresNanos() + STALE_GRACE_MS * 1_000_000 - now > 0) {
            if (!loading.containsKey(key)) {
                RENEWALS.execute(() -> {
                    try {
                        load(key, loader);
                    } catch (IOException | RuntimeException ignored) {
                        // The next caller past the grace reads in line and sees the failure.
                    }
                });
            }
            return e.value();
        }
        return load(key, loader);
    }

    /** Forgets everything, and what reads under way will return: for a writer that must read its own writes. */
    public void clear() {
        generation.incrementAndGet();
        entries.clear();
    }

    /** Reads {@code key} once however many callers ask at the same time. */
    private V load(K key, Loader<K, V> loader) throws IOException {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return await(running);
        }
        long started = generation.get();
        try {
            V v = loader.load(key);
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
            if (generation.get() == started) {
                entries.put(key, new Entry<>(v, System.nanoTime() + ttlNanos));
            }
            mine.complete(v);
            return v;
        } catch (IOException | RuntimeException ex) {
            mine.completeExceptionally(ex);
            throw ex;
        } finally {
            loading.remove(key, mine);
        }
    }

    private static <V> V await(CompletableFuture<V> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a shared read", ex);
        } catch (ExecutionException ex) {
            Throwable c = ex.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new UncheckedIOException(new IOException(c));
        }
    }
}
