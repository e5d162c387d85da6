package io.videoworld.connectors.esread;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What this process wrote lately, laid over reads that lag behind it (the index's refresh, a
 * {@link TtlCache}), so a writer reads its own writes at once without making Elasticsearch
 * refresh on every write. A written value is laid over reads for {@code keepMs}, by when the
 * index's own refresh (1 s) and the read caches have caught up; a deleted stream's writes are
 * forgotten at once ({@link #forgetStream}).
 *
 * <p>It also says whether the same document was written, or seen to exist, within
 * {@code verifyMs} ({@link #unchanged}): an agent writes the same thing again and again, and
 * such a write need not reach Elasticsearch at all. Past that window the writer checks that the
 * document still exists (a delete from elsewhere) and says so with {@link #verified}.
 *
 * @param <T> the written value as readers see it
 */
public final class OwnWrites<T> {
    private record Entry<T>(String streamId, String body, T value, long writtenNanos, long verifiedNanos) {}

    private static final int MAX_ENTRIES = 10_000;
    private final ConcurrentHashMap<String, Entry<T>> entries = new ConcurrentHashMap<>();
    private final long keepNanos;
    private final long verifyNanos;

    /** @param keepMs how long a write is laid over reads; @param verifyMs how long a write stands without asking whether it still exists */
    public OwnWrites(long keepMs, long verifyMs) {
        this.keepNanos = keepMs * 1_000_000;
        this.verifyNanos = verifyMs * 1_000_000;
    }

    /** Records a write of document {@code id} of {@code streamId}: {@code body} is what identifies it as the same write again. */
    public void put(String id, String streamId, String body, T value) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        long now = System.nanoTime();
        entries.put(id, new Entry<>(streamId, body, value, now, now));
    }

    /** Whether {@code body} is what was last written as {@code id} and it was written or seen to exist within the verify window. */
    public boolean unchanged(String id, String body) {
        Entry<T> e = entries.get(id);
        return e != null && e.body().equals(body) && System.nanoTime() - e.verifiedNanos() < verifyNanos;
    }

    /** Whether {@code body} is what was last written as {@code id}, however long ago (the caller then checks that it still exists). */
    public boolean writtenBefore(String id, String body) {
        Entry<T> e = entries.get(id);
        return e != null && e.body().equals(body);
    }

    /** Says that document {@code id} was just seen to exist as written: the verify window starts again. */
    public void verified(String id) {
        entries.computeIfPresent(id, (k, e) -> new Entry<>(e.streamId(), e.body(), e.value(), e.writtenNanos(), System.nanoTime()));
    }

    /** The value written as {@code id} within the keep window. */
    public Optional<T> recent(String id) {
        Entry<T> e = entries.get(id);
        return e != null && System.nanoTime() - e.writtenNanos() < keepNanos ? Optional.of(e.value()) : Optional.empty();
    }

    /**
     * {@code read} with this stream's writes of the keep window laid over it: a written value
     * replaces the read one with the same id in its place, and one the read lacks is added where
     * {@code order} puts it (after those it ties with).
     */
    public List<T> overlay(String streamId, List<T> read, Function<T, String> idOf, Comparator<T> order) {
        long now = System.nanoTime();
        List<Entry<T>> mine = new ArrayList<>();
        for (Entry<T> e : entries.values()) {
            if (e.streamId().equals(streamId) && now - e.writtenNanos() < keepNanos) {
                mine.add(e);
            }
        }
        if (mine.isEmpty()) {
            return read;
        }
        mine.sort(Comparator.comparingLong(Entry::writtenNanos));
        List<T> out = new ArrayList<>(read);
        for (Entry<T> e : mine) {
            String id = idOf.apply(e.value());
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (idOf.apply(out.get(i)).equals(id)) {
                    at = i;
                    break;
                }
            }
            if (at >= 0) {
                out.set(at, e.value());
                continue;
            }
            int pos = out.size();
            while (pos > 0 && order.compare(out.get(pos - 1), e.value()) > 0) {
                pos--;
            }
            out.add(pos, e.value());
        }
        return List.copyOf(out);
    }

    /** The values written within the keep window, of every stream. */
    public List<T> recentValues() {
        long now = System.nanoTime();
        List<T> out = new ArrayList<>();
        for (Entry<T> e : entries.values()) {
            if (now - e.writtenNanos() < keepNanos) {
                out.add(e.value());
            }
        }
        return out;
    }

    /** Forgets the write of document {@code id}, as when it was deleted. */
    public void forget(String id) {
        entries.remove(id);
    }

    /** Forgets the writes of a stream that was deleted, so they are neither laid over reads nor taken as still there. */
    public void forgetStream(String streamId) {
        entries.values().removeIf(e -> e.streamId().equals(streamId));
    }
}
