package io.videoworld.operators.shots;

import io.videoworld.core.SourceKind;

import java.util.ArrayList;
import java.util.List;
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
}
