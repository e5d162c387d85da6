package io.videoworld.engines.people;

import io.videoworld.perception.Pose;

import java.util.ArrayList;
import java.util.List;

/**
 * Activities of one tracked person from the poses at its samples and how its hips move between
 * them: a posture per sample (standing, sitting, lying, bending) from the torso's and thighs'
 * angles, walking or running where an upright person's hips move at least {@link #WALK} or
 * {@link #RUN} of its height per second, and raising a hand where a wrist is above its shoulder.
 * Consecutive samples with the same label make one activity, with the mean of its samples'
 * confidences and the frames it rests on. A sample whose torso was not seen has no posture.
 */
public final class PoseActivities {
    /** Keypoints below this confidence are not used. */
    public static final double MIN_KEYPOINT = 0.3;
    /** Hip speed, in person heights per second, from which an upright person walks. */
    public static final double WALK = 0.15;
    /** Hip speed, in person heights per second, from which an upright person runs. */
    public static final double RUN = 1.5;

    /** Labels this class gives. */
    public static final List<String> LABELS = List.of("standing", "sitting", "lying", "bending", "walking", "running", "raising_hand");

    private PoseActivities() {}

    /**
     * One person at one sample.
     *
     * @param frameIndex producer frame number
     * @param ptsMs presentation time
     * @param boxHeight the person box's height in pixels (the scale of its motion)
     * @param pose its keypoints
     */
    public record Sample(long frameIndex, long ptsMs, double boxHeight, Pose pose) {}

    /**
     * One activity over consecutive samples.
     *
     * @param label one of {@link #LABELS}
     * @param confidence 0-1
     * @param fromMs first sample's time
     * @param toMs last sample's time
     * @param frames the samples' frame numbers
     */
    public record Activity(String label, double confidence, long fromMs, long toMs, List<Long> frames) {}

    /** A label of one sample with its confidence. */
    public record Judged(String label, double confidence) {}

    /**
     * An activity still growing: its first sample, its latest, up to {@link #KEPT_FRAMES} of its
     * frame numbers (the first ones) and the sum of its samples' confidences.
     *
     * @param label one of {@link #LABELS}
     * @param fromMs first sample's time
     * @param toMs latest sample's time
     * @param frames frame numbers, the first {@link #KEPT_FRAMES}
     * @param count samples it rests on
     * @param confidenceSum their confidences summed
     */
    public record Run(String label, long fromMs, long toMs, List<Long> frames, int count, double confidenceSum) {
        /** This run as an activity. */
        public Activity activity() {
            return new Activity(label, confidenceSum / count, fromMs, toMs, frames);
        }

        /** The first frame, which names the run. */
        public long firstFrame() {
            return frames.get(0);
        }
    }

    /** Frame numbers kept per activity. */
    public static final int KEPT_FRAMES = 64;

    /** Activities of samples in time order: postures and motion first, then raised hands. */
    public static List<Activity> recognize(List<Sample> samples) {
        List<Activity> main = new ArrayList<>();
        List<Activity> hands = new ArrayList<>();
        Run[] open = new Run[2];
        Sample previous = null;
        for (Sample s : samples) {
            Judged[] j = judge(previous, s);
            for (int c = 0; c < 2; c++) {
                Run next = advance(open[c], j[c], s);
                if (open[c] != null && (next == null || next.count() == 1)) {
                    (c == 0 ? main : hands).add(open[c].activity());
                }
                open[c] = next;
            }
            previous = s;
        }
        for (int c = 0; c < 2; c++) {
            if (open[c] != null) {
                (c == 0 ? main : hands).add(open[c].activity());
            }
        }
        main.addAll(hands);
        return main;
    }

    /**
     * The two labels of a sample: [0] its posture, or walking/running for an upright person whose
     * hips moved since the previous sample (null when the torso was not seen); [1] raising a hand or null.
     */
    public static Judged[] judge(Sample previous, Sample current) {
        Judged p = posture(current.pose());
        if (p != null && "standing".equals(p.label()) && previous != null) {
            Judged m = motion(previous, current);
            if (m != null) {
                p = new Judged(m.label(), Math.min(p.confidence(), m.confidence()));
            }
        }
        return new Judged[] {p, raisedHand(current.pose())};
    }

    /** The run after one more sample: the same run grown, a new run when the label changed, null when it has none. */
    public static Run advance(Run open, Judged judged, Sample s) {
        if (judged == null) {
            return null;
        }
        if (open != null && open.label().equals(judged.label())) {
            List<Long> frames = open.frames();
            if (frames.size() < KEPT_FRAMES) {
                frames = new ArrayList<>(frames);
                frames.add(s.frameIndex());
                frames = List.copyOf(frames);
            }
            return new Run(open.label(), open.fromMs(), s.ptsMs(), frames, open.count() + 1, open.confidenceSum() + judged.confidence());
        }
        return new Run(judged.label(), s.ptsMs(), s.ptsMs(), List.of(s.frameIndex()), 1, judged.confidence());
    }

