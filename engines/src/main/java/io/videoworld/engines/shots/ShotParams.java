package io.videoworld.engines.shots;

import java.io.Serializable;
import java.util.Locale;
import java.util.Set;

/**
 * Shot detection settings. Thresholds use the ranges of {@link FrameDistance}; durations are in
 * seconds and turned into frames with the stream's sample rate.
 *
 * @param detectors which of content, adaptive, fade, dissolve and wipe run; boundaries of all are combined (wipe is
 *     opt-in: it found the tuning half's wipes but added false boundaries on held-out footage)
 * @param contentThreshold content score (0-255) at or above which the content detector cuts
 * @param adaptiveRatio how many times its neighbours' average a frame's score must be for the adaptive detector
 * @param adaptiveMinContent the least content score the adaptive detector accepts
 * @param adaptiveWindow neighbours on each side averaged by the adaptive detector, in frames
 * @param fadeFloor mean brightness (0-255) under which a frame counts as black
 * @param dissolveWindowSec longest gradual transition looked for (dissolves and fades that do not reach black)
 * @param dissolveThreshold RMS pixel difference (0-255) of the frames before and after a gradual transition
 *     that it must reach; the transition must also fit {@link BlendModel}
 * @param dissolveMaxStep largest share (0-1) of a gradual transition that one frame may make; a cut makes
 *     all of it at once
 * @param flashFrames frames after a cut in which a return to the earlier picture marks a flash, not a cut
 * @param minShotSec shortest shot; closer boundaries are dropped
 * @param keyframeEverySec periodic keyframes inside a shot, 0 for none
 * @param screenKeyframeEverySec the same for screens: every second by default, so every screen
 *     that is not a near-duplicate is read (MIRIX reads screenshots at 1 fps; an app switch inside
 *     one "shot" of similar-looking pages is then seen to the second)
 * @param sceneThreshold histogram distance under which a shot joins the scene of one of the previous three
 * @param screenDuplicateBits screens only: frames whose perceptual hash differs by at most this many bits
 *     from the last kept one are dropped as near-duplicates (3 of 64 bits is about MIRIX's 0.95-0.99 rule)
 */
public record ShotParams(
        Set<String> detectors,
        double contentThreshold,
        double adaptiveRatio,
        double adaptiveMinContent,
        int adaptiveWindow,
        double fadeFloor,
        double dissolveWindowSec,
        double dissolveThreshold,
        double dissolveMaxStep,
        int flashFrames,
        double minShotSec,
        double keyframeEverySec,
        double screenKeyframeEverySec,
        double sceneThreshold,
        int screenDuplicateBits) implements Serializable {

    public static final String CONTENT = "content";
    public static final String ADAPTIVE = "adaptive";
    public static final String FADE = "fade";
    public static final String DISSOLVE = "dissolve";
    /** Wipes ({@link WipeModel}); not in the defaults. */
    public static final String WIPE = "wipe";
    public static final Set<String> ALL = Set.of(CONTENT, ADAPTIVE, FADE, DISSOLVE, WIPE);

    public ShotParams {
        detectors = Set.copyOf(detectors);
        for (String d : detectors) {
            if (!ALL.contains(d)) {
                throw new IllegalArgumentException("unknown shot detector '" + d + "' (known: content, adaptive, fade, dissolve, wipe)");
            }
        }
    }

    /** The defaults: adaptive cuts, fades and dissolves. */
    public static ShotParams defaults() {
        return new ShotParams(Set.of(ADAPTIVE, FADE, DISSOLVE), 27, 3.0, 15, 2, 12, 1.1, 20, 0.6, 3, 0.6, 5.0, 1.0, 0.3, 3);
    }

    /** Parses a comma-separated detector list such as {@code "content,fade"}. */
    public static Set<String> parseDetectors(String list) {
        return Set.of(list.toLowerCase(Locale.ROOT).replace(" ", "").split(","));
    }

    public ShotParams withDetectors(Set<String> value) {
        return new ShotParams(value, contentThreshold, adaptiveRatio, adaptiveMinContent, adaptiveWindow, fadeFloor,
                dissolveWindowSec, dissolveThreshold, dissolveMaxStep, flashFrames, minShotSec, keyframeEverySec,
                screenKeyframeEverySec, sceneThreshold, screenDuplicateBits);
    }

    /** Periodic keyframe spacing in ms for a kind of source; 0 for none. */
    long keyframeEveryMs(io.videoworld.core.SourceKind kind) {
        return Math.round((kind == io.videoworld.core.SourceKind.SCREEN ? screenKeyframeEverySec : keyframeEverySec) * 1000);
    }

    boolean uses(String detector) {
        return detectors.contains(detector);
    }
}
