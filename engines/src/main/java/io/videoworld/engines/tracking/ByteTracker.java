package io.videoworld.engines.tracking;

import io.videoworld.core.Boxes;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.LinearAssignment;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.engines.shots.FrameDistance;
import java.util.ArrayList;
import java.util.List;

/**
 * ByteTrack's association (Zhang et al., 2022) over one stream's sampled frames, plus
 * re-identification by appearance. Per sample: Kalman-predict tracked and lost tracks; match high
 * score detections to them by IoU fused with score; match low-score detections to the tracks
 * still unmatched (recovering occluded objects without birthing tracks from clutter); match the
 * rest to tracks born on the previous sample; birth tracks from remaining high-score detections;
 * let tracks unmatched for {@code lostSamples} go. Ours on top: a lost track survives as
 * "dormant" for {@code reidSamples} and a new high-score detection of the same category whose
 * colour histogram is close enough takes it over, and a shot cut (whole-frame histogram jump)
 * sends every track to lost without box matching, because positions across a cut mean nothing.
 * Boxes of different categories never match. Mutable and single-threaded; the Flink operator
 * restores one from {@link TrackerState} per sample and snapshots it back.
 */
public final class ByteTracker {
    static final String TRACKED = "tracked";
    static final String LOST = "lost";
    static final String DORMANT = "dormant";

    private final TrackerParams p;
    private final long epochMs;
    private long samples;
    private long nextTrack;
    private long lastPtsMs;
    private long lastEventTimeMs;
    private float[] lastHist;
    private int width;
    private int height;
    private final List<LiveTrack> tracks = new ArrayList<>();

    /** What one sample changed: the tracks to report now and those that ended. */
    public record Step(List<LiveTrack> online, List<LiveTrack> born, List<LiveTrack> ended, List<LiveTrack> reidentified) {}

    public ByteTracker(TrackerParams p, long epochMs) {
        this.p = p;
        this.epochMs = epochMs;
        this.nextTrack = 1;
    }

    public static ByteTracker restore(TrackerParams p, TrackerState s) {
        ByteTracker t = new ByteTracker(p, s.epochMs());
        t.samples = s.samples();
        t.nextTrack = s.nextTrack();
        t.lastPtsMs = s.lastPtsMs();
        t.lastEventTimeMs = s.lastEventTimeMs();
        t.lastHist = s.lastFrameHistogram();
        t.width = s.width();
        t.height = s.height();
        for (TrackerState.Track r : s.tracks()) {
            t.tracks.add(LiveTrack.of(r));
        }
        return t;
    }

    public TrackerState snapshot() {
        List<TrackerState.Track> out = new ArrayList<>(tracks.size());
        for (LiveTrack l : tracks) {
            out.add(l.state());
        }
        return new TrackerState(epochMs, samples, nextTrack, lastPtsMs, lastEventTimeMs, lastHist, width, height, out);
    }

    public long epochMs() {
        return epochMs;
    }

