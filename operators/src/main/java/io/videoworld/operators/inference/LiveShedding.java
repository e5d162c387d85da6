package io.videoworld.operators.inference;

import java.io.Serializable;
import java.util.Locale;

/**
 * When change-gated perception skips a live stream's keyframe so that it keeps up (Flink-free; one
 * per subtask, not checkpointed: it is a rate, not data). Two limits: a keyframe that queued longer
 * than {@code maxQueueMs} since the shot detector let it go is stale, and perception of live
 * keyframes may take at most {@code cpuShare} of the subtask's wall-clock time, measured as a bucket
 * that fills at that share (up to {@link #BURST_MS} ahead) and empties by each perception's time: on
 * two cores OCR would otherwise take every core, and the frames, shots and detection it starves
 * fall behind with it. Either limit 0 is off.
 *
 * @param maxQueueMs longest a live keyframe may queue before perception, 0 for no limit
 * @param cpuShare share of wall-clock time perception of live keyframes may use, 0 for no limit
 */
public record LiveShedding(long maxQueueMs, double cpuShare) implements Serializable {
    /** Perceive everything, however late. */
    public static final LiveShedding OFF = new LiveShedding(0, 0);
    /** How far ahead the time bucket fills: a burst of changes after a quiet while is read whole. */
    static final long BURST_MS = 10_000;

    /** The running budget of one subtask. */
    static final class Budget {
        private final LiveShedding limits;
        private double bucketMs = BURST_MS;
        private long lastMs = Long.MIN_VALUE;

        Budget(LiveShedding limits) {
            this.limits = limits;
        }

        /**
         * Why a live keyframe that queued {@code queuedMs} is skipped at {@code nowMs}; null to perceive it. A stream's
         * first keyframe ({@code first}) is read whatever the time used, so that every stream has text to carry.
         */
        String shed(long queuedMs, long nowMs, boolean first) {
            if (limits.cpuShare() > 0) {
                bucketMs = lastMs == Long.MIN_VALUE ? bucketMs : Math.min(BURST_MS, bucketMs + (nowMs - lastMs) * limits.cpuShare());
                lastMs = nowMs;
            }
            if (limits.maxQueueMs() > 0 && queuedMs > limits.maxQueueMs()) {
                return String.format(Locale.ROOT, "queued %.1f s behind a live stream (limit %.1f s)", queuedMs / 1000.0,
                        limits.maxQueueMs() / 1000.0);
            }
            if (limits.cpuShare() > 0 && bucketMs < 0 && !first) {
                return String.format(Locale.ROOT, "perception of live streams used its %.0f%% of this subtask's time", 100 * limits.cpuShare());
            }
            return null;
        }

        /** A live keyframe was perceived in {@code ms}. */
        void spent(long ms) {
            bucketMs -= ms;
        }
    }
}
