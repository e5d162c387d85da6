package io.videoworld.connectors.esread;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A stream's ordered, append-only documents (closed shots and scenes, stored keyframes) kept in
 * memory per stream and push, renewed by reading only the tail. A closed shot or a stored keyframe
 * never changes once written (a replay rewrites the same document under the same id), so what has
 * been seen for {@link #SETTLE_MS} is kept and only what comes after it is read again (a document
 * that may still change, such as the open scene, and all after it are always read again); the settle
 * time covers documents of one stream that become searchable out of order (shards refresh on
 * their own). Everything is read afresh every {@link #FULL_READ_MS}, so documents removed by
 * retention or a stream delete leave the cache within that time. Between reads the list answers
 * from memory with the {@link TtlCache}'s staleness.
 *
 * @param <K> key (stream, push and kind)
 * @param <T> document
 */
final class TailCache<K, T> {
    static final long SETTLE_MS = 5_000;
    static final long FULL_READ_MS = 60_000;
    private static final int MAX_KEYS = 1_000;

    /** Reads every document whose position is after {@code after} (all of them for null), in position order. */
    @FunctionalInterface
    interface TailReader<T> {
        List<T> readAfter(Long after) throws IOException;
    }

    /** The list as last read, each document's first sighting, and when it was last read in full. */
    private record Snapshot<T>(List<T> items, long[] firstSeenNanos, long fullReadNanos) {}

    private final TtlCache<K, List<T>> ttl;
    private final Cache<K, Snapshot<T>> last = Caffeine.newBuilder().maximumSize(MAX_KEYS).build();
    private final ToLongFunction<T> position;
    private final Predicate<T> fixed;
    private final boolean caching;

    /**
     * @param cacheMs how long a read is reused (0: never, every call reads everything)
     * @param position the order documents are read in (a start frame, a time)
     * @param fixed whether a document can no longer change once written
     */
    TailCache(long cacheMs, ToLongFunction<T> position, Predicate<T> fixed) {
        this.ttl = new TtlCache<>(cacheMs);
        this.position = position;
        this.fixed = fixed;
        this.caching = cacheMs > 0;
    }

    List<T> get(K key, TailReader<T> reader) throws IOException {
        return caching ? ttl.get(key, k -> refresh(k, reader)) : List.copyOf(reader.readAfter(null));
    }

    private List<T> refresh(K key, TailReader<T> reader) throws IOException {
        long now = System.nanoTime();
        Snapshot<T> prev = last.getIfPresent(key);
        if (prev == null || now - prev.fullReadNanos() > FULL_READ_MS * 1_000_000) {
            List<T> all = reader.readAfter(null);
            long[] seen = new long[all.size()];
            Map<Long, Long> before = prev == null ? Map.of() : firstSeen(prev, 0);
            for (int i = 0; i < seen.length; i++) {
                seen[i] = before.getOrDefault(position.applyAsLong(all.get(i)), now);
            }
            last.put(key, new Snapshot<>(List.copyOf(all), seen, now));
            return List.copyOf(all);
        }
        // The settled prefix: documents first seen long enough ago that nothing before them can still appear.
        int settled = 0;
        while (settled < prev.items().size() && now - prev.firstSeenNanos()[settled] > SETTLE_MS * 1_000_000
                && fixed.test(prev.items().get(settled))) {
            settled++;
        }
        List<T> tail = reader.readAfter(settled == 0 ? null : position.applyAsLong(prev.items().get(settled - 1)));
        Map<Long, Long> before = firstSeen(prev, settled);
        List<T> items = new ArrayList<>(settled + tail.size());
        items.addAll(prev.items().subList(0, settled));
        items.addAll(tail);
        long[] seen = new long[items.size()];
        System.arraycopy(prev.firstSeenNanos(), 0, seen, 0, settled);
        for (int i = settled; i < seen.length; i++) {
            seen[i] = before.getOrDefault(position.applyAsLong(items.get(i)), now);
        }
        List<T> out = List.copyOf(items);
        last.put(key, new Snapshot<>(out, seen, prev.fullReadNanos()));
        return out;
    }

    private Map<Long, Long> firstSeen(Snapshot<T> s, int from) {
        Map<Long, Long> m = new HashMap<>();
        for (int i = from; i < s.items().size(); i++) {
            m.put(position.applyAsLong(s.items().get(i)), s.firstSeenNanos()[i]);
        }
        return m;
    }

    /** The statistics of the reads this answers from. */
    CacheStats stats() {
        return ttl.stats();
    }
}
