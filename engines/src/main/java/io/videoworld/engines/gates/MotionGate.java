package io.videoworld.engines.gates;

import io.videoworld.perception.GreyFrame;
import java.io.Serializable;

/**
 * Motion-gated detection of camera frames, without Flink and without state of its own: a sampled
 * frame's grey thumbnail ({@value #THUMB} pixels wide) is compared with the stream's last
 * <em>detected</em> one ({@link MotionMemory}, which the caller keeps: Flink keyed state in
 * {@code MotionGateFunction}); when fewer than {@code minMotion} of its pixels differ (by more than
 * {@value #PIXEL_DELTA} grey levels) it keeps that sample's detections instead of running the
 * detector, so still objects are kept; every {@code fullEvery}-th sample of a stream is detected in
 * any case. Comparing with the last detected frame, not the previous sample, keeps slow motion from
 * creeping past the gate.
 */
public final class MotionGate {
    /** Thumbnail width in pixels. */
    public static final int THUMB = 160;
    /** Grey levels by which a thumbnail pixel must differ to count as motion. */
    static final int PIXEL_DELTA = 16;

    /**
     * @param enabled false detects every sample
     * @param fullEvery every this many samples of a stream is detected in any case
     * @param minMotion share of thumbnail pixels that must move for a new detection
     */
    public record Settings(boolean enabled, int fullEvery, double minMotion) implements Serializable {
        public static Settings off() {
            return new Settings(false, 1, 0);
        }
    }

    private final Settings settings;

    public MotionGate(Settings settings) {
        this.settings = settings;
    }

    /** Whether this sample must be detected, against the stream's memory ({@code prev} null: none). */
    public boolean detect(MotionMemory prev, GreyFrame thumb) {
        return !settings.enabled() || prev == null || prev.width() != thumb.width() || prev.height() != thumb.height()
                || prev.sinceFull() + 1 >= settings.fullEvery() || moved(prev.thumb(), thumb.px()) >= settings.minMotion();
    }

    /** The stream's memory after this sample: the sample itself when detected, else one more sample since the last detection. */
    public static MotionMemory next(MotionMemory prev, GreyFrame thumb, boolean detected, long eventTimeMs) {
        return detected ? new MotionMemory(thumb.width(), thumb.height(), thumb.px(), 0, eventTimeMs)
                : new MotionMemory(prev.width(), prev.height(), prev.thumb(), prev.sinceFull() + 1, eventTimeMs);
    }

    /** Share of pixels that differ by more than {@value #PIXEL_DELTA} grey levels. */
    static double moved(byte[] p, byte[] q) {
        int n = 0;
        for (int i = 0; i < p.length; i++) {
            if (Math.abs((p[i] & 0xFF) - (q[i] & 0xFF)) > PIXEL_DELTA) {
                n++;
            }
        }
        return (double) n / p.length;
    }
}
