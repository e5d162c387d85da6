package io.videoworld.operators.people;

import io.videoworld.core.ActivityDoc;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackFace;
import io.videoworld.core.TrackPoint;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.Face;
import io.videoworld.perception.FaceCrop;
import io.videoworld.perception.FaceDescriptors;
import io.videoworld.perception.FaceRecognizer;
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
import org.apache.flink.util.OutputTag;

/**
 * After the tracker, keyed by stream: the body pose of each tracked person at the samples its
 * track document names (at most one every {@code intervalMs} of presentation time per person),
 * and that person's activities from {@link PoseActivities}, each written as it grows. Sampled
 * JPEGs wait in keyed state for the track documents that name them, the newest {@code maxFrames}
 * only; the new samples of one track document are posed as one batch. A dead track
 * clears its person; the stream's state and timer are cleared an event-time {@code idleMs} after
 * its latest input.
 *
 * <p>With faces on, a face is looked for in the head square of the person's box at its posed
 * samples (at most {@link #FACE_SAMPLES_PER_DOCUMENT} per track document, until the track has
 * {@code facesPerTrack} faces), and the unit mean of the faces' descriptors goes out once per track on
 * {@link #FACES}: when it has that many faces, or when the track ends with fewer.
 */
public final class PersonActivities extends GuardedKeyedProcessFunction<String, PersonInput, ActivityDoc> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "person-activities";
    /** The detector's category of people. */
    public static final String PERSON = "person";
    /** Where the tracks' faces go out. */
    public static final OutputTag<TrackFace> FACES = new OutputTag<>("track-faces", TypeInformation.of(TrackFace.class));
    /** Samples of one track document looked at for faces, at most. */
    public static final int FACE_SAMPLES_PER_DOCUMENT = 2;
    /** A person box shorter than this (pixels) has too small a face to look for. */
    public static final double MIN_PERSON_PX = 64;
    /** A face smaller than this (pixels) is not described: its descriptor would say little. */
    public static final double MIN_FACE_PX = 20;

    private final String models;
    private final long idleMs;
    private final long intervalMs;
    private final int maxFrames;
    private final int facesPerTrack;
    private transient PoseEstimator poses;
    private transient FaceRecognizer faces;
    private transient MapState<Long, byte[]> frames;
    private transient MapState<Long, PersonState> people;
    private transient ValueState<Long> timer;

    /** Pose and activities only, no faces. */
    public PersonActivities(String models, long idleMs, long intervalMs, int maxFrames) {
        this(models, idleMs, intervalMs, maxFrames, 0);
    }

    /** Pose and activities and, when {@code facesPerTrack} is positive, up to that many faces per track. */
    public PersonActivities(String models, long idleMs, long intervalMs, int maxFrames, int facesPerTrack) {
        super(STAGE);
        this.models = models;
        this.idleMs = idleMs;
        this.intervalMs = intervalMs;
        this.maxFrames = Math.max(1, maxFrames);
        this.facesPerTrack = Math.max(0, facesPerTrack);
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        poses = PoseEstimator.load(Path.of(models));
        if (facesPerTrack > 0) {
            faces = FaceRecognizer.load(Path.of(models));
        }
        frames = getRuntimeContext().getMapState(new MapStateDescriptor<Long, byte[]>("person-frames", Types.LONG, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        people = getRuntimeContext().getMapState(new MapStateDescriptor<>("people", Types.LONG, TypeInformation.of(PersonState.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("people-timer", Types.LONG));
    }

    @Override
    public void close() throws Exception {
        if (poses != null) {
            poses.close();
        }
        if (faces != null) {
            faces.close();
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
        List<Integer> posed = new ArrayList<>();
        for (TrackPoint p : todo.values()) {
            Pose pose = found.get(i++);
            if (pose != null) {
                state = step(t, state, new PoseActivities.Sample(p.frameIndex(), p.ptsMs(), p.y2() - p.y1(), pose), out);
                posed.add(i - 1);
            }
        }
        if (faces != null && state != null) {
            state = faces(t, state, new ArrayList<>(todo.values()), images, posed, ctx);
        }
        if (!t.alive()) {
            people.remove(t.trackNumber());
        } else if (state != null) {
            people.put(t.trackNumber(), state);
        }
    }

    /**
     * Looks for the person's face at up to {@link #FACE_SAMPLES_PER_DOCUMENT} of the posed samples, adds
     * those found, and sends the track's face out once it has enough of them or the track ended.
     */
    private PersonState faces(TrackDoc t, PersonState state, List<TrackPoint> points, List<DecodedImage> images, List<Integer> posed, Context ctx) {
        PersonFaces pf = state.faces() == null ? PersonFaces.none() : state.faces();
        if (pf.sent()) {
            return state;
        }
        List<Integer> look = new ArrayList<>();
        for (int k : posed) {
            TrackPoint p = points.get(k);
            if (look.size() < Math.min(FACE_SAMPLES_PER_DOCUMENT, facesPerTrack - pf.count()) && p.y2() - p.y1() >= MIN_PERSON_PX) {
                look.add(k);
            }
        }
        List<DecodedImage> imgs = new ArrayList<>();
        List<FaceCrop> squares = new ArrayList<>();
        for (int k : look) {
            imgs.add(images.get(k));
            squares.add(headSquare(points.get(k)));
        }
        List<List<Face>> found = faces.detect(imgs, squares);
        List<DecodedImage> withFace = new ArrayList<>();
        List<Face> chosen = new ArrayList<>();
        List<TrackPoint> at = new ArrayList<>();
        for (int j = 0; j < look.size(); j++) {
            TrackPoint p = points.get(look.get(j));
            for (Face f : found.get(j)) {
                double cx = (f.x1() + f.x2()) / 2;
                if (cx > p.x1() && cx < p.x2() && f.size() >= MIN_FACE_PX) {
                    withFace.add(imgs.get(j));
                    chosen.add(f);
                    at.add(p);
                    break;
                }
            }
        }
        float[][] d = faces.describe(withFace, chosen);
        for (int j = 0; j < d.length; j++) {
            pf = pf.plus(d[j], at.get(j).frameIndex(), at.get(j).ptsMs());
        }
        if (pf.count() > 0 && (pf.count() >= facesPerTrack || !t.alive())) {
            ctx.output(FACES, new TrackFace(t.streamId(), t.epochMs(), t.trackNumber(), FaceDescriptors.unit(pf.sum()), pf.count(),
                    pf.fromMs(), pf.toMs(), pf.frames(), null));
            pf = pf.markSent();
        }
        return new PersonState(state.last(), state.main(), state.hand(), pf);
    }

    /** Where a person's face should be: a square at the top of the box, as wide as the box but at most 0.45 of its height. */
    static FaceCrop headSquare(TrackPoint p) {
        double w = p.x2() - p.x1();
        double h = p.y2() - p.y1();
        double side = Math.max(16, Math.min(w, 0.45 * h));
        return new FaceCrop((p.x1() + p.x2()) / 2, p.y1() - 0.05 * side + side / 2, side, 0);
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
        return new PersonState(s, main, hand, state == null ? null : state.faces());
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
