package io.videoworld.engines.shots;

import io.videoworld.core.SourceKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

/** Runs the default shot tracker over generated BGR pictures, for the synthetic shot tests. */
final class TrackerRuns {
    private TrackerRuns() {
    }

    /** Shot starts (ms) the default tracker finds in {@code frames} pictures of {@code w}x{@code h} at {@code fps}. */
    static List<Long> shotStarts(int w, int h, double fps, int frames, IntFunction<byte[]> picture) {
        List<Long> starts = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), fps);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> starts.add(s.startPtsMs()));
        for (int i = 0; i < frames; i++) {
            long pts = Math.round(i * 1000 / fps);
            tracker.accept(FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "synthetic", i, pts, w, h, picture.apply(i), w, h), out);
        }
        tracker.finish(out);
        return starts;
    }

    /** Grey static of {@code w}x{@code h} BGR: every pixel a new random level each frame. */
    static byte[] staticNoise(int w, int h, Random r) {
        byte[] bgr = new byte[w * h * 3];
        for (int i = 0; i < bgr.length; i += 3) {
            byte v = (byte) r.nextInt(256);
            bgr[i] = v;
            bgr[i + 1] = v;
            bgr[i + 2] = v;
        }
        return bgr;
    }
}
