package io.videoworld.operators.inference;

import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.engines.perception.DetectorSettings;

import io.videoworld.engines.gates.LumaCache;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.gates.ScreenMemory;
import io.videoworld.engines.perception.GatedReader;
import io.videoworld.engines.perception.ReaderPool;
import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.sampling.QueuedKeyframe;
import io.videoworld.engines.sampling.StreamTurns;
import io.videoworld.core.Keyframe;
import io.videoworld.engines.privacy.KeyframePixels;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.Guarded;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.GreyFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Stream;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.SimpleTimerService;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Perception of keyframes keyed by stream, through the change gate ({@link ScreenGate}): each
 * keyframe is compared with its stream's last perceived one, kept as Flink keyed state
 * ({@link ScreenMemory}), so that after a restart the next keyframe is planned against the same
 * keyframe as in a failure-free run and reads the same. Reading ({@link GatedReader}) runs on
 * {@code workers} threads (0: the task thread), so frames, shots and samples flow past a keyframe
 * being OCR'd for seconds: a stream's keyframes are read strictly one after another, other streams'
 * meanwhile; results and every state change are applied on the task thread (its mailbox).
 * Keyframes not yet emitted are keyed list state, so a restored job reads them again (as Flink's
 * async operator does); beyond {@code capacity} of them the task thread waits. A watermark waits
 * until the keyframes before it are emitted, so the idle timers fire at the same point in each
 * stream as when read on the task thread. The memory is cleared by an event-time timer
 * {@code idleMs} after the stream's latest keyframe, and a keyframe that late or of a new push is
 * read whole whether or not the timer has fired, so replay and failure-free runs agree. A keyframe
 * that does not decode is a dead letter and a failed perception; one whose inference still fails
 * after two retries is a failed perception (the memory stays as it was). Metrics: {@link GatedMetrics}.
 *
 * <p>Load shedding, live streams only (the second input, the stream documents, says which: a source
 * with neither duration nor frame count): a keyframe that queued too long, or that comes while
 * perception of live streams has used its share of the subtask's time ({@link LiveShedding}), is
 * recorded as {@link Perception#SHED}, the last perceived lines and objects carried and the reason
 * given, decided when its turn comes; so the newest keyframes are read and the rest of the job keeps
 * its CPU. Turns are fair: a free reader goes to the stream read longest ago, and a stream not read
 * for a turn period has its newest keyframe read whatever the limits. With latest-wins a live keyframe
 * whose stream has a newer one queued is shed when its turn comes. A file is read whole however late.
 */
public final class GatedPerception extends AbstractStreamOperator<PerceptionResult>
        implements TwoInputStreamOperator<QueuedKeyframe, VideoDoc, PerceptionResult>, Triggerable<String, VoidNamespace>, Guarded {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "perception-gated";
    /** Streams whose last keyframe's luma stays decoded on the heap (about 1 MB each at 1280x800); the others decode it again. */
    static final int DECODED = 8;
    static final String PENDING = "screen-gate-pending";

    /** A keyframe not yet emitted, with its record's timestamp ({@link Long#MIN_VALUE}: none); keyed list state. */
    public record Pending(QueuedKeyframe keyframe, long timestamp) {}

    private final String models;
    private final DetectorSettings detection;
    private final ScreenGate.Settings settings;
    private final long idleMs;
    private final LiveShedding shedding;
    private final int workers;
    private final int capacity;
    private final int nice;
    private io.videoworld.engines.privacy.Redactor redactor = io.videoworld.engines.privacy.Redactor.NONE;
    private boolean storing;
    private transient MailboxExecutor mailbox;
    private transient ReaderPool pool;
    private transient StreamTurns<Pending> turns;
    private transient TimerService timers;
    private transient ValueState<ScreenMemory> memory;
    private transient ValueState<Long> timer;
    /** The push of this stream that is live, when it is: only its keyframes are shed. */
    private transient ValueState<Long> liveEpoch;
    private transient ListState<Pending> pending;
    private transient LumaCache decoded;
    private transient GatedMetrics metrics;
    private transient LiveShedding.Budget budget;
    /**
     * When the first reader had loaded its models (processing time; {@link Long#MAX_VALUE} while none has): a keyframe's wait
     * for perception counts from then at the earliest, so keyframes that queued while the models loaded are not shed as stale.
     */
    private transient long readySinceMs;
    /** Readers whose models have loaded (gauge vwPerceptionReadersLoaded: a bench waits for them before timing live lag). */
    private transient volatile int loaded;
    /** Why a reader cannot go on (its models did not load, or a read broke it), once one cannot; set on the task thread. */
    private transient IllegalStateException broken;

    /** {@code detection} null runs no detector on keyframes; {@code workers} 0 reads on the task thread. */
    public GatedPerception(String models, DetectorSettings detection, ScreenGate.Settings settings, long idleMs,
            LiveShedding shedding, int workers, int capacity) {
        this(models, detection, settings, idleMs, shedding, workers, capacity, 0);
    }

    /** As above; {@code nice} is added to the worker threads' nice value (Linux), 0 keeps their priority. */
    public GatedPerception(String models, DetectorSettings detection, ScreenGate.Settings settings, long idleMs,
            LiveShedding shedding, int workers, int capacity, int nice) {
        if (workers < 0 || capacity < 1) {
            throw new IllegalArgumentException("workers must be >= 0 and capacity >= 1, not " + workers + " and " + capacity);
        }
        this.models = models;
        this.detection = detection;
        this.settings = settings;
        this.idleMs = idleMs;
        this.shedding = shedding;
        this.workers = workers;
        this.capacity = capacity;
        this.nice = nice;
    }

    /** Redacts what the readers read with {@code r} before it is indexed or kept in state; set before the job starts. */
    public GatedPerception redacting(io.videoworld.engines.privacy.Redactor r) {
        this.redactor = r == null ? io.videoworld.engines.privacy.Redactor.NONE : r;
        return this;
    }

    /**
     * With {@code on}, each result carries the keyframe for the frame store, its redacted lines blacked out
     * ({@link KeyframePixels}, on the reader's thread; a shed keyframe by the lines it carries); a keyframe whose
     * reading failed carries none. Set before the job starts.
     */
    public GatedPerception storingKeyframes(boolean on) {
        this.storing = on;
        return this;
    }

    @Override
    public void setMailboxExecutor(MailboxExecutor mailboxExecutor) {
        super.setMailboxExecutor(mailboxExecutor);
        this.mailbox = mailboxExecutor;
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (mailbox == null) {
            mailbox = getContainingTask().getMailboxExecutorFactory().createExecutor(getOperatorConfig().getChainIndex());
        }
        memory = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate", TypeInformation.of(ScreenMemory.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate-timer", Types.LONG));
        liveEpoch = getRuntimeContext().getState(new ValueStateDescriptor<>("screen-gate-live", Types.LONG));
        pending = getRuntimeContext().getListState(new ListStateDescriptor<>(PENDING, TypeInformation.of(Pending.class)));
        // The name keyed process operators use, so checkpoints taken when this was one restore their timers.
        timers = new SimpleTimerService(getInternalTimerService("user-timers", VoidNamespaceSerializer.INSTANCE, this));
        readySinceMs = workers == 0 ? getProcessingTimeService().getCurrentProcessingTime() : Long.MAX_VALUE;
        loaded = workers == 0 ? 1 : 0;
        getRuntimeContext().getMetricGroup().gauge("vwPerceptionReadersLoaded", () -> loaded);
        // Models load on the workers while this task already runs: keyframes queue (checkpointed) until a reader is ready.
        pool = new ReaderPool(workers, models, detection, settings, redactor,
                "gated perception " + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), nice, (w, error) -> submit(() -> {
                    if (error != null) {
                        broken = new IllegalStateException("gated perception could not load its models from " + models, error);
                        throw broken;
                    }
                    if (readySinceMs == Long.MAX_VALUE) {
                        readySinceMs = getProcessingTimeService().getCurrentProcessingTime();
                    }
                    loaded++;
                    pool.ready(w);
                    pump();
                }));
        turns = new StreamTurns<>();
        decoded = new LumaCache(DECODED);
        metrics = new GatedMetrics(getRuntimeContext().getMetricGroup(), () -> turns.size(), pool::linesRemembered, pool::linesRecognised);
        budget = new LiveShedding.Budget(shedding);
        // Keyframes a checkpoint caught before they were emitted are read again, each stream's in order.
        List<String> keys;
        try (Stream<String> s = this.<String>getKeyedStateBackend().getKeys(PENDING, VoidNamespace.INSTANCE)) {
            keys = s.toList();
        }
        for (String key : keys) {
            setCurrentKey(key);
            for (Pending p : pending.get()) {
                turns.add(key, p);
            }
        }
        LOG.info("change-gated perception on {} worker thread(s) (0: the task thread) {} nicer, {} keyframes restored, models from {}",
                workers, nice, turns.size(), models);
        pump();
    }

    @Override
    public String stage() {
        return STAGE;
    }

    /** A keyframe that makes this operator throw leaves as a dead letter on the main output, which {@code SplitDeadLetters} splits off. */
    @Override
    public void processElement1(StreamRecord<QueuedKeyframe> r) throws Exception {
        try {
            accept(r);
        } catch (Exception | StackOverflowError e) {
            deadLetter(r, e);
        }
    }

    /** A stream document that makes this operator throw is dead-lettered the same way. */
    @Override
    public void processElement2(StreamRecord<VideoDoc> r) throws Exception {
        try {
            acceptStream(r);
        } catch (Exception | StackOverflowError e) {
            deadLetter(r, e);
        }
    }

    private void deadLetter(StreamRecord<?> r, Throwable e) {
        output.collect(new StreamRecord<>(new PerceptionResult(null, DeadLetters.of(STAGE, r.getValue(), e, r.hasTimestamp() ? r.getTimestamp() : 0))));
    }

    private void accept(StreamRecord<QueuedKeyframe> r) throws Exception {
        while (turns.size() >= capacity) {
            mailbox.yield();
        }
        String key = r.getValue().streamId();
        setCurrentKey(key);
        Pending p = new Pending(r.getValue(), r.hasTimestamp() ? r.getTimestamp() : Long.MIN_VALUE);
        pending.add(p);
        turns.add(key, p);
        budget.seen(key, getProcessingTimeService().getCurrentProcessingTime());
        pump();
    }

    /** A stream document: whether the stream's push is live (neither duration nor frame count), which is what may be shed. */
    private void acceptStream(StreamRecord<VideoDoc> r) throws Exception {
        VideoDoc d = r.getValue();
        boolean live = SourceInfo.isLive(d.source()) && !VideoDoc.ENDED.equals(d.status());
        Long known = liveEpoch.value();
        if (live && (known == null || known != d.epochMs())) {
            liveEpoch.update(d.epochMs());
            Long at = timer.value();
            if (at == null || at < d.lastEventTimeMs() + idleMs) {
                IdleTimer.rearm(timer, timers, d.lastEventTimeMs(), idleMs);
            }
        } else if (!live && known != null && known == d.epochMs()) {
            liveEpoch.clear();
        }
    }

    /** Held while keyframes that came before it are not emitted, so timers fire after them, as on the task thread. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (!turns.hold(mark)) {
            super.processWatermark(mark);
        }
    }

    /** Held too: an idle status passed ahead of a held watermark would make the operators after this drop that watermark. */
    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int input) throws Exception {
        if (!turns.hold(new HeldStatus(status, input))) {
            super.processWatermarkStatus(status, input);
        }
    }

    private record HeldStatus(WatermarkStatus status, int input) {}

    /** Sheds or starts every keyframe whose turn it is (its stream's previous one emitted, no held watermark before it). */
    private void pump() throws Exception {
        while (true) {
            Object mark = turns.releasable();
            if (mark instanceof Watermark w) {
                super.processWatermark(w);
                continue;
            } else if (mark instanceof HeldStatus h) {
                super.processWatermarkStatus(h.status(), h.input());
                continue;
            }
            // Stale or over-budget keyframes are shed first (that needs no reader); of the rest, the stream read longest ago
            // gets a free reader, so a stream whose keyframes keep arriving behind another's is not always last.
            StreamTurns.Turn<Pending> next = null;
            long nextTurn = Long.MAX_VALUE;
            boolean shedOne = false;
            for (StreamTurns.Turn<Pending> t : turns.due()) {
                setCurrentKey(t.key);
                String why = shedFor(t);
                if (why != null) {
                    shed(t, why);
                    shedOne = true;
                    break;
                }
                long at = budget.lastTurn(t.key);
                if (pool.hasFree() && (next == null || at < nextTurn)) {
                    next = t;
                    nextTurn = at;
                }
            }
            if (shedOne) {
                continue;
            }
            if (next == null) {
                return;
            }
            setCurrentKey(next.key);
            start(next);
        }
    }

    private boolean live(Keyframe k) throws Exception {
        Long epoch = liveEpoch.value();
        return epoch != null && epoch == k.epochMs();
    }

    private String shedFor(StreamTurns.Turn<Pending> t) throws Exception {
        QueuedKeyframe q = t.item.keyframe();
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long queued = now - Math.max(q.emittedMs(), readySinceMs);
        return live(q.keyframe()) ? budget.shed(t.key, queued, now, memory.value() == null, turns.newest(t)) : null;
    }

    /** Reads the entry's keyframe on a worker (or here with no workers); the result is applied on the task thread. */
    private void start(StreamTurns.Turn<Pending> e) throws Exception {
        e.started = true;
        budget.turn(e.key, getProcessingTimeService().getCurrentProcessingTime());
        int w = pool.take();
        Keyframe k = e.item.keyframe().keyframe();
        ScreenMemory prev = memory.value();
        boolean usable = usable(prev, k);
        GreyFrame grey = usable ? decoded.get(e.key, prev) : null;
        boolean live = live(k);
        GatedReader reader = pool.reader(w);
        if (!pool.threaded()) {
            GatedReader.Outcome o = reader.read(k, usable ? prev : null, grey, live);
            complete(e, w, o, live, stored(k, o.result()));
            return;
        }
        pool.execute(w, () -> {
            GatedReader.Outcome o;
            Keyframe toStore;
            try {
                o = reader.read(k, usable ? prev : null, grey, live);
                toStore = stored(k, o.result());
            } catch (InterruptedException closing) {
                return;
            } catch (Throwable t) {
                // Not a failed read (those are outcomes) but a broken worker: fail the task, which restores and reads it again.
                submit(() -> {
                    broken = new IllegalStateException("gated perception of " + e.key + " frame " + k.frameIndex() + " broke", t);
                    throw broken;
                });
                return;
            }
            submit(() -> {
                complete(e, w, o, live, toStore);
                pump();
            });
        });
    }

    private void submit(org.apache.flink.util.function.ThrowingRunnable<? extends Exception> action) {
        try {
            mailbox.execute(action, "gated perception result");
        } catch (RejectedExecutionException closed) {
            // The task is going away; what was not emitted is in the checkpoint and is read again on restore.
        }
    }

    /** On the task thread: applies a read to the stream's state and emits it. */
    private void complete(StreamTurns.Turn<Pending> e, int w, GatedReader.Outcome o, boolean live, Keyframe toStore) throws Exception {
        pool.release(w);
        setCurrentKey(e.key);
        Keyframe k = e.item.keyframe().keyframe();
        if (o.kept() == null) {
            metrics.failed();
        } else {
            memory.update(o.kept());
            decoded.put(e.key, k.epochMs(), k.frameIndex(), o.grey());
            IdleTimer.rearm(timer, timers, k.eventTimeMs(), idleMs);
            metrics.read(o);
            if (live) {
                budget.spent(o.ms());
            }
        }
        emit(e, toStore == null ? o.result() : o.result().storing(toStore));
    }

    /** The keyframe the frame store is to keep after this result, when this operator stores keyframes. */
    private Keyframe stored(Keyframe k, PerceptionResult r) {
        return storing ? KeyframePixels.toStore(k, r.value()) : null;
    }

    /** Records a live keyframe as not perceived, carrying the stream's last perceived lines and objects; decodes nothing. */
    private void shed(StreamTurns.Turn<Pending> e, String why) throws Exception {
        Keyframe k = e.item.keyframe().keyframe();
        ScreenMemory prev = memory.value();
        boolean usable = usable(prev, k);
        metrics.shed();
        if (usable) {
            IdleTimer.rearm(timer, timers, Math.max(k.eventTimeMs(), prev.eventTimeMs()), idleMs);
        }
        PerceptionResult carried = LiveShedding.carried(k, usable ? prev : null, pool.device(), why);
        Keyframe toStore = stored(k, carried);
        emit(e, toStore == null ? carried : carried.storing(toStore));
    }

    /** Whether the stream's memory is the one {@code k} is planned against: the same push, and not idle since. */
    private boolean usable(ScreenMemory prev, Keyframe k) {
        return prev != null && prev.epochMs() == k.epochMs() && k.eventTimeMs() - prev.eventTimeMs() < idleMs;
    }

    /** Emits the entry's result and forgets the entry, in the queue and in the stream's pending keyframes (current key: its stream). */
    private void emit(StreamTurns.Turn<Pending> e, PerceptionResult result) throws Exception {
        output.collect(e.item.timestamp() == Long.MIN_VALUE ? new StreamRecord<>(result) : new StreamRecord<>(result, e.item.timestamp()));
        List<Pending> rest = new ArrayList<>();
        pending.get().forEach(rest::add);
        rest.remove(0);
        if (rest.isEmpty()) {
            pending.clear();
        } else {
            pending.update(rest);
        }
        turns.done(e);
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> t) throws Exception {
        memory.clear();
        timer.clear();
        liveEpoch.clear();
        decoded.remove(t.getKey());
        budget.forget(t.getKey());
    }

    /** Whether a reader has loaded its models (keyframes queue until then). */
    boolean ready() {
        return readySinceMs != Long.MAX_VALUE;
    }

    /** Streams whose turns this subtask remembers (forgotten when they go idle). */
    int streamsRemembered() {
        return budget.streams();
    }

    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> t) {}

    /** At the end of input every keyframe is read before the operator finishes. */
    @Override
    public void finish() throws Exception {
        while (turns.size() > 0) {
            if (broken != null) {
                // No reader will take what is queued: fail rather than wait for ever (a restore reads it again).
                throw broken;
            }
            mailbox.yield();
        }
        super.finish();
    }

    @Override
    public void close() throws Exception {
        if (pool != null) {
            pool.close();
        }
        super.close();
    }
}
