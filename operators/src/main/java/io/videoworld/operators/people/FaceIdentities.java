package io.videoworld.operators.people;

import io.videoworld.core.TrackFace;
import io.videoworld.engines.people.FaceLinks;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/**
 * Links tracks' faces, from every stream, to people with {@link FaceLinks}: keyed by one key
 * ({@link #KEY}) so that every stream's faces meet the same people. Each face goes out with its
 * person's id. The people are kept in keyed state and cleared when no face came for
 * {@code memoryMs} of event time; at most {@code maxPeople} are kept (the ones seen longest ago go first).
 */
public final class FaceIdentities extends GuardedKeyedProcessFunction<String, TrackFace, TrackFace> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "face-identities";
    /** The one key faces are keyed by. */
    public static final String KEY = "faces";

    private final double threshold;
    private final long memoryMs;
    private final int maxPeople;
    private transient ListState<FaceLinks.Person> people;
    private transient ValueState<Long> timer;

    public FaceIdentities(double threshold, long memoryMs, int maxPeople) {
        super(STAGE);
        this.threshold = threshold;
        this.memoryMs = memoryMs;
        this.maxPeople = Math.max(1, maxPeople);
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        people = getRuntimeContext().getListState(new ListStateDescriptor<>("face-people", TypeInformation.of(FaceLinks.Person.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("face-people-timer", Types.LONG));
    }

    @Override
    protected void process(TrackFace in, Context ctx, Collector<TrackFace> out) throws Exception {
        List<FaceLinks.Person> known = new ArrayList<>();
        for (FaceLinks.Person p : people.get()) {
            known.add(p);
        }
        FaceLinks links = new FaceLinks(threshold, known);
        String id = links.link(in.trackId(), in.descriptor());
        // the person just linked moves to the end: the ones seen longest ago lead the list and go first
        List<FaceLinks.Person> now = new ArrayList<>(links.people());
        FaceLinks.Person linked = now.stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
        now.remove(linked);
        now.add(linked);
        while (now.size() > maxPeople) {
            now.remove(0);
        }
        people.update(now);
        out.collect(in.withPerson(id));
        IdleTimer.rearm(timer, ctx.timerService(), ctx.timestamp() == null ? in.toMs() : ctx.timestamp(), memoryMs);
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<TrackFace> out) throws Exception {
        people.clear();
        timer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        people.clear();
    }
}
