package io.videoworld.query.video;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.videoworld.connectors.esread.FrameRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Ids;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A push's stored keyframes in time order, without a round trip per call: a closed shot lists
 * every keyframe it stored and never changes (the {@link SegmentRepository} keeps those), so only
 * the keyframes of the shot still open are read, from the end of the last closed shot on (a
 * short read that the {@link FrameRepository} reuses).
 */
public final class StoredKeyframes {
    /** A stored keyframe: its frame id and presentation time. */
    public record Key(String frameId, long ptsMs) {}

    /** The closed shots' keyframes as built from one list of shots, reused while the repository hands out the same list. */
    private record Built(List<Segment> shots, List<Key> keys, long tailFromMs) {}

    private static final int MAX_STREAMS = 1_000;
    private final SegmentRepository segments;
    private final FrameRepository frames;
    private final Cache<String, Built> built = Caffeine.newBuilder().maximumSize(MAX_STREAMS).build();

    public StoredKeyframes(SegmentRepository segments, FrameRepository frames) {
        this.segments = segments;
        this.frames = frames;
    }

    /** Every stored keyframe of {@code v}'s current push, in time order. */
    public List<Key> list(VideoDoc v) throws IOException {
        List<Segment> shots = segments.list(v.streamId(), v.epochMs(), Segment.SHOT);
        String key = v.streamId() + "\u0000" + v.epochMs();
        Built b = built.getIfPresent(key);
        if (b == null || b.shots() != shots) {
            List<Key> keys = new ArrayList<>();
            long tail = 0;
            for (Segment s : shots) {
                for (KeyframeRef k : s.keyframes()) {
                    keys.add(new Key(Ids.frame(v.streamId(), k.frameIndex()), k.ptsMs()));
                }
                tail = Math.max(tail, s.endPtsMs());
            }
            keys.sort(Comparator.comparingLong(Key::ptsMs));
            b = new Built(shots, List.copyOf(keys), tail);
            built.put(key, b);
        }
        List<FrameDoc> open = frames.keyframes(v.streamId(), v.epochMs(), b.tailFromMs(), Long.MAX_VALUE, 10_000);
        if (open.isEmpty()) {
            return b.keys();
        }
        List<Key> out = new ArrayList<>(b.keys());
        long last = out.isEmpty() ? Long.MIN_VALUE : out.get(out.size() - 1).ptsMs();
        for (FrameDoc d : open) {
            if (d.ptsMs() > last) {
                out.add(new Key(d.id(), d.ptsMs()));
            }
        }
        return out;
    }

    /** The stored keyframes between two times (inclusive), in time order. */
    public List<Key> between(VideoDoc v, long fromMs, long toMs) throws IOException {
        List<Key> all = list(v);
        List<Key> out = new ArrayList<>();
        for (int i = firstAtOrAfter(all, fromMs); i < all.size() && all.get(i).ptsMs() <= toMs; i++) {
            out.add(all.get(i));
        }
        return out;
    }

    /** The stored keyframe nearest to a time, or null when the push has none. */
    public Key nearest(VideoDoc v, long ptsMs) throws IOException {
        List<Key> all = list(v);
        int i = firstAtOrAfter(all, ptsMs);
        Key after = i < all.size() ? all.get(i) : null;
        Key before = i > 0 ? all.get(i - 1) : null;
        if (before == null || after == null) {
            return before != null ? before : after;
        }
        return ptsMs - before.ptsMs() <= after.ptsMs() - ptsMs ? before : after;
    }

    private static int firstAtOrAfter(List<Key> sorted, long ptsMs) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid).ptsMs() < ptsMs) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
