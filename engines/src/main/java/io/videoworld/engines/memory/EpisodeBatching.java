package io.videoworld.engines.memory;

import io.videoworld.core.Detection;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Observation;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.core.Vectors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The Flink-free engine of {@code EpisodeBatcher}: cuts a stream into memory batches and says how
 * each relates to the ones before it ({@link EpisodePolicy}). A batch never crosses a shot
 * boundary or a change of the app named in the window title, and lasts at most {@code maxBatchMs}.
 * Every method takes the stream's state and returns the next state with the batches it emits and
 * the event-time timers it wants ({@code idleTimerAt}, {@code openTimerAt}, -1 for none); the
 * operator only stores the state and sets the timers.
 */
public final class EpisodeBatching implements java.io.Serializable {
    /** Recent events a batch carries as context. */
    public static final int RECENT = 10;
    private static final int MAX_ORPHANS = 2000;
    private static final int MAX_TRACKS = 200;
    /** Stretches of speech held for a batch at most (hours of speech with no batch cut: the oldest go). */
    private static final int MAX_SAID = 500;

    /** The state after a step (null: the stream is finished and its state cleared) and the batches it emitted. */
    public record Step(BatcherState state, List<EpisodeBatch> batches) {}

    private final long maxBatchMs;
    private final long idleMs;
    private final long graceMs;
    private final boolean expectPerception;
    /** How often screens are read when nothing changes (the shots' periodic screen keyframes); 0: not known. */
    private final long screenEveryMs;
    /** Continuity of keyframe pairs already judged (the open shot is batched again at every timer); made on first use. */
    private transient ContinuityMemo continuity;

    /** Batching with {@code screenEveryMs} 0. */
    public EpisodeBatching(long maxBatchMs, long idleMs, long graceMs, boolean expectPerception) {
        this(maxBatchMs, idleMs, graceMs, expectPerception, 0);
    }

    /** Batching by the given bounds. */
    public EpisodeBatching(long maxBatchMs, long idleMs, long graceMs, boolean expectPerception, long screenEveryMs) {
        this.maxBatchMs = maxBatchMs;
        this.idleMs = idleMs;
        this.graceMs = graceMs;
        this.expectPerception = expectPerception;
        this.screenEveryMs = screenEveryMs;
    }

    static BatcherState fresh(long epochMs) {
        return new BatcherState(epochMs, null, 0, Long.MIN_VALUE, List.of(), List.of(), List.of(), List.of(), Long.MIN_VALUE, -1, -1, List.of(), null, List.of());
    }

    /** One observation of the stream whose state is {@code s} (null for a new stream); the caller has settled an older push. */
    public Step observe(BatcherState s, Observation o, long watermark) {
        List<EpisodeBatch> out = new ArrayList<>();
        s = s == null ? fresh(o.epochMs()) : s;
        List<BatcherState.PendingShot> pending = new ArrayList<>(s.pending());
        List<Perception> orphans = new ArrayList<>(s.orphans());
        List<TrackDoc> tracks = new ArrayList<>(s.tracks());
        long eventTime = s.lastEventTimeMs();
        SourceKind kind = s.sourceKind();
        if (o.video() != null) {
            kind = o.video().sourceKind();
            eventTime = Math.max(eventTime, o.video().lastEventTimeMs());
        } else if (o.shot() != null && Segment.SHOT.equals(o.shot().kind())) {
            Segment shot = o.shot();
            kind = shot.sourceKind();
            if (shot.endPtsMs() > s.emittedUntilPts()) {
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
            }
            eventTime = Math.max(eventTime, shot.endEventTimeMs());
        } else if (o.perception() != null && !timely(o.perception().role())) {
            // Middle and last keyframes are chosen when a shot closes, long after their frames: their
            // arrival depends on timing, so batches read only the first and periodic ones.
            return new Step(s, out);
        } else if (o.perception() != null) {
            Perception p = o.perception();
            boolean placed = p.ptsMs() < s.emittedUntilPts();
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
            eventTime = Math.max(eventTime, p.eventTimeMs());
        } else if (o.transcript() != null) {
            return heard(s, o.transcript(), watermark);
        } else if (o.track() != null) {
            tracks.removeIf(t -> t.trackNumber() == o.track().trackNumber());
            tracks.add(o.track());
            if (tracks.size() > MAX_TRACKS) {
                tracks.remove(0);
            }
        }
        s = new BatcherState(s.epochMs(), kind, s.nextBatch(), s.emittedUntilPts(), pending, orphans, tracks, s.recent(), eventTime,
                s.idleTimerAt(), s.openTimerAt(), s.tasks(), s.lastKeyframe(), s.views(), s.said());
        s = drain(s, false, watermark, out);
        return new Step(scheduled(s, watermark), out);
    }

