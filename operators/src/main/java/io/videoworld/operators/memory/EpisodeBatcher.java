package io.videoworld.operators.memory;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Detection;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Observation;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.TextLine;
import io.videoworld.core.TrackDoc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Cuts each stream into memory batches (keyed by stream) and says how each relates to the ones
 * before it ({@link EpisodePolicy}). A batch never crosses a shot boundary or a change of the
 * app named in the window title, and lasts at most {@code maxBatchMs} (20 s: 20 frames at
 * MIRIX's 1 fps); fixed-size batches alone would place every boundary up to 20 s off. Shots are taken in stream order once
 * closed and once every keyframe they list has its perception (inference is asynchronous and
 * finishes out of order), so a batch is decided on complete evidence and in order without
 * watching the clock. State: the pending shots, perceptions that came before their shot, recent
 * tracks and the last ten batch digests; a new push resets it and an event-time timer
 * {@code idleMs} after the latest observation settles what is pending and clears it.
 */
public final class EpisodeBatcher extends KeyedProcessFunction<String, Observation, EpisodeBatch> {
    static final int RECENT = 10;
    private static final int MAX_LINES = 40;
    private static final int MAX_ORPHANS = 500;
    private static final int MAX_TRACKS = 200;

    private final long maxBatchMs;
    private final long idleMs;
    private final boolean expectPerception;
    private transient ValueState<BatcherState> state;

    /**
     * @param expectPerception whether keyframes get perception (when it is off, shots are taken as
     *     soon as they close)
     */
    public EpisodeBatcher(long maxBatchMs, long idleMs, boolean expectPerception) {
        this.maxBatchMs = maxBatchMs;
        this.idleMs = idleMs;
        this.expectPerception = expectPerception;
    }

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("episode-batcher", TypeInformation.of(BatcherState.class)));
    }

    @Override
    public void processElement(Observation o, Context ctx, Collector<EpisodeBatch> out) throws Exception {
        BatcherState s = state.value();
        if (s != null && o.epochMs() < s.epochMs()) {
            return;
        }
        if (s != null && o.epochMs() > s.epochMs()) {
            s = drain(s, true, out);
            ctx.timerService().deleteEventTimeTimer(s.timerAt());
            s = null;
        }
        if (s == null) {
            s = new BatcherState(o.epochMs(), 0, List.of(), List.of(), List.of(), List.of(), Long.MIN_VALUE, -1);
        }
        List<BatcherState.PendingShot> pending = new ArrayList<>(s.pending());
        List<Perception> orphans = new ArrayList<>(s.orphans());
        List<TrackDoc> tracks = new ArrayList<>(s.tracks());
        long eventTime = s.lastEventTimeMs();
        if (o.shot() != null && Segment.SHOT.equals(o.shot().kind())) {
            Segment shot = o.shot();
            List<Perception> mine = new ArrayList<>();
            orphans.removeIf(p -> {
                boolean in = p.frameIndex() >= shot.startFrame() && p.frameIndex() < shot.endFrame();
                if (in) {
                    mine.add(p);
                }
                return in;
            });
            int at = pending.size();
            while (at > 0 && pending.get(at - 1).shot().startFrame() > shot.startFrame()) {
                at--;
            }
            pending.add(at, new BatcherState.PendingShot(shot, mine));
            eventTime = Math.max(eventTime, shot.endEventTimeMs());
        } else if (o.perception() != null) {
            Perception p = o.perception();
            boolean placed = false;
            for (int i = 0; i < pending.size() && !placed; i++) {
                Segment shot = pending.get(i).shot();
                if (p.frameIndex() >= shot.startFrame() && p.frameIndex() < shot.endFrame()) {
                    List<Perception> got = new ArrayList<>(pending.get(i).perceived());
                    got.add(p);
                    pending.set(i, new BatcherState.PendingShot(shot, got));
                    placed = true;
                }
            }
            if (!placed) {
                orphans.add(p);
                if (orphans.size() > MAX_ORPHANS) {
                    orphans.remove(0);
                }
            }
        } else if (o.track() != null) {
            tracks.removeIf(t -> t.trackNumber() == o.track().trackNumber());
            tracks.add(o.track());
            if (tracks.size() > MAX_TRACKS) {
                tracks.remove(0);
            }
        }
        s = new BatcherState(s.epochMs(), s.nextBatch(), pending, orphans, tracks, s.recent(), eventTime, s.timerAt());
        s = drain(s, false, out);
        if (s.lastEventTimeMs() != Long.MIN_VALUE && s.timerAt() != s.lastEventTimeMs() + idleMs) {
            if (s.timerAt() >= 0) {
                ctx.timerService().deleteEventTimeTimer(s.timerAt());
            }
            long at = s.lastEventTimeMs() + idleMs;
            ctx.timerService().registerEventTimeTimer(at);
            s = new BatcherState(s.epochMs(), s.nextBatch(), s.pending(), s.orphans(), s.tracks(), s.recent(), s.lastEventTimeMs(), at);
        }
        state.update(s);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<EpisodeBatch> out) throws Exception {
        BatcherState s = state.value();
        if (s != null) {
            drain(s, true, out);
        }
        state.clear();
    }

    /** Emits the batches of every complete shot at the head of the queue (all of them when forced). */
    private BatcherState drain(BatcherState s, boolean force, Collector<EpisodeBatch> out) {
        List<BatcherState.PendingShot> pending = new ArrayList<>(s.pending());
        List<EpisodeBatch.Digest> recent = new ArrayList<>(s.recent());
        long next = s.nextBatch();
        while (!pending.isEmpty() && (force || complete(pending.get(0)))) {
            BatcherState.PendingShot p = pending.remove(0);
            for (EpisodeBatch b : batches(p, next, recent, s.tracks())) {
                out.collect(b);
                recent.add(digest(b));
                if (recent.size() > RECENT) {
                    recent.remove(0);
                }
                next++;
            }
        }
        return new BatcherState(s.epochMs(), next, pending, s.orphans(), s.tracks(), recent, s.lastEventTimeMs(), s.timerAt());
    }

    private boolean complete(BatcherState.PendingShot p) {
        if (!expectPerception) {
            return true;
        }
        for (KeyframeRef k : p.shot().keyframes()) {
            if (p.perceived().stream().noneMatch(x -> x.frameIndex() == k.frameIndex())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A shot's batches: a new batch starts at the keyframe where the window title names another
     * app (screens whose pages look alike make one long "shot"), or once a batch has lasted
     * {@code maxBatchMs}.
     */
    private List<EpisodeBatch> batches(BatcherState.PendingShot p, long firstSeq, List<EpisodeBatch.Digest> recent, List<TrackDoc> tracks) {
        Segment shot = p.shot();
        boolean screen = shot.sourceKind() == io.videoworld.core.SourceKind.SCREEN;
        List<Perception> kfs = p.perceived().stream().sorted((a, b) -> Long.compare(a.ptsMs(), b.ptsMs())).toList();
        List<Long> starts = new ArrayList<>();
        starts.add(shot.startPtsMs());
        String pieceApp = null;
        for (Perception k : kfs) {
            long pieceStart = starts.get(starts.size() - 1);
            String app = screen ? EpisodePolicy.appOf(title(List.of(k))) : null;
            boolean switched = app != null && pieceApp != null && !app.equals(pieceApp);
            if (k.ptsMs() > pieceStart && (switched || k.ptsMs() - pieceStart >= maxBatchMs)) {
                starts.add(k.ptsMs());
                pieceApp = app;
            } else if (pieceApp == null) {
                pieceApp = app;
            }
        }
        List<EpisodeBatch> out = new ArrayList<>();
        List<EpisodeBatch.Digest> context = new ArrayList<>(recent);
        for (int i = 0; i < starts.size(); i++) {
            long from = starts.get(i);
            long to = i == starts.size() - 1 ? shot.endPtsMs() : starts.get(i + 1);
            List<Perception> in = kfs.stream().filter(x -> x.ptsMs() >= from && x.ptsMs() < Math.max(to, from + 1)).toList();
            String title = title(in);
            LinkedHashSet<String> lines = new LinkedHashSet<>();
            Map<String, Integer> labels = new LinkedHashMap<>();
            float[] mean = null;
            for (Perception x : in) {
                for (TextLine l : x.lines()) {
                    if (lines.size() < MAX_LINES && !l.text().isBlank()) {
                        lines.add(l.text().trim());
                    }
                }
                for (Detection d : x.objects()) {
                    if (d.score() >= 0.3) {
                        labels.merge(d.category(), 1, Integer::sum);
                    }
                }
                if (x.textEmbedding() != null) {
                    mean = mean == null ? new float[x.textEmbedding().length] : mean;
                    for (int k = 0; k < mean.length; k++) {
                        mean[k] += x.textEmbedding()[k];
                    }
                }
            }
            List<String> seen = new ArrayList<>();
            for (TrackDoc t : tracks) {
                if (t.first().ptsMs() < to && t.last().ptsMs() >= from) {
                    seen.add(t.category() + " t:" + String.format("%06d", t.trackNumber()));
                }
            }
            long seq = firstSeq + i;
            float[] embedding = unit(mean);
            String app = screen ? EpisodePolicy.appOf(title) : null;
            List<String> lineList = List.copyOf(lines);
            EpisodeBatch.Digest digest = new EpisodeBatch.Digest(seq, from, to, app, title,
                    String.join(" | ", lineList.subList(0, Math.min(6, lineList.size()))), embedding, shot.sceneId());
            EpisodePolicy.Relation r = EpisodePolicy.relate(digest, context, shot.sourceKind());
            List<String> sortedLabels = labels.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).map(Map.Entry::getKey).toList();
            out.add(new EpisodeBatch(shot.streamId(), shot.epochMs(), seq, shot.sourceKind(), from, to,
                    shot.startEventTimeMs() + (from - shot.startPtsMs()), shot.startEventTimeMs() + (to - shot.startPtsMs()),
                    (int) Math.max(1, (to - from + 999) / 1000), shot.id(), shot.sceneId(), app, title, lineList, sortedLabels,
                    seen, embedding, r.kind(), r.relatedBatch(), r.similarity(), List.copyOf(context), List.of(),
                    EpisodeBatch.AMBIGUOUS.equals(r.kind()) ? null : "rules"));
            context.add(digest);
            if (context.size() > RECENT) {
                context.remove(0);
            }
        }
        return out;
    }

    static EpisodeBatch.Digest digest(EpisodeBatch b) {
        return new EpisodeBatch.Digest(b.batchSeq(), b.startPtsMs(), b.endPtsMs(), b.app(), b.title(),
                String.join(" | ", b.lines().subList(0, Math.min(6, b.lines().size()))), b.embedding(), b.sceneId());
    }

    /** The window title: the topmost line read near the top edge of the first keyframe with text. */
    static String title(List<Perception> in) {
        for (Perception x : in) {
            TextLine top = null;
            for (TextLine l : x.lines()) {
                if (l.y() < Math.max(40, x.height() * 0.1) && (top == null || l.y() < top.y())) {
                    top = l;
                }
            }
            if (top != null) {
                return top.text().trim();
            }
            if (!x.lines().isEmpty()) {
                return x.lines().get(0).text().trim();
            }
        }
        return null;
    }

    private static float[] unit(float[] v) {
        if (v == null) {
            return null;
        }
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        if (n == 0) {
            return null;
        }
        float inv = (float) (1 / Math.sqrt(n));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * inv;
        }
        return out;
    }
}
