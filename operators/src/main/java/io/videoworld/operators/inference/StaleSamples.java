package io.videoworld.operators.inference;

import io.videoworld.core.SampledFrame;
import java.util.HashMap;
import java.util.Map;

/**
 * Which live samples the detector skips because they fell behind (Flink-free; one per detection
 * subtask, not checkpointed: it only remembers the newest sample of each stream still in flight).
 * A live stream's sample is dropped when, as its detection would start, it is more than
 * {@code maxLagMs} behind the wall clock and a newer sample of the same stream is already waiting,
 * so a stream that falls behind skips to its newest sample instead of detecting a queue of stale
 * ones (as Frigate does); its newest sample and its last one are always detected, so it is never
 * starved, and files and folders are never dropped. A stream is forgotten once its newest sample
 * has been detected, so nothing stays for a stream with nothing in flight.
 */
final class StaleSamples {
    private final long maxLagMs;
    /** Per stream with samples in flight: event time of its newest one. Touched by the task thread and the detector's thread. */
    private final Map<String, Long> newest = new HashMap<>();

    /** @param maxLagMs how far behind a live sample may be before it is skipped for a newer one; 0 never drops */
    StaleSamples(long maxLagMs) {
        this.maxLagMs = maxLagMs;
    }

    /** A sample was handed to the detector (on the task thread, in stream order). */
    synchronized void arrived(SampledFrame f) {
        if (maxLagMs > 0 && f.live()) {
            newest.merge(f.streamId(), f.eventTimeMs(), Math::max);
        }
    }

    /** Whether {@code f} is to be skipped at {@code nowMs} rather than detected. */
    synchronized boolean drop(SampledFrame f, long nowMs) {
        if (maxLagMs <= 0 || !f.live() || f.last() || nowMs - f.eventTimeMs() <= maxLagMs) {
            return false;
        }
        Long n = newest.get(f.streamId());
        return n != null && n > f.eventTimeMs();
    }

    /** {@code f} was detected or dropped: its stream is forgotten when it was the newest (or last) sample in flight. */
    synchronized void done(SampledFrame f) {
        Long n = newest.get(f.streamId());
        if (n != null && (n <= f.eventTimeMs() || f.last())) {
            newest.remove(f.streamId());
        }
    }

    /** Streams with samples in flight. */
    synchronized int streams() {
        return newest.size();
    }
}
