package io.videoworld.operators;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.VideoDoc;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Per stream: emits a document for every frame and keeps the stream's {@link VideoDoc} (frames
 * indexed, time span, source facts), emitting it after each batch on a side output.
 *
 * <p>A batch whose sequence number was already accepted in the same push (same epoch) is a
 * producer retry and is dropped; a batch with a new epoch starts the stream over, as a re-push
 * of the same stream id should. The last batch of a file or folder marks the stream ended and
 * clears its state; when no batch arrives for {@code idleTimeoutMs} of event time, an event-time
 * timer marks the stream idle, emits the final document and clears all state.
 */
public final class StreamCatalog extends GuardedKeyedProcessFunction<String, FrameBatch, FrameDoc> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "stream-catalog";
    public static final OutputTag<VideoDoc> VIDEOS = new OutputTag<>("videos", TypeInformation.of(VideoDoc.class));

    private final long idleTimeoutMs;
    private transient ValueState<VideoDoc> stream;
    private transient ValueState<Long> idleTimer;
    private transient Counter duplicates;

    public StreamCatalog(long idleTimeoutMs) {
        super(STAGE);
        this.idleTimeoutMs = idleTimeoutMs;
    }

    @Override
    public void open(OpenContext ctx) {
        stream = getRuntimeContext().getState(new ValueStateDescriptor<>("stream", TypeInformation.of(VideoDoc.class)));
        idleTimer = getRuntimeContext().getState(new ValueStateDescriptor<>("idle-timer", Types.LONG));
        duplicates = getRuntimeContext().getMetricGroup().counter("vwDuplicateBatches");
    }

    @Override
    protected void process(FrameBatch batch, Context ctx, Collector<FrameDoc> out) throws Exception {
        VideoDoc doc = stream.value();
        if (doc != null && doc.epochMs() == batch.epochMs() && batch.seq() <= doc.lastSeq()) {
            duplicates.inc();
            return;
        }
        if (doc != null && doc.epochMs() != batch.epochMs()) {
            doc = null;
        }
        long lastEvent = doc == null ? Long.MIN_VALUE : doc.lastEventTimeMs();
        long maxIndex = doc == null ? -1 : doc.maxFrameIndex();
        Frame last = null;
        for (Frame f : batch.frames()) {
            long eventTime = batch.eventTimeMs(f);
            out.collect(new FrameDoc(batch.streamId(), batch.epochMs(), f.index(), f.ptsMs(), eventTime, batch.seq(), f.width(),
                    f.height(), f.jpeg().length, batch.sourceKind()));
            lastEvent = Math.max(lastEvent, eventTime);
            maxIndex = Math.max(maxIndex, f.index());
            last = f;
        }
        VideoDoc next = new VideoDoc(batch.streamId(), batch.sourceKind(), batch.sourceUri(), batch.source(),
                batch.epochMs(), doc == null ? batch.eventTimeMs() : doc.firstEventTimeMs(), lastEvent, last.ptsMs(),
                (doc == null ? 0 : doc.framesIndexed()) + batch.frames().size(),
                (doc == null ? 0 : doc.batches()) + 1, batch.seq(), maxIndex, last.width(), last.height(),
                batch.last() ? VideoDoc.ENDED : VideoDoc.LIVE);
        ctx.output(VIDEOS, next);
        Long timer = idleTimer.value();
        if (timer != null) {
            ctx.timerService().deleteEventTimeTimer(timer);
        }
        if (batch.last()) {
            // The source said it is finished: nothing more to wait for.
            stream.clear();
            idleTimer.clear();
            return;
        }
        stream.update(next);
        long at = lastEvent + idleTimeoutMs;
        ctx.timerService().registerEventTimeTimer(at);
        idleTimer.update(at);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<FrameDoc> out) throws Exception {
        VideoDoc doc = stream.value();
        if (doc != null) {
            ctx.output(VIDEOS, doc.withStatus(VideoDoc.IDLE));
        }
        stream.clear();
        idleTimer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(idleTimer, ctx.timerService());
        stream.clear();
    }
}
