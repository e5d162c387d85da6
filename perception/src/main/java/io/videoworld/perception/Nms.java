package io.videoworld.perception;

import io.videoworld.core.Boxes;
import io.videoworld.core.Detection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Greedy per-category non-maximum suppression, best score first. */
final class Nms {
    private Nms() {}

    static List<Detection> apply(List<Detection> in, double iouThreshold, int max) {
        List<Detection> sorted = new ArrayList<>(in);
        sorted.sort(Comparator.comparingDouble(Detection::score).reversed());
        List<Detection> kept = new ArrayList<>();
        for (Detection d : sorted) {
            boolean suppressed = false;
            for (Detection k : kept) {
                if (k.category().equals(d.category())
                        && Boxes.iou(new double[] {k.x1(), k.y1(), k.x2(), k.y2()}, new double[] {d.x1(), d.y1(), d.x2(), d.y2()}) > iouThreshold) {
                    suppressed = true;
                    break;
                }
            }
            if (!suppressed) {
                kept.add(d);
                if (kept.size() == max) {
                    break;
                }
            }
        }
        return kept;
    }
}
