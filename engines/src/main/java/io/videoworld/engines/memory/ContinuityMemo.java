package io.videoworld.engines.memory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.videoworld.core.Perception;

/**
 * {@link ScreenContinuity#continues} remembered per pair of keyframes (Flink-free, not state: a pure
 * function's answers). The open shot of a live screen is batched again at every timer until it is
 * cut, each time comparing every pair of its keyframes, and the title and app regexes over their
 * lines would take CPU the OCR of those screens needs. A keyframe is named by its stream, push, frame, status and line count.
 */
final class ContinuityMemo {
    /** Pairs remembered: far more than the keyframes of one open shot of every stream of a subtask. */
    static final int PAIRS = 4096;

    private record Key(String stream, long epochMs, long before, long next, String statusBefore, String statusNext, int linesBefore,
            int linesNext) {}

    /** Upkeep on the caller's thread: the task thread is the only one that uses it. */
    private final Cache<Key, Boolean> memo = Caffeine.newBuilder().maximumSize(PAIRS).executor(Runnable::run).build();
    private long computed;

    /** The same answer as {@link ScreenContinuity#continues}, computed once per pair. */
    boolean continues(Perception before, Perception next) {
        if (before == null || next == null || !before.streamId().equals(next.streamId()) || before.epochMs() != next.epochMs()) {
            computed++;
            return ScreenContinuity.continues(before, next);
        }
        Key key = new Key(before.streamId(), before.epochMs(), before.frameIndex(), next.frameIndex(), before.status(), next.status(),
                before.lines().size(), next.lines().size());
        Boolean known = memo.getIfPresent(key);
        if (known == null) {
            computed++;
            known = ScreenContinuity.continues(before, next);
            memo.put(key, known);
        }
        return known;
    }

    /** Answers computed rather than remembered, for tests. */
    long computed() {
        return computed;
    }
}