    /** An event-time timer of the stream fired. */
    public Step timer(BatcherState s, long timestamp) {
        if (timestamp == s.idleTimerAt()) {
            return finish(s);
        }
        List<EpisodeBatch> out = new ArrayList<>();
        s = new BatcherState(s.epochMs(), s.sourceKind(), s.nextBatch(), s.emittedUntilPts(), s.pending(), s.orphans(), s.tracks(), s.recent(),
                s.lastEventTimeMs(), s.idleTimerAt(), -1, s.tasks(), s.lastKeyframe(), s.views(), s.said());
        s = drain(s, false, timestamp, out);
        return new Step(scheduled(s, timestamp), out);
    }

    /** Emits everything still held; the stream's state is to be cleared and its timers deleted. */
    public Step finish(BatcherState s) {
        List<EpisodeBatch> out = new ArrayList<>();
        s = drain(s, true, Long.MAX_VALUE, out);
        if (!s.said().isEmpty()) {
            // Speech no batch took (it came after the last one was cut, or ends after it): the stream's last batch.
            speech(s, s.said(), out);
        }
        return new Step(null, out);
    }

    /**
     * A stretch of speech. It waits for the batch that holds its end (a batch takes every stretch
     * that ends before it does); one that came after everything it spans was cut goes with the
     * next batch. Where nothing of the stream waits to be cut (no closed shot, no perception of
     * the open shot) such a late stretch is a batch of its own at once, continuing the latest
     * event; a stream with no frames at all (audio only) makes every stretch a batch as it comes.
     */
    private Step heard(BatcherState s, TranscriptDoc t, long watermark) {
        List<EpisodeBatch> out = new ArrayList<>();
        List<TranscriptDoc> said = new ArrayList<>(s.said());
        said.removeIf(x -> x.startMs() == t.startMs());
        int at = said.size();
        while (at > 0 && said.get(at - 1).endMs() > t.endMs()) {
            at--;
        }
        said.add(at, t);
        if (said.size() > MAX_SAID) {
            said.remove(0);
        }
        long eventTime = Math.max(s.lastEventTimeMs(), t.epochMs() + t.endMs());
        s = new BatcherState(s.epochMs(), s.sourceKind(), s.nextBatch(), s.emittedUntilPts(), s.pending(), s.orphans(), s.tracks(), s.recent(),
                eventTime, s.idleTimerAt(), s.openTimerAt(), s.tasks(), s.lastKeyframe(), s.views(), said);
        boolean waiting = !s.pending().isEmpty() || !s.orphans().isEmpty();
        if (!waiting && s.sourceKind() == null) {
            s = speech(s, said, out);
        } else if (!waiting) {
            long until = s.emittedUntilPts();
            List<TranscriptDoc> late = said.stream().filter(x -> x.endMs() <= until).toList();
            if (!late.isEmpty()) {
                s = speech(s, late, out);
            }
        }
        return new Step(scheduled(s, watermark), out);
    }

