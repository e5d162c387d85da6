package io.videoworld.operators.inference;

import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.perception.GatedReader;
import java.util.function.IntSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * What {@link GatedPerception} counts, updated on the task thread only (Flink's counters are not for
 * concurrent writers): {@link PerceptionFunction}'s metrics and {@code vwPerceptionOcrPixels},
 * {@code vwPerceptionOcrPixelsSkipped}, {@code vwPerceptionGateFull}, {@code vwPerceptionGatePartial},
 * {@code vwPerceptionGateReused}, {@code vwPerceptionDetectSkipped}, {@code vwPerceptionGateStateBytes}
 * (a stream's memory), {@code vwPerceptionQueued} (keyframes waiting or being read).
 */
final class GatedMetrics {
    private final Counter pixelsRead;
    private final Counter pixelsSkipped;
    private final Counter[] kinds;
    private final Counter detectSkipped;
    private final Counter failures;
    private final Counter shed;
    private final Meter frames;
    private final Histogram ms;
    private final Histogram stateBytes;

    /** {@code remembered} and {@code recognised}: the readers' OCR text lines taken from their line memos and recognised. */
    GatedMetrics(MetricGroup m, IntSupplier queued, java.util.function.LongSupplier remembered, java.util.function.LongSupplier recognised) {
        pixelsRead = m.counter("vwPerceptionOcrPixels");
        pixelsSkipped = m.counter("vwPerceptionOcrPixelsSkipped");
        kinds = new Counter[] {m.counter("vwPerceptionGateFull"), m.counter("vwPerceptionGatePartial"), m.counter("vwPerceptionGateReused")};
        detectSkipped = m.counter("vwPerceptionDetectSkipped");
        failures = m.counter("vwPerceptionFailures");
        shed = m.counter("vwPerceptionShed");
        m.gauge("vwPerceptionQueued", queued::getAsInt);
        m.gauge("vwPerceptionOcrLinesRemembered", remembered::getAsLong);
        m.gauge("vwPerceptionOcrLinesRecognised", recognised::getAsLong);
        frames = m.meter("vwPerceptionFramesPerSecond", new MeterView(30));
        ms = m.histogram("vwPerceptionBatchMs", new DescriptiveStatisticsHistogram(500));
        stateBytes = m.histogram("vwPerceptionGateStateBytes", new DescriptiveStatisticsHistogram(500));
    }

    /** A keyframe read: what the gate read and skipped, the time it took and the stream's memory after it. */
    void read(GatedReader.Outcome o) {
        ScreenGate.Plan p = o.plan();
        pixelsRead.inc(p.pixelsRead());
        pixelsSkipped.inc(o.pixels() - p.pixelsRead());
        kinds[p.kind().ordinal()].inc();
        if (o.detectSkipped()) {
            detectSkipped.inc();
        }
        frames.markEvent();
        ms.update(o.ms());
        stateBytes.update(o.kept().bytes());
    }

    void failed() {
        failures.inc();
    }

    void shed() {
        shed.inc();
    }
}
