package io.videoworld.operators.people;

import io.videoworld.core.ActivityDoc;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.Pose;
import io.videoworld.engines.people.PoseActivities;
import io.videoworld.perception.PoseEstimator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/**
 * After the tracker, keyed by stream: the body pose of each tracked person at the samples its
 * track document names (at most one every {@code intervalMs} of presentation time per person),
 * and that person's activities from {@link PoseActivities}, each written as it grows. Sampled
 * JPEGs wait in keyed state for the track documents that name them, the newest {@code maxFrames}
 * only; the new samples of one track document are posed as one batch. A dead track
 * clears its person; the stream's state and timer are cleared an event-time {@code idleMs} after
 * its latest input.
 */
public final class PersonActivities extends GuardedKeyedProcessFunction<String, PersonInput, ActivityDoc> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "person-activities";
    /** The detector's category of people. */
    public static final String PERSON = "person";

    private final String models;
    private final long idleMs;
    private final long intervalMs;
    private final int maxFrames;
    private transient PoseEstimator poses;
    private transient MapState<Long, byte[]> frames;
    private transient MapState<Long, PersonState> people;
    private transient ValueState<Long> timer;

    public PersonActivities(String models, long idleMs, long intervalMs, int maxFrames) {
        super(STAGE);
        this.models = models;
        this.idleMs = idleMs;
        this.intervalMs = intervalMs;
        this.maxFrames = Math.max(1, maxFrames);
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        poses = PoseEstimator.load(Path.of(models));
        frames = getRuntimeContext().getMapState(new MapStateDescriptor<Long, byte[]>("person-frames", Types.LONG, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        people = getRuntimeContext().getMapState(new MapStateDescriptor<>("people", Types.LONG, TypeInformation.of(PersonState.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("people-timer", Types.LONG));
    }

    @Override
    public void close() throws Exception {
        if (poses != null) {
            poses.close();
        }
        super.close();
    }

    @Override
    protected void process(PersonInput in, Context ctx, Collector<ActivityDoc> out) throws Exception {
        if (in.frame() != null) {
            if (in.frame().jpeg() != null) {
                frames.put(in.frame().frameIndex(), in.frame().jpeg());
                evictBeyond(maxFrames);
            }
            IdleTimer.rearm(timer, ctx.timerService(), in.frame().eventTimeMs(), idleMs);
            return;
        }
        TrackDoc t = in.track();
        if (!PERSON.equals(t.category())) {
            return;
        }
        PersonState state = people.get(t.trackNumber());
        long after = state == null ? Long.MIN_VALUE : state.last().ptsMs();
        long lastFrame = state == null ? -1 : state.last().frameIndex();
        // The samples to pose: newer than the person's latest pose, spaced by the interval, JPEG still held; by frame,
        // posed as one batch.
        TreeMap<Long, TrackPoint> todo = new TreeMap<>();
        for (TrackPoint p : t.timeline()) {
            if (p.frameIndex() > lastFrame && p.ptsMs() >= after + intervalMs && frames.contains(p.frameIndex())) {
                todo.put(p.frameIndex(), p);
                after = p.ptsMs();
            }
        }
        List<DecodedImage> images = new ArrayList<>(todo.size());
        List<double[]> boxes = new ArrayList<>(todo.size());
        for (TrackPoint p : todo.values()) {
            images.add(DecodedImage.decode(frames.get(p.frameIndex())));
            boxes.add(new double[] {p.x1(), p.y1(), p.x2(), p.y2()});
        }
        List<Pose> found = todo.isEmpty() ? List.of() : poses.estimate(images, boxes);
        int i = 0;
        for (TrackPoint p : todo.values()) {
            Pose pose = found.get(i++);
            if (pose != null) {
                state = step(t, state, new PoseActivities.Sample(p.frameIndex(), p.ptsMs(), p.y2() - p.y1(), pose), out);
            }
        }
        if (!t.alive()) {
            people.remove(t.trackNumber());
        } else if (state != null) {
            people.put(t.trackNumber(), state);
        }
    }

    /** Judges one sample, grows or starts its activities and writes those that changed. */
    private static PersonState step(TrackDoc t, PersonState state, PoseActivities.Sample s, Collector<ActivityDoc> out) {
        PoseActivities.Judged[] j = PoseActivities.judge(state == null ? null : state.last(), s);
        PoseActivities.Run main = PoseActivities.advance(state == null ? null : state.main(), j[0], s);
        PoseActivities.Run hand = PoseActivities.advance(state == null ? null : state.hand(), j[1], s);
        for (PoseActivities.Run r : new PoseActivities.Run[] {main, hand}) {
            if (r != null) {
                out.collect(new ActivityDoc(t.streamId(), t.epochMs(), t.trackNumber(), r.label(), r.confidenceSum() / r.count(), r.fromMs(),
                        r.toMs(), r.count(), r.frames()));
            }
        }
        return new PersonState(s, main, hand);
    }

    private void evictBeyond(int keep) throws Exception {
        List<Long> keys = new ArrayList<>();
        for (Iterator<Long> it = frames.keys().iterator(); it.hasNext();) {
            keys.add(it.next());
        }
        if (keys.size() <= keep) {
            return;
        }
        keys.sort(null);
        for (int i = 0; i < keys.size() - keep; i++) {
            frames.remove(keys.get(i));
        }
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<ActivityDoc> out) throws Exception {
        clear();
        timer.clear();
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        IdleTimer.cancel(timer, ctx.timerService());
        clear();
    }

    private void clear() {
        frames.clear();
        people.clear();
    }
}
