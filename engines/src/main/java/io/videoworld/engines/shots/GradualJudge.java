package io.videoworld.engines.shots;

import io.videoworld.engines.shots.ShotState.Boundary;
import io.videoworld.engines.shots.ShotState.Gradual;
import java.util.Arrays;

/**
 * Gradual transitions (dissolves, and fades that do not reach black): the window around each
 * centre is fitted to {@link BlendModel} (or, with the wipe detector on, {@link WipeModel}) at
 * several half-widths; overlapping fits are one transition, the strongest kept, and it is decided
 * once the stretch has passed. Its boundary is where the mix passes one half.
 */
final class GradualJudge {
    /** A transition that stands: its boundary and the frames it covers. */
    record Found(Boundary boundary, long from, long to) {}

    private final ShotParams p;
    private final int[] halfWidths;
    private final int maxHalf;
    private final int spill;
    private final int lag;
    private Gradual gradual;

    GradualJudge(ShotParams p, double fps, Gradual open) {
        this.p = p;
        double longest = Math.max(0.2, p.dissolveWindowSec());
        // A mix is told from a cut or a drift only over a few frames: at low sample rates the
        // shortest windows are left out (at least two frames on each side of the middle).
        this.halfWidths = Arrays.stream(BlendModel.HALF_WIDTHS_SEC).filter(h -> 2 * h <= longest + 1e-9)
                .mapToInt(h -> (int) Math.round(h * fps)).filter(h -> h >= BlendModel.MIN_HALF).distinct().toArray();
        this.maxHalf = halfWidths.length == 0 ? 1 : halfWidths[halfWidths.length - 1];
        this.spill = Math.max(BlendModel.MIN_HALF, (int) Math.round(BlendModel.SPILL_SEC * fps));
        this.lag = maxHalf + Math.max(maxHalf, spill);
        this.gradual = open;
    }

    /** Whether any half-width fits at this sample rate. */
    boolean possible() {
        return halfWidths.length > 0;
    }

    /** Frames a centre is judged behind the newest frame: the widest window and the frames just outside it. */
    int lag() {
        return lag;
    }

    int maxHalf() {
        return maxHalf;
    }

    /** Frames before a window's start that later decisions may still read. */
    int reach() {
        return lag + maxHalf + spill;
    }

    /** The transition being looked at, null for none (state). */
    Gradual open() {
        return gradual;
    }

    /**
     * Fits the models centred on {@code c}; when the stretch of the transition held so far has
     * passed, decides it (the result, or null).
     */
    Found judge(FrameWindow w, FadeWatch fades, long c, long nextAssemble) {
        Gradual best = null;
        for (int h : halfWidths) {
            if (!w.has(c - h) || !w.has(c + h) || fades.darkWithin(w, c - h - spill, c + h + spill)) {
                continue;
            }
            Gradual g = BlendModel.fit(w, c, h, Math.max(h, spill), p.dissolveThreshold(), p.dissolveMaxStep());
            if (g != null && (best == null || g.strength() > best.strength())) {
                best = g;
            }
            Gradual wipe = p.uses(ShotParams.WIPE) ? WipeModel.fit(w, c, h, Math.max(h, spill), p.dissolveThreshold(), p.dissolveMaxStep()) : null;
            if (wipe != null && (best == null || wipe.strength() > best.strength())) {
                best = wipe;
            }
        }
        Found found = null;
        if (gradual != null && (best != null ? best.centre() - best.half() > gradual.centre() + gradual.half()
                : c - maxHalf > gradual.centre() + gradual.half())) {
            found = close(w, nextAssemble);
        }
        if (best != null && (gradual == null || best.strength() > gradual.strength())) {
            gradual = best;
        }
        return found;
    }

    /** Decides the transition held: it stands unless shifting blocks of one end frame explains the other. */
    Found close(FrameWindow w, long nextAssemble) {
        Gradual g = gradual;
        gradual = null;
        if (g == null || !w.has(g.centre() - g.half()) || !w.has(g.centre() + g.half())) {
            return null;
        }
        byte[] a = w.bgr(g.centre() - g.half());
        byte[] b = w.bgr(g.centre() + g.half());
        if (a.length != b.length || !BlendModel.notMotion(a, b, w.at(g.centre()).featureWidth())) {
            return null;
        }
        long at = Math.max(g.middle(), Math.max(nextAssemble, w.firstPosition() + 1));
        return new Found(new Boundary(at, ShotParams.DISSOLVE, ShotParams.DISSOLVE, g.change()),
                g.centre() - g.half(), g.centre() + g.half());
    }
}
