package io.videoworld.testkit;

import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.List;

/** Screens of a desk as the job would describe them: shots with one keyframe a second, and what OCR read. */
public final class MemoryFixtures {
    public static final long EPOCH = 1_700_000_000_000L;

    private MemoryFixtures() {}

    /** A shot from {@code start} to {@code end} seconds with a keyframe every second. */
    public static Segment shot(String stream, int start, int end) {
        List<KeyframeRef> kfs = new ArrayList<>();
        for (int s = start; s < end; s++) {
            kfs.add(new KeyframeRef(s, s * 1000L, EPOCH + s * 1000L, s, 1280, 800, 50_000, s == start ? KeyframeRef.FIRST : "periodic"));
        }
        return new Segment(stream, Segment.SHOT, EPOCH, SourceKind.SCREEN, start, end, start * 1000L, end * 1000L, EPOCH + start * 1000L,
                EPOCH + end * 1000L, start == 0 ? "start" : "cut", "adaptive", 30, start, 1, start, kfs, true);
    }

    /** What OCR read on the screen at second {@code s}: a title bar and two lines. */
    public static Perception screen(String stream, int s, String title, String line, float[] embedding) {
        return new Perception(stream, EPOCH, s, s * 1000L, "periodic", List.of(new TextLine(title, 10, 8, 400, 30, 0.98),
                new TextLine(line, 40, 120, 600, 30, 0.95), new TextLine(line + " (continued)", 40, 190, 600, 30, 0.95)), title + "\n" + line,
                embedding, new float[] {1}, "cpu", 1280, 800, List.of(), EPOCH + s * 1000L);
    }

    /** A unit vector leaning to one axis, so screens of one app embed alike. */
    public static float[] topic(int axis, double spread) {
        float[] v = new float[384];
        v[axis] = 1;
        v[(axis + 1) % 384] = (float) spread;
        double n = Math.sqrt(1 + spread * spread);
        for (int i = 0; i < v.length; i++) {
            v[i] /= (float) n;
        }
        return v;
    }
}
