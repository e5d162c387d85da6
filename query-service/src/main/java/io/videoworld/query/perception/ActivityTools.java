package io.videoworld.query.perception;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.connectors.esread.ActivityRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.Activities;
import io.videoworld.query.perception.PerceptionResponses.Activity;
import io.videoworld.query.perception.PerceptionResponses.Moment;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Seed 000 API-7 {@code recognize_activity} (seed 001 {@code recognize_actions}). People posed by
 * the ingest job's person operator answer from their activities in {@code vw-activities} (body
 * pose and hip motion: standing, sitting, lying, bending, walking, running, raising a hand), each
 * with its confidence and frames. Every other track in the range (no pose indexed for it) gets a
 * label from its category and speed (in body heights per second, see {@link TrackMotion#activity}),
 * with its share of the tracked time as confidence; {@code method} says which tracks had which.
 * {@code granularity} "atomic" lists each person's activity runs and each unposed track on its own;
 * "event" (the default) sums them per label.
 */
public final class ActivityTools {
    /** Frame numbers listed per activity, at most. */
    static final int MAX_FRAMES = 32;
    private final VideoRepository videos;
    private final ObjectRepository objects;
    private final ActivityRepository activities;

    public ActivityTools(VideoRepository videos, ObjectRepository objects, ActivityRepository activities) {
        this.videos = videos;
        this.objects = objects;
        this.activities = activities;
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
        boolean atomic = "atomic".equals(args.optionalChoice("granularity", Set.of("atomic", "event"), "event"));
        long from = Math.round(start * 1000);
        long to = Math.round(end * 1000);
        List<ActivityRepository.PoseActivity> posed = activities.overlapping(v.streamId(), v.epochMs(), from, to);
        Set<String> posedTracks = new TreeSet<>();
        posed.forEach(a -> posedTracks.add(a.trackId()));
        List<Activity> fromPose = atomic ? poseRuns(posed, from, to) : poseByLabel(posed, from, to);

        // Tracks with no pose: per label (or per track when atomic), tracked seconds, first and last time seen.
        Map<String, double[]> byLabel = new LinkedHashMap<>();
        Map<String, List<String>> subjects = new LinkedHashMap<>();
        double covered = 0;
        int unposed = 0;
        for (ObjectRepository.Track tr : objects.tracks(v.streamId(), v.epochMs(), from, to)) {
            if (posedTracks.contains(tr.id())) {
                continue;
            }
            List<ObjectRepository.Point> pts = tr.timeline().stream().filter(p -> p.ptsMs() >= from && p.ptsMs() <= to).toList();
            if (pts.size() < 2) {
                continue;
            }
            unposed++;
            String label = TrackMotion.activity(tr.category(), TrackMotion.heightsPerSecond(pts));
            double span = (pts.get(pts.size() - 1).ptsMs() - pts.get(0).ptsMs()) / 1000.0;
            double[] agg = byLabel.computeIfAbsent(atomic ? label + "\u0000" + tr.id() : label, k -> new double[] {0, Double.MAX_VALUE, 0});
            agg[0] += span;
            agg[1] = Math.min(agg[1], pts.get(0).ptsMs() / 1000.0);
            agg[2] = Math.max(agg[2], pts.get(pts.size() - 1).ptsMs() / 1000.0);
            subjects.computeIfAbsent(atomic ? label + "\u0000" + tr.id() : label, k -> new ArrayList<>()).add(tr.id());
            covered += span;
        }
        final double total = covered;
        List<Activity> fromSpeed = byLabel.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0]))
                .map(e -> new Activity(e.getKey().split("\u0000")[0], round(total > 0 ? e.getValue()[0] / total : 0, 4), e.getValue()[1],
                        e.getValue()[2], subjects.get(e.getKey()), null, SPEED))
                .toList();
        List<Activity> acts = new ArrayList<>(fromPose);
        acts.addAll(fromSpeed);
        acts = acts.stream().limit(topK).toList();
        List<Moment> analysed = new ArrayList<>();
        for (double s = start; s <= end + 1e-9 && analysed.size() < 8; s += Math.max(0.25, (end - start) / 7)) {
            analysed.add(new Moment(round(s, 4)));
        }
        return new Activities(acts, acts.isEmpty() ? null : acts.get(0).label(), analysed, method(posedTracks.size(), unposed, atomic),
                acts.isEmpty() ? "no object was tracked for two samples or more between " + start + " and " + end + " s" : null);
    }

    /** Where an activity came from: a person's body pose. */
    static final String POSE = "pose";
    /** Where an activity came from: a track's speed, for tracks with no pose. */
    static final String SPEED = "track_speed";

    private static String method(int posed, int unposed, boolean atomic) {
        String pose = "body pose and hip motion of " + posed + " tracked " + (posed == 1 ? "person" : "people") + " (vw-activities); "
                + (atomic ? "each activity run with its own confidence" : "confidence = share of posed samples times their mean confidence");
        String speed = "track motion and labels (speed in body heights per second) for " + unposed + " track" + (unposed == 1 ? "" : "s")
                + " with no pose indexed; confidence = share of their tracked time";
        if (posed > 0 && unposed > 0) {
            return pose + "; " + speed;
        }
        return posed > 0 ? pose : speed;
    }

    /** Each person's activity runs, most confident first, clipped to the range. */
    private static List<Activity> poseRuns(List<ActivityRepository.PoseActivity> posed, long from, long to) {
        return posed.stream().sorted(Comparator.comparingDouble(ActivityRepository.PoseActivity::confidence).reversed()
                        .thenComparing(ActivityRepository.PoseActivity::id))
                .map(a -> new Activity(phrase(a.label()), round(a.confidence(), 4), Math.max(a.fromMs(), from) / 1000.0,
                        Math.min(a.toMs(), to) / 1000.0, List.of(a.trackId()), frames(List.of(a)), POSE))
                .toList();
    }

    /** Per label over all posed people: the label's share of the posed samples times their mean confidence. */
    private static List<Activity> poseByLabel(List<ActivityRepository.PoseActivity> posed, long from, long to) {
        double samples = posed.stream().mapToInt(ActivityRepository.PoseActivity::samples).sum();
        Map<String, List<ActivityRepository.PoseActivity>> byLabel = new TreeMap<>();
        posed.forEach(a -> byLabel.computeIfAbsent(a.label(), k -> new ArrayList<>()).add(a));
        List<Activity> out = new ArrayList<>();
        byLabel.forEach((label, as) -> {
            double weighted = as.stream().mapToDouble(a -> a.samples() * a.confidence()).sum();
            List<String> who = as.stream().map(ActivityRepository.PoseActivity::trackId).distinct().sorted().toList();
            out.add(new Activity(phrase(label), round(samples > 0 ? weighted / samples : 0, 4),
                    Math.max(as.stream().mapToLong(ActivityRepository.PoseActivity::fromMs).min().orElse(from), from) / 1000.0,
                    Math.min(as.stream().mapToLong(ActivityRepository.PoseActivity::toMs).max().orElse(to), to) / 1000.0, who, frames(as), POSE));
        });
        out.sort(Comparator.comparingDouble(Activity::confidence).reversed().thenComparing(Activity::label));
        return out;
    }

    private static List<Long> frames(List<ActivityRepository.PoseActivity> as) {
        return as.stream().flatMap(a -> a.frames().stream()).distinct().sorted().limit(MAX_FRAMES).toList();
    }

    /** "person walking", "person raising a hand": worded as the speed rule words its labels. */
    static String phrase(String label) {
        return "person " + ("raising_hand".equals(label) ? "raising a hand" : label);
    }
}
