package io.videoworld.operators.inference;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.Detection;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Perception of keyframes keyed by stream, through the change gate ({@link ScreenGate}): each
 * keyframe is compared with its stream's last perceived one, kept as Flink keyed state
 * ({@link ScreenMemory}), so that after a restart the next keyframe is planned against the same
 * keyframe as in a failure-free run and reads the same. Only bands of changed tiles are OCR'd,
 * objects are carried while few tiles changed, every few keyframes are read whole. A keyframe is
 * perceived on the task thread as it comes (no batch across streams: what a batch would save is
 * small next to the pixels the gate does not read). The memory is cleared by an event-time timer
 * {@code idleMs} after the stream's latest keyframe, and a keyframe that late or of a new push is
 * read whole whether or not the timer has fired, so replay and failure-free runs agree. A keyframe
 * that does not decode is a dead letter and a failed perception; one whose inference still fails
 * after two retries is a failed perception (the memory stays as it was). Metrics as
 * {@link PerceptionFunction}'s ({@code vwPerceptionFailures}, {@code vwPerceptionFramesPerSecond},
 * {@code vwPerceptionBatchMs}) and {@code vwPerceptionOcrPixels}, {@code vwPerceptionOcrPixelsSkipped},
 * {@code vwPerceptionGateFull}, {@code vwPerceptionGatePartial}, {@code vwPerceptionGateReused},
 * {@code vwPerceptionDetectSkipped}, {@code vwPerceptionGateStateBytes} (a stream's memory).
 *
 * <p>Load shedding, live streams only (the second input, the stream documents, says which: a source
 * with neither duration nor frame count): a keyframe that queued too long, or that comes while perception of live
 * streams has used its share of the subtask's time ({@link LiveShedding}), is not perceived but
 * recorded as {@link Perception#SHED}, the last perceived keyframe's lines and objects carried and the
 * reason given, so the queue drains at once, the newest keyframes are read and the rest of the job
 * keeps its CPU; {@code vwPerceptionShed} counts what it cost. A file is read whole however late.
 */
public final class GatedPerception extends KeyedCoProcessFunction<String, QueuedKeyframe, VideoDoc, PerceptionResult> {
    private static final Logger LOG = LoggerFactory.getLogger(GatedPerception.class);
    /** Streams whose last keyframe's luma stays decoded on the heap (about 1 MB each at 1280x800); the others decode it again. */
    static final int DECODED = 8;

    private final String models;
    private final DetectionFunction.DetectorSettings detection;
    private final ScreenGate.Settings settings;
    private final long idleMs;
    private final LiveShedding shedding;
    private transient Perceiver perceiver;
    private transient ScreenGate gate;
    private transient ValueState<ScreenMemory> memory;
    private transient ValueState<Long> timer;
    /** The push of this stream that is live, when it is: only its keyframes are shed. */
    private transient ValueState<Long> liveEpoch;
    /** The luma of a few streams' last keyframes, so they need not be decoded again: a cache of what the state holds, never the truth. */
    private transient Map<String, Decoded> decoded;
    private transient Counter pixelsRead;
    private transient Counter pixelsSkipped;
    private transient Counter[] kinds;
    private transient Counter detectSkipped;
    private transient Counter failures;
    private transient Counter shed;
    private transient LiveShedding.Budget budget;
    private transient Meter frames;
    private transient Histogram ms;
    private transient Histogram stateBytes;

    private record Decoded(long epochMs, long frameIndex, GreyFrame grey) {}

    /** {@code detection} null runs no detector on keyframes. */
    public GatedPerception(String models, DetectionFunction.DetectorSettings detection, ScreenGate.Settings settings, long idleMs,
            LiveShedding shedding) {
        this.models = models;
        this.detection = detection;
        this.settings = settings;
        this.idleMs = idleMs;
        this.shedding = shedding;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        memory = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate", TypeInformation.of(ScreenMemory.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate-timer", Types.LONG));
        liveEpoch = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate-live", Types.LONG));
        perceiver = Perceiver.load(models, detection);
        gate = new ScreenGate(settings);
        decoded = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Decoded> eldest) {
                return size() > DECODED;
            }
        };
        MetricGroup m = getRuntimeContext().getMetricGroup();
        pixelsRead = m.counter("vwPerceptionOcrPixels");
        pixelsSkipped = m.counter("vwPerceptionOcrPixelsSkipped");
        kinds = new Counter[] {m.counter("vwPerceptionGateFull"), m.counter("vwPerceptionGatePartial"), m.counter("vwPerceptionGateReused")};
        detectSkipped = m.counter("vwPerceptionDetectSkipped");
        failures = m.counter("vwPerceptionFailures");
        shed = m.counter("vwPerceptionShed");
        budget = new LiveShedding.Budget(shedding);
        frames = m.meter("vwPerceptionFramesPerSecond", new MeterView(30));
        ms = m.histogram("vwPerceptionBatchMs", new DescriptiveStatisticsHistogram(500));
        stateBytes = m.histogram("vwPerceptionGateStateBytes", new DescriptiveStatisticsHistogram(500));
        LOG.info("change-gated perception, models from {} on {}", models, perceiver.device);
    }

    /** A stream document: whether the stream's push is live (neither duration nor frame count), which is what may be shed. */
    @Override
    public void processElement2(VideoDoc d, Context ctx, Collector<PerceptionResult> out) throws Exception {
        // A screenshot folder has no duration either, but a frame count: only a source with neither is live.
        boolean live = d.source() != null && d.source().durationMs() == null && d.source().totalFrames() == null
                && !VideoDoc.ENDED.equals(d.status());
        Long known = liveEpoch.value();
        if (live && (known == null || known != d.epochMs())) {
            liveEpoch.update(d.epochMs());
            Long pending = timer.value();
            if (pending == null || pending < d.lastEventTimeMs() + idleMs) {
                IdleTimer.rearm(timer, ctx.timerService(), d.lastEventTimeMs(), idleMs);
            }
        } else if (!live && known != null && known == d.epochMs()) {
            liveEpoch.clear();
        }
    }

    @Override
    public void processElement1(QueuedKeyframe q, Context ctx, Collector<PerceptionResult> out) throws Exception {
        Keyframe k = q.keyframe();
        long now = ctx.timerService().currentProcessingTime();
        Long liveEpoch = this.liveEpoch.value();
        boolean live = liveEpoch != null && liveEpoch == k.epochMs();
        String shedFor = live ? budget.shed(now - q.emittedMs(), now, memory.value() == null) : null;
        if (shedFor != null) {
            shed(k, shedFor, ctx, out);
            return;
        }
        long start = System.nanoTime();
        try {
            perceive(k, ctx, out, start);
        } finally {
            if (live) {
                budget.spent((System.nanoTime() - start) / 1_000_000);
            }
        }
    }

    private void perceive(Keyframe k, Context ctx, Collector<PerceptionResult> out, long start) throws Exception {
        DecodedImage image;
        float[] descriptor;
        try {
            image = DecodedImage.decode(k.jpeg());
            descriptor = Perceiver.descriptor(k);
        } catch (RuntimeException e) {
            String reason = "keyframe does not decode: " + e.getMessage();
            failures.inc();
            out.collect(new PerceptionResult(perceiver.failed(k, reason),
                    DeadLetter.ofFrame(PerceptionFunction.STAGE, reason, k.streamId(), k.frameIndex(), k.eventTimeMs(), k.jpeg())));
            return;
        }
        ScreenMemory prev = memory.value();
        boolean usable = prev != null && prev.epochMs() == k.epochMs() && k.eventTimeMs() - prev.eventTimeMs() < idleMs;
        ScreenGate.Last last = usable ? last(k.streamId(), prev) : null;
        GreyFrame grey = GreyFrame.of(image);
        ScreenGate.Read read = null;
        List<Detection> objects = null;
        Perception perception = null;
        RuntimeException failure = null;
        for (int attempt = 0; attempt <= 2 && perception == null; attempt++) {
            if (attempt > 0) {
                Thread.sleep(200L << (attempt - 1));
            }
            try {
                read = gate.read(last, image, grey, perceiver.ocr);
                objects = objects(last == null ? null : prev.objects(), read.plan(), image);
                perception = perceiver.perception(k, image, descriptor, read.lines(), objects);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (perception == null) {
            LOG.warn("perception of {} frame {} failed: {}", k.streamId(), k.frameIndex(), failure.toString());
            failures.inc();
            out.collect(new PerceptionResult(perceiver.failed(k, "inference failed after retries: " + failure), null));
            return;
        }
        ScreenGate.Last next = ScreenGate.remember(last, grey, read.plan(), read.lines());
        ScreenMemory kept = new ScreenMemory(k.epochMs(), k.frameIndex(), k.eventTimeMs(), k.jpeg(), next.lines(), next.sinceFull(),
                objects == null ? null : Perceiver.withoutAppearance(objects));
        memory.update(kept);
        decoded.put(k.streamId(), new Decoded(k.epochMs(), k.frameIndex(), grey));
        IdleTimer.rearm(timer, ctx.timerService(), k.eventTimeMs(), idleMs);
        out.collect(new PerceptionResult(perception, null));
        ScreenGate.Plan p = read.plan();
        pixelsRead.inc(p.pixelsRead());
        pixelsSkipped.inc((long) image.width() * image.height() - p.pixelsRead());
        kinds[p.kind().ordinal()].inc();
        frames.markEvent();
        ms.update((System.nanoTime() - start) / 1_000_000);
        stateBytes.update(kept.bytes());
    }

    /** Records a live keyframe as not perceived, carrying the stream's last perceived lines and objects; decodes nothing. */
    private void shed(Keyframe k, String why, Context ctx, Collector<PerceptionResult> out) throws Exception {
        ScreenMemory prev = memory.value();
        boolean usable = prev != null && prev.epochMs() == k.epochMs() && k.eventTimeMs() - prev.eventTimeMs() < idleMs;
        List<TextLine> lines = usable ? prev.lines() : List.of();
        List<Detection> objects = usable && prev.objects() != null ? prev.objects() : List.of();
        String reason = "shed, so newer keyframes are read first: " + why + "; "
                + (usable ? "lines and objects carried from frame " + prev.frameIndex() : "nothing perceived earlier to carry");
        JpegInfo info = JpegInfo.parse(k.jpeg());
        shed.inc();
        if (usable) {
            IdleTimer.rearm(timer, ctx.timerService(), Math.max(k.eventTimeMs(), prev.eventTimeMs()), idleMs);
        }
        out.collect(new PerceptionResult(Perception.shed(k, perceiver.device, info == null ? 0 : info.width(), info == null ? 0 : info.height(),
                lines, objects, reason), null));
    }

    /** Objects of a keyframe: detected again where enough changed, else the last keyframe's. */
    private List<Detection> objects(List<Detection> lastObjects, ScreenGate.Plan plan, DecodedImage image) {
        if (perceiver.detector == null) {
            return null;
        }
        if (lastObjects != null && !ScreenGate.detectAgain(plan)) {
            detectSkipped.inc();
            return lastObjects;
        }
        return perceiver.detector.detect(List.of(image)).get(0);
    }

    /** The last keyframe as the gate compares with it, its luma from the heap when still there, else decoded again. */
    private ScreenGate.Last last(String stream, ScreenMemory m) {
        Decoded d = decoded.get(stream);
        GreyFrame grey = d != null && d.epochMs() == m.epochMs() && d.frameIndex() == m.frameIndex() ? d.grey()
                : GreyFrame.of(DecodedImage.decode(m.jpeg()));
        return new ScreenGate.Last(grey, m.lines(), m.sinceFull());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<PerceptionResult> out) throws Exception {
        memory.clear();
        timer.clear();
        liveEpoch.clear();
        decoded.remove(ctx.getCurrentKey());
    }

    @Override
    public void close() {
        if (perceiver != null) {
            perceiver.close();
        }
    }
}
