package io.videoworld.engines.sampling;

import io.videoworld.engines.gates.ScreenMemory;
import io.videoworld.core.Detection;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import java.io.Serializable;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * When change-gated perception skips a live stream's keyframe so that it keeps up (Flink-free; one
 * per subtask, not checkpointed: it is a rate, not data). Two limits: a keyframe that queued longer
 * than {@code maxQueueMs} since the shot detector let it go is stale, and perception of live
 * keyframes may take at most {@code cpuShare} of the subtask's wall-clock time, measured as a bucket
 * that fills at that share (up to {@link #BURST_MS} ahead) and empties by each perception's time: on
 * two cores OCR would otherwise take every core, and the frames, shots and detection it starves
 * fall behind with it. Either limit 0 is off.
 *
 * <p>Fairness between streams ({@code turnPeriodMs} over 0): a stream whose keyframe has not been
 * read for that long is overdue, and its newest queued keyframe is read whatever the two limits
 * say; so each stream, a camera beside busy screens included, is read at least once a period,
 * and what is shed is the streams read most recently. The subtask also hands a free reader to the
 * stream read longest ago first ({@link Budget#lastTurn}), not to the keyframe that came first.
 *
 * <p>Latest wins ({@code latestWins}): a live keyframe whose stream has a newer keyframe queued is
 * shed when its turn comes, whatever the limits, so a stream that fell behind is read at its newest
 * keyframe next instead of working through the ones queued before it.
 *
 * @param maxQueueMs longest a live keyframe may queue before perception, 0 for no limit
 * @param cpuShare share of wall-clock time perception of live keyframes may use, 0 for no limit
 * @param turnPeriodMs a stream not read for this long has its newest keyframe read anyway, 0 for never
 * @param latestWins a live keyframe with a newer one of its stream queued is shed
 */
public record LiveShedding(long maxQueueMs, double cpuShare, long turnPeriodMs, boolean latestWins) implements Serializable {
    /** Perceive everything, however late. */
    public static final LiveShedding OFF = new LiveShedding(0, 0, 0, false);
    /** How far ahead the time bucket fills: a burst of changes after a quiet while is read whole. */
    static final long BURST_MS = 10_000;
    /** Streams whose last turn a subtask remembers (a stream is forgotten when it goes idle; this bounds the rest). */
    static final int STREAMS = 4096;

    /** The two limits without turns between streams. */
    public LiveShedding(long maxQueueMs, double cpuShare) {
        this(maxQueueMs, cpuShare, 0);
    }

    /** The two limits and turns, every queued keyframe considered (no latest-wins). */
    public LiveShedding(long maxQueueMs, double cpuShare, long turnPeriodMs) {
        this(maxQueueMs, cpuShare, turnPeriodMs, false);
    }

    /** A shed keyframe's record: {@code prev}'s lines and objects carried (null: nothing perceived earlier), the reason given; decodes nothing. */
    public static PerceptionResult carried(Keyframe k, ScreenMemory prev, String device, String why) {
        List<TextLine> lines = prev != null ? prev.lines() : List.of();
        List<Detection> objects = prev != null && prev.objects() != null ? prev.objects() : List.of();
        String reason = "shed, so newer keyframes are read first: " + why + "; "
                + (prev != null ? "lines and objects carried from frame " + prev.frameIndex() : "nothing perceived earlier to carry");
        JpegInfo info = JpegInfo.parse(k.jpeg());
        return new PerceptionResult(Perception.shed(k, device, info == null ? 0 : info.width(), info == null ? 0 : info.height(), lines,
                objects, reason), null);
    }

    /** The running budget of one subtask, and when each of its streams last had a turn. */
    public static final class Budget {
        private final LiveShedding limits;
        private double bucketMs = BURST_MS;
        private long lastMs = Long.MIN_VALUE;
        /** A stream's last read start ({@code read}), or when it was first seen if it was never read. */
        private record Turn(long atMs, boolean read) {}

        private final Map<String, Turn> turns = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Turn> eldest) {
                return size() > STREAMS;
            }
        };

        /** A budget under these limits. */
        public Budget(LiveShedding limits) {
            this.limits = limits;
        }

        /**
         * Why a live keyframe that queued {@code queuedMs} is skipped at {@code nowMs}; null to perceive it. A stream's
         * first keyframe ({@code first}) is read whatever the time used, so that every stream has text to carry.
         */
        public String shed(long queuedMs, long nowMs, boolean first) {
            return shed(null, queuedMs, nowMs, first, false);
        }

        /**
         * As {@link #shed(long, long, boolean)} for a keyframe of {@code stream}; when it is the stream's newest queued
         * one ({@code newest}) and the stream is overdue (no read for a turn period), it is read whatever the limits.
         */
        public String shed(String stream, long queuedMs, long nowMs, boolean first, boolean newest) {
            if (limits.cpuShare() > 0) {
                bucketMs = lastMs == Long.MIN_VALUE ? bucketMs : Math.min(BURST_MS, bucketMs + (nowMs - lastMs) * limits.cpuShare());
                lastMs = nowMs;
            }
            if (stream != null && !newest && limits.latestWins()) {
                return "a newer keyframe of the stream is queued (latest wins)";
            }
            if (stream != null && newest && limits.turnPeriodMs() > 0) {
                Turn since = turns.get(stream);
                if (since != null && nowMs - since.atMs() >= limits.turnPeriodMs()) {
                    return null;
                }
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
        public void spent(long ms) {
            bucketMs -= ms;
        }

        /** {@code stream} has a keyframe queued at {@code nowMs}: its wait for a turn counts from here if it has had none. */
        public void seen(String stream, long nowMs) {
            turns.putIfAbsent(stream, new Turn(nowMs, false));
        }

        /** A read of {@code stream} starts at {@code nowMs}. */
        public void turn(String stream, long nowMs) {
            turns.put(stream, new Turn(nowMs, true));
        }

        /** When {@code stream} last had a read started; {@link Long#MIN_VALUE} when never (it goes first). */
        public long lastTurn(String stream) {
            Turn t = turns.get(stream);
            return t == null || !t.read() ? Long.MIN_VALUE : t.atMs();
        }

        /** {@code stream} went idle: nothing of it is kept. */
        public void forget(String stream) {
            turns.remove(stream);
        }

        /** Streams remembered. */
        public int streams() {
            return turns.size();
        }
    }
}
