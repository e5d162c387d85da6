package io.videoworld.connectors.es;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers read results for a short time. Elasticsearch makes writes searchable once a second
 * (the indices' refresh interval), so reads already lag by up to that much; a cache of half of it
 * adds little staleness and takes repeated reads of a busy stream off the server.
 *
 * @param <K> key
 * @param <V> value
 */
public final class TtlCache<K, V> {
    private record Entry<V>(V value, long expiresNanos) {}

    /** A read that may fail. */
    @FunctionalInterface
    public interface Loader<K, V> {
        V load(K key) throws IOException;
    }

    private static final int MAX_ENTRIES = 10_000;
    private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final long ttlNanos;

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
        V v = loader.load(key);
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(key, new Entry<>(v, now + ttlNanos));
        return v;
    }
}
