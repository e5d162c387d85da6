package io.videoworld.perception;

import java.util.Arrays;

/**
 * One person's 17 COCO body keypoints in frame pixels, each with the model's confidence 0-1.
 *
 * @param x keypoint columns, in {@link #NAMES} order
 * @param y keypoint rows
 * @param score keypoint confidences
 */
public record Pose(double[] x, double[] y, double[] score) {
    /** Keypoint names in the model's (COCO's) order. */
    public static final String[] NAMES = {"nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder",
        "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee",
        "right_knee", "left_ankle", "right_ankle"};
    public static final int NOSE = 0;
    public static final int LEFT_EYE = 1;
    public static final int RIGHT_EYE = 2;
    public static final int LEFT_SHOULDER = 5;
    public static final int RIGHT_SHOULDER = 6;
    public static final int LEFT_ELBOW = 7;
    public static final int RIGHT_ELBOW = 8;
    public static final int LEFT_WRIST = 9;
    public static final int RIGHT_WRIST = 10;
    public static final int LEFT_HIP = 11;
    public static final int RIGHT_HIP = 12;
    public static final int LEFT_KNEE = 13;
    public static final int RIGHT_KNEE = 14;
    public static final int LEFT_ANKLE = 15;
    public static final int RIGHT_ANKLE = 16;

    public Pose {
        if (x.length != NAMES.length || y.length != NAMES.length || score.length != NAMES.length) {
            throw new IllegalArgumentException("a pose has " + NAMES.length + " keypoints");
        }
    }

    /** Whether keypoint k was seen with at least this confidence. */
    public boolean seen(int k, double minScore) {
        return score[k] >= minScore;
    }

    /** Mean confidence over all keypoints. */
    public double meanScore() {
        return Arrays.stream(score).average().orElse(0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pose p && Arrays.equals(x, p.x) && Arrays.equals(y, p.y) && Arrays.equals(score, p.score);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(x) * 31 + Arrays.hashCode(y);
    }

    @Override
    public String toString() {
        return String.format("Pose[mean score %.2f]", meanScore());
    }
}
