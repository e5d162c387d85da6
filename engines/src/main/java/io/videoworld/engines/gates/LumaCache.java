package io.videoworld.engines.gates;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.videoworld.perception.GreyFrame;

/**
 * The luma of a few streams' last perceived keyframes, so that change-gated perception need not
 * decode them again for the next comparison: a cache of what {@link ScreenMemory} (the state)
 * holds, never the truth; a Caffeine cache of at most {@code size} streams. Its upkeep runs on the
 * caller's thread: the task thread, the only one that uses it.
 */
public final class LumaCache {
    private record Entry(long epochMs, long frameIndex, GreyFrame grey) {}

    private final Cache<String, Entry> entries;

    /** A cache of at most {@code size} streams' last luma frames. */
    public LumaCache(int size) {
        entries = Caffeine.newBuilder().maximumSize(size).executor(Runnable::run).recordStats().build();
    }

    /** The luma of {@code stream}'s keyframe {@code prev} when it is still here, else null. */
    public GreyFrame get(String stream, ScreenMemory prev) {
        Entry e = entries.getIfPresent(stream);
        return e != null && e.epochMs() == prev.epochMs() && e.frameIndex() == prev.frameIndex() ? e.grey() : null;
    }

    /** Remembers the luma frame of a stream's keyframe. */
    public void put(String stream, long epochMs, long frameIndex, GreyFrame grey) {
        entries.put(stream, new Entry(epochMs, frameIndex, grey));
    }

    /** Forgets a stream. */
    public void remove(String stream) {
        entries.invalidate(stream);
    }

    /** Hits and misses so far. */
    CacheStats stats() {
        return entries.stats();
    }
}