    /**
     * A batch of speech alone, {@code taken} from the state's pending stretches: on a stream with
     * frames it continues the latest event (and is not compared with later batches); on an audio-only
     * stream it is new after {@code maxBatchMs} of silence, else it continues.
     */
    private BatcherState speech(BatcherState s, List<TranscriptDoc> taken, List<EpisodeBatch> out) {
        long from = taken.stream().mapToLong(TranscriptDoc::startMs).min().getAsLong();
        long to = Math.max(from + 1, taken.stream().mapToLong(TranscriptDoc::endMs).max().getAsLong());
        long until = s.emittedUntilPts();
        boolean audioOnly = s.sourceKind() == null;
        List<EpisodeBatch.Digest> recent = new ArrayList<>(s.recent());
        String relation = !audioOnly ? EpisodeBatch.CONTINUE
                : until == Long.MIN_VALUE || from - until >= maxBatchMs ? EpisodeBatch.NEW : EpisodeBatch.CONTINUE;
        if (audioOnly && until != Long.MIN_VALUE) {
            from = Math.max(from, Math.min(until, to - 1));
        }
        EpisodeBatch b = EpisodeBatches.speech(taken.get(0).streamId(), s.epochMs(), s.sourceKind(), s.nextBatch(), from, to, relation, recent,
                taken.stream().map(EpisodeBatch.Utterance::of).toList());
        out.add(b);
        if (audioOnly) {
            recent.add(EpisodeBatches.digest(b));
            if (recent.size() > RECENT) {
                recent.remove(0);
            }
        }
        List<TranscriptDoc> left = new ArrayList<>(s.said());
        left.removeAll(taken);
        return new BatcherState(s.epochMs(), s.sourceKind(), s.nextBatch() + 1, Math.max(until, to), s.pending(), s.orphans(), s.tracks(), recent,
                s.lastEventTimeMs(), s.idleTimerAt(), s.openTimerAt(), s.tasks(), s.lastKeyframe(), s.views(), left);
    }

    /** The batch {@code b} with the pending stretches that end before it does, which leave {@code said}. */
    private static EpisodeBatch attach(EpisodeBatch b, List<TranscriptDoc> said) {
        List<EpisodeBatch.Utterance> mine = new ArrayList<>();
        said.removeIf(u -> {
            boolean in = u.endMs() < b.endPtsMs();
            if (in) {
                mine.add(EpisodeBatch.Utterance.of(u));
            }
            return in;
        });
        return mine.isEmpty() ? b : b.withSaid(mine);
    }

    /** The idle timer after the latest observation, and a timer for when the open shot's next batch can be cut. */
    BatcherState scheduled(BatcherState s, long watermark) {
        long idle = s.lastEventTimeMs() != Long.MIN_VALUE ? s.lastEventTimeMs() + idleMs : s.idleTimerAt();
        long wanted = -1;
        if (s.pending().isEmpty() && !s.orphans().isEmpty()) {
            long first = s.orphans().stream().mapToLong(Perception::eventTimeMs).min().getAsLong();
            long last = s.orphans().stream().mapToLong(Perception::eventTimeMs).max().getAsLong();
            wanted = Math.min(first + maxBatchMs, last) + graceMs;
            wanted = Math.max(wanted, watermark + 1);
        }
        return new BatcherState(s.epochMs(), s.sourceKind(), s.nextBatch(), s.emittedUntilPts(), s.pending(), s.orphans(), s.tracks(), s.recent(),
                s.lastEventTimeMs(), idle, wanted, s.tasks(), s.lastKeyframe(), s.views(), s.said());
    }