    public long samples() {
        return samples;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Every track still held, in birth order. */
    public List<LiveTrack> tracks() {
        return tracks;
    }

    public long lastPtsMs() {
        return lastPtsMs;
    }

    /** The {@code vw-tracks} document of a track as it stands. */
    public TrackDoc doc(String streamId, LiveTrack l, boolean alive) {
        return new TrackDoc(streamId, epochMs, l.number, l.category, width, height, l.first, l.last(), l.hits, l.scoreSum / l.hits, alive,
                l.reidentified, List.copyOf(l.timeline), l.appearance);
    }

    /**
     * A sample the detector skipped (dropped as stale): it counts as a sample, so lost tracks age by
     * the gap in time, and the tracks' boxes are predicted over it, but nothing is matched, born or
     * ended here (the next detected sample does that with the gap counted).
     */
    public void skip(DetectedFrame f) {
        samples++;
        lastPtsMs = f.ptsMs();
        lastEventTimeMs = f.eventTimeMs();
        for (LiveTrack l : tracks) {
            if (DORMANT.equals(l.status) || (TRACKED.equals(l.status) && !l.activated)) {
                continue;
            }
            if (!TRACKED.equals(l.status)) {
                l.mean[7] = 0;
            }
            BoxKalman.predict(l.mean, l.cov);
        }
    }

    /** Processes one sampled frame. */
    public Step update(DetectedFrame f) {
        samples++;
        width = f.width();
        height = f.height();
        boolean cut = lastHist != null && f.frameHistogram() != null
                && FrameDistance.histogram(lastHist, f.frameHistogram()) > p.cutDistance();
        lastHist = f.frameHistogram();
        lastPtsMs = f.ptsMs();
        lastEventTimeMs = f.eventTimeMs();

        List<Detection> high = new ArrayList<>();
        List<Detection> low = new ArrayList<>();
        for (Detection d : f.detections()) {
            if (d.score() > p.trackThresh()) {
                high.add(d);
            } else if (d.score() > p.lowThresh() && d.score() < p.trackThresh()) {
                low.add(d);
            }
        }
        List<LiveTrack> unconfirmed = new ArrayList<>();
        List<LiveTrack> pool = new ArrayList<>();
        for (LiveTrack l : tracks) {
            if (cut) {
                // Positions across a cut mean nothing: confirmed tracks wait for appearance matches.
                l.status = l.activated ? DORMANT : "removed";
            } else if (DORMANT.equals(l.status)) {
                continue;
            } else if (TRACKED.equals(l.status) && !l.activated) {
                unconfirmed.add(l);
            } else {
                pool.add(l);
            }
        }
        for (LiveTrack l : pool) {
            if (!TRACKED.equals(l.status)) {
                l.mean[7] = 0;
            }
            BoxKalman.predict(l.mean, l.cov);
        }
        List<LiveTrack> matchedTracks = new ArrayList<>();
        List<LiveTrack> born = new ArrayList<>();
        List<LiveTrack> reidentified = new ArrayList<>();

        // First association: high-score detections against tracked and lost tracks.
        int[] m1 = LinearAssignment.solve(AssociationCosts.iou(pool, high, true, p.appearanceGate()), p.matchThresh());
        List<LiveTrack> unmatchedPool = new ArrayList<>();
        boolean[] highUsed = new boolean[high.size()];
        for (int i = 0; i < pool.size(); i++) {
            if (m1[i] >= 0) {
                highUsed[m1[i]] = true;
                observe(pool.get(i), high.get(m1[i]), f, true, false);
                matchedTracks.add(pool.get(i));
            } else {
                unmatchedPool.add(pool.get(i));
            }
        }
        // Second association: low-score detections against tracks that were tracked until now.
        List<LiveTrack> stillTracked = new ArrayList<>();
        for (LiveTrack l : unmatchedPool) {
            if (TRACKED.equals(l.status)) {
                stillTracked.add(l);
            }
        }
        int[] m2 = LinearAssignment.solve(AssociationCosts.iou(stillTracked, low, false, 1), p.secondMatchThresh());
        for (int i = 0; i < stillTracked.size(); i++) {
            LiveTrack l = stillTracked.get(i);
            if (m2[i] >= 0) {
                observe(l, low.get(m2[i]), f, false, false);
                matchedTracks.add(l);
            } else {
                l.status = LOST;
            }
        }
        // Tracks born on the previous sample get the remaining high-score detections.
        List<Detection> rest = AssociationCosts.unused(high, highUsed);
        int[] m3 = LinearAssignment.solve(AssociationCosts.iou(unconfirmed, rest, true, p.appearanceGate()), p.unconfirmedMatchThresh());
        boolean[] restUsed = new boolean[rest.size()];
        for (int i = 0; i < unconfirmed.size(); i++) {
            LiveTrack l = unconfirmed.get(i);
            if (m3[i] >= 0) {
                restUsed[m3[i]] = true;
                observe(l, rest.get(m3[i]), f, true, false);
                l.activated = true;
                born.add(l);
            } else {
                l.status = "removed";
            }
        }
        // Ours: remaining high-score detections may be a lost or dormant object seen again.
        List<Detection> fresh = AssociationCosts.unused(rest, restUsed);
        if (p.reidSamples() > 0 && !fresh.isEmpty()) {
            List<LiveTrack> candidates = new ArrayList<>();
            for (LiveTrack l : tracks) {
                if ((LOST.equals(l.status) || DORMANT.equals(l.status)) && l.activated && l.lastSample < samples
                        && l.appearance != null && !matchedTracks.contains(l)) {
                    candidates.add(l);
                }
            }
            int[] m4 = LinearAssignment.solve(AssociationCosts.appearance(candidates, fresh), 1 - p.reidMinSimilarity());
            boolean[] freshUsed = new boolean[fresh.size()];
            for (int i = 0; i < candidates.size(); i++) {
                if (m4[i] >= 0) {
                    freshUsed[m4[i]] = true;
                    LiveTrack l = candidates.get(i);
                    Detection d = fresh.get(m4[i]);
                    l.reidentified++;
                    reidentified.add(l);
                    observe(l, d, f, true, true);
                    matchedTracks.add(l);
                }
            }
            fresh = AssociationCosts.unused(fresh, freshUsed);
        }
        // Births.
        for (Detection d : fresh) {
            if (d.score() < p.trackThresh() + 0.1) {
                continue;
            }
            LiveTrack l = new LiveTrack();
            l.number = nextTrack++;
            l.category = d.category();
            double[] z = BoxKalman.measure(d.x1(), d.y1(), d.x2(), d.y2());
            l.mean = BoxKalman.initiateMean(z);
            l.cov = BoxKalman.initiateCov(z);
            l.status = TRACKED;
            l.activated = samples == 1;
            l.timeline = new ArrayList<>();
            l.appearance = d.appearance();
            addPoint(l, d, f);
            l.lastSample = samples;
            l.hits = 1;
            l.scoreSum = d.score();
            tracks.add(l);
            if (l.activated) {
                born.add(l);
            }
        }
        // Ageing: lost -> dormant -> gone.
        List<LiveTrack> ended = new ArrayList<>();
        for (LiveTrack l : tracks) {
            long missed = samples - l.lastSample;
            if (LOST.equals(l.status) && missed > p.lostSamples()) {
                l.status = p.reidSamples() > p.lostSamples() ? DORMANT : "removed";
            }
            if (DORMANT.equals(l.status) && missed > Math.max(p.reidSamples(), p.lostSamples())) {
                l.status = "removed";
            }
            if ("removed".equals(l.status) && l.activated) {
                ended.add(l);
            }
        }
        tracks.removeIf(l -> "removed".equals(l.status));
        removeDuplicates();
        List<LiveTrack> online = new ArrayList<>();
        for (LiveTrack l : tracks) {
            if (TRACKED.equals(l.status) && l.activated) {
                online.add(l);
            }
        }
        return new Step(online, born, ended, reidentified);
    }

    /** Ends every track (the stream stopped); returns those that were ever confirmed. */
    public List<LiveTrack> finish() {
        List<LiveTrack> ended = new ArrayList<>();
        for (LiveTrack l : tracks) {
            if (l.activated) {
                ended.add(l);
            }
        }
        tracks.clear();
        return ended;
    }

    /** Matches a detection to a track; {@code restart} re-seeds the filter (appearance matches). */
    private void observe(LiveTrack l, Detection d, DetectedFrame f, boolean high, boolean restart) {
        double[] z = BoxKalman.measure(d.x1(), d.y1(), d.x2(), d.y2());
        if (restart) {
            l.mean = BoxKalman.initiateMean(z);
            l.cov = BoxKalman.initiateCov(z);
        } else {
            BoxKalman.update(l.mean, l.cov, z);
        }
        l.status = TRACKED;
        if (l.lastSample < samples) {
            l.activated = true;
        }
        l.lastSample = samples;
        l.hits++;
        l.scoreSum += d.score();
        if (high && d.appearance() != null) {
            l.appearance = l.appearance == null ? d.appearance() : AssociationCosts.blend(l.appearance, d.appearance());
        }
        addPoint(l, d, f);
    }

    private void addPoint(LiveTrack l, Detection d, DetectedFrame f) {
        l.add(new TrackPoint(f.frameIndex(), f.ptsMs(), d.x1(), d.y1(), d.x2(), d.y2(), d.score()), p.timelineCap());
    }

    /** ByteTrack drops the younger of a tracked and a lost track that sit on the same box. */
    private void removeDuplicates() {
        List<LiveTrack> tracked = new ArrayList<>();
        List<LiveTrack> lost = new ArrayList<>();
        for (LiveTrack l : tracks) {
            (TRACKED.equals(l.status) ? tracked : LOST.equals(l.status) ? lost : new ArrayList<LiveTrack>()).add(l);
        }
        List<LiveTrack> drop = new ArrayList<>();
        for (LiveTrack a : tracked) {
            for (LiveTrack b : lost) {
                if (a.activated && 1 - Boxes.iou(a.box(), b.box()) < 0.15) {
                    drop.add(a.hits >= b.hits ? b : a);
                }
            }
        }
        tracks.removeAll(drop);
    }
}
