package io.videoworld.operators.inference;

import io.videoworld.perception.GreyFrame;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The luma of a few streams' last perceived keyframes, so that change-gated perception need not
 * decode them again for the next comparison: a cache of what {@link ScreenMemory} (the state)
 * holds, never the truth; the least recently used stream is dropped past {@code size}. Task thread only.
 */
final class LumaCache {
    private record Entry(long epochMs, long frameIndex, GreyFrame grey) {}

    private final Map<String, Entry> entries;

    LumaCache(int size) {
        entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > size;
            }
        };
    }

    /** The luma of {@code stream}'s keyframe {@code prev} when it is still here, else null. */
    GreyFrame get(String stream, ScreenMemory prev) {
        Entry e = entries.get(stream);
        return e != null && e.epochMs() == prev.epochMs() && e.frameIndex() == prev.frameIndex() ? e.grey() : null;
    }

    void put(String stream, long epochMs, long frameIndex, GreyFrame grey) {
        entries.put(stream, new Entry(epochMs, frameIndex, grey));
    }

    void remove(String stream) {
        entries.remove(stream);
    }
}