    /**
     * Emits the batches of every complete shot at the head of the queue, then, when no closed shot
     * waits, those of the open shot up to what the watermark guarantees (everything when forced).
     */
    private BatcherState drain(BatcherState s, boolean force, long watermark, List<EpisodeBatch> out) {
        List<BatcherState.PendingShot> pending = new ArrayList<>(s.pending());
        List<Perception> orphans = new ArrayList<>(s.orphans());
        List<EpisodeBatch.Digest> recent = new ArrayList<>(s.recent());
        List<EpisodeBatch.Digest> tasks = new ArrayList<>(s.tasks());
        long next = s.nextBatch();
        long until = s.emittedUntilPts();
        Perception[] last = {s.lastKeyframe()};
        List<BatcherState.View> views = new ArrayList<>(s.views());
        List<TranscriptDoc> said = new ArrayList<>(s.said());
        while (!pending.isEmpty() && (force || complete(pending.get(0), until))) {
            BatcherState.PendingShot p = pending.remove(0);
            Segment shot = p.shot();
            long from = Math.max(shot.startPtsMs(), until);
            List<Perception> kfs = p.perceived().stream().filter(x -> x.ptsMs() >= from).toList();
            long startEvent = shot.startEventTimeMs() + (from - shot.startPtsMs());
            for (EpisodeBatch b : batches(shot.streamId(), shot.epochMs(), shot.sourceKind(), shot.id(), shot.sceneId(), from, shot.endPtsMs(),
                    startEvent, kfs, next, recent, tasks, s.tracks(), true, last, views)) {
                next = emit(attach(b, said), out, recent, tasks);
            }
            until = Math.max(until, shot.endPtsMs());
            long cut = until;
            orphans.removeIf(x -> x.ptsMs() < cut);
        }
        if (pending.isEmpty() && !orphans.isEmpty() && s.sourceKind() != null) {
            long safe = force ? Long.MAX_VALUE : watermark == Long.MIN_VALUE ? Long.MIN_VALUE : watermark - graceMs;
            List<Perception> ready = orphans.stream().filter(x -> x.eventTimeMs() <= safe && x.ptsMs() >= s.emittedUntilPts())
                    .sorted((a, b) -> Long.compare(a.ptsMs(), b.ptsMs())).toList();
            if (!ready.isEmpty()) {
                Perception first = ready.get(0);
                long from = until == Long.MIN_VALUE ? first.ptsMs() : until;
                long end = force ? ready.get(ready.size() - 1).ptsMs() + 1 : Long.MIN_VALUE;
                long startEvent = first.eventTimeMs() - (first.ptsMs() - from);
                for (EpisodeBatch b : batches(first.streamId(), first.epochMs(), s.sourceKind(), null, null, from, end, startEvent, ready, next,
                        recent, tasks, s.tracks(), force, last, views)) {
                    next = emit(attach(b, said), out, recent, tasks);
                    until = Math.max(until, b.endPtsMs());
                }
                long cut = until;
                orphans.removeIf(x -> x.ptsMs() < cut);
            }
        }
        return new BatcherState(s.epochMs(), s.sourceKind(), next, until, pending, orphans, s.tracks(), recent, s.lastEventTimeMs(),
                s.idleTimerAt(), s.openTimerAt(), tasks, last[0], views, said);
    }

    /**
     * Where a window that changed between keyframes {@code before} and {@code k} changed. A change
     * that alters much of the picture is read at once (a keyframe at the change: {@code k} came
     * sooner than the period after {@code before}); one that alters little (a light window for
     * another light window) waits for the next periodic keyframe, so {@code k} one period after
     * {@code before} says only that it happened in between: halfway, off by at most half a period
     * rather than a whole one. Kept after {@code pieceStart} (a batch never starts before the one it follows).
     */
    private long changedAt(Perception before, Perception k, long pieceStart) {
        long gap = k.ptsMs() - before.ptsMs();
        if (screenEveryMs <= 0 || Math.abs(gap - screenEveryMs) >= 500) {
            return k.ptsMs();
        }
        long half = before.ptsMs() + gap / 2;
        return half > pieceStart ? half : k.ptsMs();
    }

    /** Whether a keyframe's perception read some text (one that read none is no evidence the window changed or stayed). */
    private static boolean read(Perception p) {
        return !p.isFailed() && !p.lines().isEmpty();
    }

    /** Keyframes emitted as their frame passes (first, periodic), not at the shot's close. */
    static boolean timely(String role) {
        return KeyframeRef.FIRST.equals(role) || KeyframeRef.PERIODIC.equals(role);
    }

    private static long emit(EpisodeBatch b, List<EpisodeBatch> out, List<EpisodeBatch.Digest> recent, List<EpisodeBatch.Digest> tasks) {
        out.add(b);
        recent.add(EpisodeBatches.digest(b));
        if (recent.size() > RECENT) {
            recent.remove(0);
        }
        EpisodePolicy.remember(tasks, EpisodeBatches.digest(b));
        return b.batchSeq() + 1;
    }