    /** Standing, sitting, lying or bending from one pose; null when the torso was not seen. */
    public static Judged posture(Pose p) {
        double[] shoulder = mid(p, Pose.LEFT_SHOULDER, Pose.RIGHT_SHOULDER);
        double[] hip = mid(p, Pose.LEFT_HIP, Pose.RIGHT_HIP);
        if (shoulder == null || hip == null) {
            return null;
        }
        double tx = shoulder[0] - hip[0];
        double ty = shoulder[1] - hip[1];
        double torso = Math.hypot(tx, ty);
        if (torso < 1e-6) {
            return null;
        }
        // 0 degrees: shoulders straight above the hips; 90: level with them; 180: upside down.
        double lean = Math.toDegrees(Math.atan2(Math.abs(tx), -ty));
        double seen = (shoulder[2] + hip[2]) / 2;
        double[] knee = mid(p, Pose.LEFT_KNEE, Pose.RIGHT_KNEE);
        // 0 degrees: knees straight below the hips; 90: level with them.
        double thigh = knee == null ? Double.NaN : Math.toDegrees(Math.atan2(Math.abs(knee[0] - hip[0]), knee[1] - hip[1]));
        if (lean > 60) {
            return new Judged("lying", seen * margin(lean, 60, 30));
        }
        if (lean > 30) {
            if (!Double.isNaN(thigh) && thigh > 50) {
                // leaning back or forward on bent hips: sitting reclined rather than bending over
                return new Judged("sitting", seen * knee[2] * 0.7);
            }
            return new Judged("bending", seen * margin(lean, 30, 15) * (Double.isNaN(thigh) ? 0.7 : 1));
        }
        if (Double.isNaN(thigh)) {
            return new Judged("standing", seen * 0.6);
        }
        if (thigh > 50) {
            return new Judged("sitting", seen * knee[2] * margin(thigh, 50, 20));
        }
        return new Judged("standing", seen * knee[2] * margin(50 - thigh, 0, 20));
    }

    /** Raising a hand: a seen wrist at least a quarter torso above its seen shoulder; null otherwise. */
    public static Judged raisedHand(Pose p) {
        double[] shoulder = mid(p, Pose.LEFT_SHOULDER, Pose.RIGHT_SHOULDER);
        double[] hip = mid(p, Pose.LEFT_HIP, Pose.RIGHT_HIP);
        if (shoulder == null || hip == null) {
            return null;
        }
        double torso = Math.hypot(shoulder[0] - hip[0], shoulder[1] - hip[1]);
        double best = 0;
        int[][] sides = {{Pose.LEFT_WRIST, Pose.LEFT_SHOULDER}, {Pose.RIGHT_WRIST, Pose.RIGHT_SHOULDER}};
        for (int[] side : sides) {
            if (p.seen(side[0], MIN_KEYPOINT) && p.seen(side[1], MIN_KEYPOINT) && shoulder[1] < hip[1]) {
                double above = (p.y()[side[1]] - p.y()[side[0]]) / torso;
                if (above > 0.25) {
                    best = Math.max(best, Math.min(p.score()[side[0]], p.score()[side[1]]) * margin(above, 0.25, 0.25));
                }
            }
        }
        return best > 0 ? new Judged("raising_hand", best) : null;
    }

    /** Walking or running from the hips' speed between two samples; null when still or not measurable. */
    static Judged motion(Sample a, Sample b) {
        double[] ha = mid(a.pose(), Pose.LEFT_HIP, Pose.RIGHT_HIP);
        double[] hb = mid(b.pose(), Pose.LEFT_HIP, Pose.RIGHT_HIP);
        double dt = (b.ptsMs() - a.ptsMs()) / 1000.0;
        double height = (a.boxHeight() + b.boxHeight()) / 2;
        if (ha == null || hb == null || dt <= 0 || height <= 0) {
            return null;
        }
        double speed = Math.hypot(hb[0] - ha[0], hb[1] - ha[1]) / height / dt;
        if (speed < WALK) {
            return null;
        }
        return speed >= RUN ? new Judged("running", margin(speed, RUN, RUN)) : new Judged("walking", margin(speed, WALK, WALK));
    }

    /** Mean position and confidence of the seen ones of two keypoints; null when neither was seen. */
    static double[] mid(Pose p, int a, int b) {
        boolean sa = p.seen(a, MIN_KEYPOINT);
        boolean sb = p.seen(b, MIN_KEYPOINT);
        if (sa && sb) {
            return new double[] {(p.x()[a] + p.x()[b]) / 2, (p.y()[a] + p.y()[b]) / 2, (p.score()[a] + p.score()[b]) / 2};
        }
        if (sa || sb) {
            int k = sa ? a : b;
            return new double[] {p.x()[k], p.y()[k], p.score()[k] * 0.8};
        }
        return null;
    }

    /** 0.5 at the threshold, rising to 1 one span past it. */
    private static double margin(double value, double threshold, double span) {
        return Math.max(0, Math.min(1, 0.5 + 0.5 * (value - threshold) / span));
    }
}
