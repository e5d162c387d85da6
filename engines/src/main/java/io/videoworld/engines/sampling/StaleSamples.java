package io.videoworld.engines.sampling;

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
 *
 * <p>A batch's samples are all detected once it starts, so a big batch on a starved detector
 * would deliver its first samples long after they were checked: while live samples are in flight a
 * batch takes only as many as the detector was last measured to detect in half of {@code
 * maxLagMs} (at least one); the rest wait, and those of them that fall behind are dropped. At nice
 * 10 beside busy OCR a sample took over a second, and a batch of 16 held samples 11-16 s.
 */
public final class StaleSamples {
    private final long maxLagMs;
    private final boolean limitBatches;
    /** Per stream with samples in flight: event time of its newest one. Touched by the task thread and the detector's thread. */
    private final Map<String, Long> newest = new HashMap<>();
    /** Wall-clock ms per detected sample, smoothed over recent batches; 0 before the first. */
    private double msPerSample;

    /** @param maxLagMs how far behind a live sample may be before it is skipped for a newer one; 0 never drops */
    public StaleSamples(long maxLagMs) {
        this(maxLagMs, false);
    }

    /** @param limitBatches while live samples are in flight, a batch takes only what half of {@code maxLagMs} detects */
    public StaleSamples(long maxLagMs, boolean limitBatches) {
        this.maxLagMs = maxLagMs;
        this.limitBatches = limitBatches;
    }

    /** A sample was handed to the detector (on the task thread, in stream order). */
    public synchronized void arrived(SampledFrame f) {
        if (maxLagMs > 0 && f.live()) {
            newest.merge(f.streamId(), f.eventTimeMs(), Math::max);
        }
    }

    /** Whether {@code f} is to be skipped at {@code nowMs} rather than detected. */
    public synchronized boolean drop(SampledFrame f, long nowMs) {
        if (maxLagMs <= 0 || !f.live() || f.last() || nowMs - f.eventTimeMs() <= maxLagMs) {
            return false;
        }
        Long n = newest.get(f.streamId());
        return n != null && n > f.eventTimeMs();
    }

    /** {@code f} was detected or dropped: its stream is forgotten when it was the newest (or last) sample in flight. */
    public synchronized void done(SampledFrame f) {
        Long n = newest.get(f.streamId());
        if (n != null && (n <= f.eventTimeMs() || f.last())) {
            newest.remove(f.streamId());
        }
    }

    /** {@code samples} were detected in {@code ms} of wall-clock time (on the detector's thread). */
    public synchronized void detected(int samples, long ms) {
        if (samples > 0) {
            double each = (double) ms / samples;
            msPerSample = msPerSample == 0 ? each : 0.5 * msPerSample + 0.5 * each;
        }
    }

    /** Most samples the next batch may take: {@code maxBatch}, or fewer while live samples are in flight and detection is slow. */
    public synchronized int batchLimit(int maxBatch) {
        if (!limitBatches || maxLagMs <= 0 || newest.isEmpty() || msPerSample == 0) {
            return maxBatch;
        }
        return (int) Math.max(1, Math.min(maxBatch, (maxLagMs / 2.0) / msPerSample));
    }

    /** Whether batches are limited now: the limit is on and live samples are in flight (then each is checked as it starts). */
    public synchronized boolean limiting() {
        return limitBatches && maxLagMs > 0 && !newest.isEmpty();
    }

    /** Streams with samples in flight. */
    public synchronized int streams() {
        return newest.size();
    }
}
