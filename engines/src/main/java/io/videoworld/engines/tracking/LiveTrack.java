package io.videoworld.engines.tracking;

import io.videoworld.core.TrackPoint;
import java.util.ArrayList;
import java.util.List;

/**
 * A mutable view of one track while {@link ByteTracker} processes a sample, converted from and
 * to the immutable {@link TrackerState.Track} kept in Flink state.
 */
public final class LiveTrack {
    long number;
    String category;
    double[] mean;
    double[] cov;
    String status;
    boolean activated;
    long lastSample;
    int hits;
    double scoreSum;
    int reidentified;
    float[] appearance;
    TrackPoint first;
    List<TrackPoint> timeline;

    public long number() {
        return number;
    }

    public String category() {
        return category;
    }

    public boolean activated() {
        return activated;
    }

    public String status() {
        return status;
    }

    public int hits() {
        return hits;
    }

    /** The latest observed point. */
    public TrackPoint last() {
        return timeline.get(timeline.size() - 1);
    }

    /** The Kalman box now, in pixels. */
    public double[] box() {
        return BoxKalman.box(mean);
    }

    static LiveTrack of(TrackerState.Track r) {
        LiveTrack l = new LiveTrack();
        l.number = r.number();
        l.category = r.category();
        l.mean = r.mean().clone();
        l.cov = r.cov().clone();
        l.status = r.status();
        l.activated = r.activated();
        l.lastSample = r.lastSample();
        l.hits = r.hits();
        l.scoreSum = r.scoreSum();
        l.reidentified = r.reidentified();
        l.appearance = r.appearance();
        l.first = r.first();
        l.timeline = new ArrayList<>(r.timeline());
        return l;
    }

    TrackerState.Track state() {
        return new TrackerState.Track(number, category, mean, cov, status, activated, lastSample, hits, scoreSum, reidentified, appearance,
                first, List.copyOf(timeline));
    }

    /** Appends an observed point; past {@code cap} points the timeline keeps every other one (and the newest). */
    void add(TrackPoint pt, int cap) {
        if (first == null) {
            first = pt;
        }
        timeline.add(pt);
        if (timeline.size() > cap) {
            List<TrackPoint> thinned = new ArrayList<>(cap / 2 + 1);
            for (int i = 0; i < timeline.size(); i += 2) {
                thinned.add(timeline.get(i));
            }
            TrackPoint last = timeline.get(timeline.size() - 1);
            if (thinned.get(thinned.size() - 1) != last) {
                thinned.add(last);
            }
            timeline = thinned;
        }
    }
}