    private boolean complete(BatcherState.PendingShot p, long until) {
        if (!expectPerception) {
            return true;
        }
        for (KeyframeRef k : p.shot().keyframes()) {
            if (timely(k.role()) && k.ptsMs() >= until && p.perceived().stream().noneMatch(x -> x.frameIndex() == k.frameIndex())) {
                return false;
            }
        }
        return true;
    }

    private ContinuityMemo continuity() {
        if (continuity == null) {
            continuity = new ContinuityMemo();
        }
        return continuity;
    }

    /**
     * Batches over [from, to) from the keyframes in it: a new batch starts at the keyframe where
     * the window title names another app, or once a batch has lasted {@code maxBatchMs}. With
     * {@code closedEnd} false (the open shot), {@code to} is unknown and only batches already ended
     * by a switch or by the limit are returned; the rest waits for more evidence.
     */
    private List<EpisodeBatch> batches(String stream, long epoch, SourceKind kind, String shotId, String sceneId, long from, long to,
            long startEvent, List<Perception> kfsIn, long firstSeq, List<EpisodeBatch.Digest> recent, List<EpisodeBatch.Digest> tasksIn,
            List<TrackDoc> tracks, boolean closedEnd, Perception[] last, List<BatcherState.View> views) {
        boolean screen = kind == SourceKind.SCREEN;
        List<Perception> kfs = kfsIn.stream().sorted((a, b) -> Long.compare(a.ptsMs(), b.ptsMs())).toList();
        List<Long> starts = new ArrayList<>();
        // Screens: whether each piece's first keyframe continues the one before it (then the piece continues the activity).
        List<Boolean> continued = new ArrayList<>();
        starts.add(from);
        Perception before = screen ? last[0] : null;
        continued.add(screen && before != null && (kfs.isEmpty() || continuity().continues(before, kfs.get(0))));
        // Whether the current piece holds a keyframe yet: a piece that starts where a change was placed (before its
        // first keyframe, halfway from the one before) is that keyframe's, not a piece of its own.
        boolean held = false;
        for (Perception k : kfs) {
            long pieceStart = starts.get(starts.size() - 1);
            boolean switched = screen && before != null && !continuity().continues(before, k);
            if (k.ptsMs() > pieceStart && (held || !screen) && (switched || k.ptsMs() - pieceStart >= maxBatchMs)) {
                starts.add(switched ? changedAt(before, k, pieceStart) : k.ptsMs());
                continued.add(screen && !switched);
            }
            held = true;
            // A keyframe that read nothing (a frame caught mid-redraw) says nothing of the window: the next one is
            // compared with the last that showed something, else a window that came up after it would continue it.
            before = read(k) ? k : before;
        }
        int pieces = closedEnd ? starts.size() : starts.size() - 1;
        List<EpisodeBatch> out = new ArrayList<>();
        List<EpisodeBatch.Digest> context = new ArrayList<>(recent);
        List<EpisodeBatch.Digest> tasks = new ArrayList<>(tasksIn);
        for (int i = 0; i < pieces; i++) {
            long a = starts.get(i);
            long b = i == starts.size() - 1 ? to : starts.get(i + 1);
            List<Perception> in = kfs.stream().filter(x -> x.ptsMs() >= a && x.ptsMs() < Math.max(b, a + 1)).toList();
            EpisodeBatch batch = EpisodeBatches.batch(stream, epoch, kind, shotId, sceneId, a, b, startEvent + (a - from), startEvent + (b - from), in,
                    firstSeq + i, context, tasks, tracks, continued.get(i), views);
            Perception lastRead = in.stream().filter(EpisodeBatching::read).reduce((x, y) -> y).orElse(null);
            if (screen && lastRead != null) {
                last[0] = lastRead;
            }
            out.add(batch);
            context.add(EpisodeBatches.digest(batch));
            EpisodePolicy.remember(tasks, EpisodeBatches.digest(batch));
            if (context.size() > RECENT) {
                context.remove(0);
            }
            if (screen && !in.isEmpty()) {
                ScreenReturns.remember(views, batch, lastRead != null ? lastRead : in.get(in.size() - 1), in, context, tasks);
            }
        }
        return out;
    }
}
