package io.videoworld.query.perception;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.Activities;
import io.videoworld.query.perception.PerceptionResponses.Activity;
import io.videoworld.query.perception.PerceptionResponses.Moment;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000 API-7 {@code recognize_activity} (seed 001 {@code recognize_actions}) from the
 * tracker's tracks: each track in the range gets a label from its category and speed (in body
 * heights per second, see {@link TrackMotion#activity}); an activity's confidence is its share of
 * the tracked time. Not an action classifier, and the answer says so in {@code method}.
 */
public final class ActivityTools {
    private final VideoRepository videos;
    private final ObjectRepository objects;

    public ActivityTools(VideoRepository videos, ObjectRepository objects) {
        this.videos = videos;
        this.objects = objects;
    }

    /** Seed 000 API-7. */
    public Activities recognizeActivity(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double start = args.requiredNumber("start_time", 0, 1e9);
        double end = args.requiredNumber("end_time", 0, 1e9);
        if (end <= start) {
            throw ApiException.badField("end_time", "'end_time' must be after 'start_time'");
        }
        int topK = args.optionalInt("top_k", 1, 50).orElse(5);
        long from = Math.round(start * 1000);
        long to = Math.round(end * 1000);
        // Per label: tracked seconds, first and last time seen.
        Map<String, double[]> byLabel = new LinkedHashMap<>();
        Map<String, List<String>> subjects = new LinkedHashMap<>();
        double covered = 0;
        for (ObjectRepository.Track tr : objects.tracks(v.streamId(), v.epochMs(), from, to)) {
            List<ObjectRepository.Point> pts = tr.timeline().stream().filter(p -> p.ptsMs() >= from && p.ptsMs() <= to).toList();
            if (pts.size() < 2) {
                continue;
            }
            String label = TrackMotion.activity(tr.category(), TrackMotion.heightsPerSecond(pts));
            double span = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
            double[] agg = byLabel.computeIfAbsent(label, k -> new double[] {0, Double.MAX_VALUE, 0});
            agg[0] += span;
            agg[1] = Math.min(agg[1], pts.get(0).ptsMs() / 1000.0);
            agg[2] = Math.max(agg[2], pts.get(pts.size() - 1).ptsMs() / 1000.0);
            subjects.computeIfAbsent(label, k -> new ArrayList<>()).add(tr.id());
            covered += span;
        }
        final double total = covered;
        List<Activity> acts = byLabel.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0])).limit(topK)
                .map(e -> new Activity(e.getKey(), round(e.getValue()[0] / total, 4), e.getValue()[1], e.getValue()[2], subjects.get(e.getKey())))
                .toList();
        List<Moment> analysed = new ArrayList<>();
        for (double s = start; s <= end + 1e-9 && analysed.size() < 8; s += Math.max(0.25, (end - start) / 7)) {
            analysed.add(new Moment(round(s, 4)));
        }
        return new Activities(acts, acts.isEmpty() ? null : acts.get(0).label(), analysed,
                "track motion and labels (speed in body heights per second); confidence = share of tracked time",
                acts.isEmpty() ? "no object was tracked for two samples or more between " + start + " and " + end + " s" : null);
    }
}
