package io.videoworld.operators.memory;

import io.videoworld.engines.memory.EpisodeWriting;
import io.videoworld.engines.memory.WriterState;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Makes exactly one decision per batch against the stream's events (keyed by stream), MIRIX
 * style: {@code merge} a batch that continues the latest event into it (its summary is rebuilt
 * from the event's first lines and the new ones, so it keeps old and new; details are appended),
 * {@code insert} a new event when the activity changed (with a link when it returns to an earlier
 * one), and {@code replace} when an inserted event turns out to duplicate the one before it
 * (the old one is deleted and one consolidated event inserted). An event whose details would
 * pass 5000 characters is closed and continued by a new, linked one. {@code occurred_at} is the
 * start and merges keep it. Ids come from stream and event number and versions from the event's
 * revision, both reproduced exactly on replay from the checkpointed state, so writes are
 * idempotent and an older revision never overwrites a newer one. State: the ten latest events,
 * reset by a new push and cleared by an event-time timer {@code idleMs} after the latest batch.
 * The decisions are {@link EpisodeWriting}'s; this class stores the state, sets the timer and counts.
 */
public final class EpisodeWriter extends GuardedKeyedProcessFunction<String, EpisodeBatch, EpisodeDoc> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "episode-writer";
    static final int MAX_DETAILS = EpisodeWriting.MAX_DETAILS;

    private final EpisodeWriting engine;
    private transient ValueState<WriterState> state;
    private transient Counter inserts;
    private transient Counter merges;
    private transient Counter replaces;

    public EpisodeWriter(long idleMs) {
        super(STAGE);
        this.engine = new EpisodeWriting(idleMs);
    }

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("episode-writer", TypeInformation.of(WriterState.class)));
        inserts = getRuntimeContext().getMetricGroup().counter("vwEpisodeInserts");
        merges = getRuntimeContext().getMetricGroup().counter("vwEpisodeMerges");
        replaces = getRuntimeContext().getMetricGroup().counter("vwEpisodeReplaces");
    }

    @Override
    protected void process(EpisodeBatch b, Context ctx, Collector<EpisodeDoc> out) throws Exception {
        WriterState s = state.value();
        EpisodeWriting.Step step = engine.write(s, b);
        if (step == null) {
            return;
        }
        step.docs().forEach(out::collect);
        switch (step.decision()) {
            case "insert" -> inserts.inc();
            case "merge" -> merges.inc();
            case "replace" -> replaces.inc();
            default -> { }
        }
        long before = s == null ? -1 : s.timerAt();
        if (before != step.state().timerAt()) {
            if (before >= 0) {
                ctx.timerService().deleteEventTimeTimer(before);
            }
            ctx.timerService().registerEventTimeTimer(step.state().timerAt());
        }
        state.update(step.state());
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<EpisodeDoc> out) {
        state.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        WriterState s = state.value();
        if (s != null && s.timerAt() >= 0) {
            ctx.timerService().deleteEventTimeTimer(s.timerAt());
        }
        state.clear();
    }
}
