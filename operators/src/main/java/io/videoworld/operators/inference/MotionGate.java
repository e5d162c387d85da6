package io.videoworld.operators.inference;

import io.videoworld.perception.GreyFrame;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Motion-gated detection of camera frames, without Flink: each stream's last detected frame is
 * kept as a grey thumbnail ({@value #THUMB} pixels wide) with its detections; a sampled frame
 * whose thumbnail differs from it in fewer than {@code minMotion} of its pixels (by more than
 * {@value #PIXEL_DELTA} grey levels) keeps those detections instead of running the detector, so
 * still objects are kept; every {@code fullEvery}-th sample of a stream is detected in any case.
 * Comparing with the last <em>detected</em> frame, not the previous sample, keeps slow motion from
 * creeping past the gate. The cache is bounded ({@code maxStreams}, least recently seen first out)
 * and lost on a restart.
 *
 * @param <D> what a detection gave
 */
public final class MotionGate<D> {
    /** Thumbnail width in pixels. */
    public static final int THUMB = 160;
    /** Grey levels by which a thumbnail pixel must differ to count as motion. */
    static final int PIXEL_DELTA = 16;

    /**
     * @param enabled false detects every sample
     * @param fullEvery every this many samples of a stream is detected in any case
     * @param minMotion share of thumbnail pixels that must move for a new detection
     * @param maxStreams streams remembered per instance
     */
    public record Settings(boolean enabled, int fullEvery, double minMotion, int maxStreams) implements Serializable {
        public static Settings off() {
            return new Settings(false, 1, 0, 0);
        }
    }

    private record Seen<D>(GreyFrame thumb, D detections, int sinceFull) {}

    private final Settings settings;
    private final LinkedHashMap<String, Seen<D>> cache;

    public MotionGate(Settings settings) {
        this.settings = settings;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Seen<D>> eldest) {
                return size() > settings.maxStreams();
            }
        };
    }

    /**
     * The detections to keep for this sample, or null when it must be detected (then call
     * {@link #detected}). A kept sample counts towards the periodic full detection.
     */
    public D reuse(String stream, GreyFrame thumb) {
        if (!settings.enabled()) {
            return null;
        }
        Seen<D> s = cache.get(stream);
        if (s == null || s.thumb().width() != thumb.width() || s.thumb().height() != thumb.height() || s.sinceFull() + 1 >= settings.fullEvery()
                || moved(s.thumb(), thumb) >= settings.minMotion()) {
            return null;
        }
        cache.put(stream, new Seen<>(s.thumb(), s.detections(), s.sinceFull() + 1));
        return s.detections();
    }

    /** Records a detected sample as the stream's reference. */
    public void detected(String stream, GreyFrame thumb, D detections) {
        if (settings.enabled()) {
            cache.put(stream, new Seen<>(thumb, detections, 0));
        }
    }

    public int streams() {
        return cache.size();
    }

    public void clear() {
        cache.clear();
    }

    /** Share of pixels that differ by more than {@value #PIXEL_DELTA} grey levels. */
    static double moved(GreyFrame a, GreyFrame b) {
        byte[] p = a.px();
        byte[] q = b.px();
        int n = 0;
        for (int i = 0; i < p.length; i++) {
            if (Math.abs((p[i] & 0xFF) - (q[i] & 0xFF)) > PIXEL_DELTA) {
                n++;
            }
        }
        return (double) n / p.length;
    }
}
