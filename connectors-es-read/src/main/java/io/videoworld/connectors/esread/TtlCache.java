package io.videoworld.connectors.esread;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Remembers read results for a short time. Elasticsearch makes writes searchable once a second
 * (the indices' refresh interval), so reads already lag by up to that much; a cache of half of it
 * adds little staleness and takes repeated reads of a busy stream off the server.
 *
 * <p>Two things keep a busy key's tail latency flat, both Caffeine's: concurrent misses of one key
 * share one read (no stampede when an entry expires under load), and an entry older than the time
 * to live but younger than that plus {@link #STALE_GRACE_MS} is answered at once while one
 * background read renews it ({@code refreshAfterWrite}), so no caller of a hot key waits for
 * Elasticsearch. An entry older than that has expired and is read again before answering.
 *
 * <p>A renewal reads with the loader of the call that found the entry stale, as a miss reads
 * with its caller's.
 *
 * @param <K> key
 * @param <V> value
 */
public final class TtlCache<K, V> {
    /** How long past its expiry an entry may still answer while its renewal is under way. */
    static final long STALE_GRACE_MS = 1000;
    private static final int MAX_ENTRIES = 10_000;

    /** A read that may fail. */
    @FunctionalInterface
    public interface Loader<K, V> {
        V load(K key) throws IOException;
    }

    /**
     * The cache's key: the caller's key, carrying the read that fills it. Equal by key alone, so
     * every caller of one key meets the same entry.
     */
    private static final class Read<K, V> {
        final K key;
        final Loader<K, V> loader;

        Read(K key, Loader<K, V> loader) {
            this.key = key;
            this.loader = loader;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Read<?, ?> r && key.equals(r.key);
        }

        @Override
        public int hashCode() {
            return key.hashCode();
        }
    }

    /**
     * Reads and renewals; daemon threads, so a cache never keeps a process alive. Not the common
     * pool: these threads wait on Elasticsearch.
     */
    private static final ExecutorService READS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ttl-cache-read");
        t.setDaemon(true);
        return t;
    });

    /**
     * The loader of the {@link #get} under way on this thread: Caffeine starts a renewal from inside
     * that call, with the key it stored, whose loader may be an older caller's.
     */
    private final ThreadLocal<Loader<K, V>> current = new ThreadLocal<>();
    private final AsyncLoadingCache<Read<K, V>, V> cache;

    public TtlCache(long ttlMs) {
        this.cache = ttlMs <= 0 ? null : Caffeine.newBuilder().maximumSize(MAX_ENTRIES).executor(READS)
                .refreshAfterWrite(Duration.ofMillis(ttlMs)).expireAfterWrite(Duration.ofMillis(ttlMs + STALE_GRACE_MS)).recordStats()
                .buildAsync(new AsyncCacheLoader<Read<K, V>, V>() {
                    @Override
                    public CompletableFuture<V> asyncLoad(Read<K, V> r, Executor executor) {
                        return read(r.key, r.loader, executor);
                    }

                    @Override
                    public CompletableFuture<V> asyncReload(Read<K, V> r, V old, Executor executor) {
                        Loader<K, V> mine = current.get();
                        return read(r.key, mine == null ? r.loader : mine, executor);
                    }
                });
    }

    public V get(K key, Loader<K, V> loader) throws IOException {
        if (cache == null) {
            return loader.load(key);
        }
        current.set(loader);
        try {
            return cache.get(new Read<>(key, loader)).get();
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
            if (c instanceof Error e) {
                throw e;
            }
            throw new UncheckedIOException(new IOException(c));
        } finally {
            current.remove();
        }
    }

    private static <K, V> CompletableFuture<V> read(K key, Loader<K, V> loader, Executor executor) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return loader.load(key);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, executor);
    }

    /**
     * Forgets everything, and what reads under way will return (Caffeine drops a read whose entry
     * was removed meanwhile): for a writer that must read its own writes.
     */
    public void clear() {
        if (cache != null) {
            cache.synchronous().invalidateAll();
        }
    }

    /** Hits, misses, loads and evictions so far; all zero when nothing is cached. */
    public CacheStats stats() {
        return cache == null ? CacheStats.empty() : cache.synchronous().stats();
    }
}
