package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.SmallFrameDecoder;
import io.videoworld.core.SourceKind;
import io.videoworld.perception.ModelDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fast-cut, letterboxed and dark edited material made of real pictures: stretches of the two real
 * clips every checkout has ({@code Megamind.avi}, a trailer's shot/reverse-shot dialogue, and
 * {@code vtest.avi}, pedestrians under a fixed camera; {@code deploy/samples.sh}) cut together
 * every 1-3 s, cropped to 2.35:1 inside black bars, and darkened as a night grade is. Every cut
 * must be found and nothing else: black bars shrank every score by their share, and a dark
 * picture's cut scored under the fixed floors (the adaptive floor, the flash check's "back to
 * the picture before"), so whole stretches of such a film went by without a cut.
 */
class LetterboxedCutsTest {
    private static final double FPS = 24;
    private static final int W = FeatureExtractor.WIDTH;
    /** 2.35:1 picture inside a 16:9 frame of {@link #W} pixels. */
    private static final int PICTURE_H = 34;
    private static final int FRAME_H = 45;
    private static List<byte[]> megamind;
    private static int megamindH;
    private static List<byte[]> vtest;
    private static int vtestH;

    @BeforeAll
    static void decode() throws Exception {
        Path dir = ModelDirectory.samples();
        assertThat(dir.resolve("Megamind.avi")).as("run deploy/samples.sh first").isRegularFile();
        megamind = frames(dir.resolve("Megamind.avi"));
        megamindH = height;
        vtest = frames(dir.resolve("vtest.avi"));
        vtestH = height;
    }

    private static int height;

    private static List<byte[]> frames(Path file) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (SmallFrameDecoder d = new SmallFrameDecoder(file.toString(), W, 0, true)) {
            SmallFrameDecoder.Picture p;
            while ((p = d.next()) != null) {
                assertThat(p.width()).isEqualTo(W);
                height = p.height();
                out.add(p.bgr());
            }
        }
        return out;
    }

    /** A stretch of one source: {@code frames} frames from {@code from}. */
    private record Piece(boolean trailer, int from, int frames) {}

    /**
     * Megamind's shots (frames 2-97, 98-153, 154-199, 200-269) and vtest's pedestrians, in pieces of
     * 1-3 s that alternate sources or jump to another of Megamind's shots: every join is a hard cut
     * between different pictures, and no piece holds a cut of its own.
     */
    private static final List<Piece> PIECES = List.of(
            new Piece(true, 5, 48), new Piece(false, 0, 30), new Piece(true, 100, 50), new Piece(false, 200, 60),
            new Piece(true, 156, 40), new Piece(true, 202, 65), new Piece(false, 400, 26), new Piece(true, 20, 70),
            new Piece(true, 110, 40), new Piece(false, 600, 36), new Piece(true, 160, 36), new Piece(false, 100, 48));

    /** The pieces one after another, each picture cropped to 2.35:1 and boxed, its levels scaled by {@code gain}. */
    private static List<byte[]> film(double gain) {
        return film(gain, false);
    }

    /** The same, in black and white when {@code grey} (each pixel its mean of B, G and R). */
    private static List<byte[]> film(double gain, boolean grey) {
        List<byte[]> out = new ArrayList<>();
        for (Piece p : PIECES) {
            for (int i = 0; i < p.frames(); i++) {
                byte[] src = p.trailer() ? megamind.get(p.from() + i) : vtest.get(p.from() + i);
                byte[] f = letterbox(src, p.trailer() ? megamindH : vtestH, gain);
                if (grey) {
                    for (int k = 0; k < f.length; k += 3) {
                        byte m = (byte) (((f[k] & 0xFF) + (f[k + 1] & 0xFF) + (f[k + 2] & 0xFF)) / 3);
                        f[k] = m;
                        f[k + 1] = m;
                        f[k + 2] = m;
                    }
                }
                out.add(f);
            }
        }
        return out;
    }

    private static byte[] letterbox(byte[] src, int srcH, double gain) {
        byte[] out = new byte[W * FRAME_H * 3];
        int top = (FRAME_H - PICTURE_H) / 2;
        int crop = (srcH - PICTURE_H) / 2;
        for (int y = 0; y < PICTURE_H; y++) {
            for (int x = 0; x < W * 3; x++) {
                int v = src[((y + crop) * W) * 3 + x] & 0xFF;
                out[((y + top) * W) * 3 + x] = (byte) Math.min(255, Math.round(v * gain));
            }
        }
        return out;
    }

    /** The true cuts: the first frame of every piece but the first. */
    private static List<Long> cuts() {
        List<Long> cuts = new ArrayList<>();
        long at = 0;
        for (Piece p : PIECES) {
            if (at > 0) {
                cuts.add(at);
            }
            at += p.frames();
        }
        return cuts;
    }

    /** The frames where the default tracker starts shots after the first. */
    private static List<Long> found(List<byte[]> film) {
        List<Long> starts = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), FPS);
        ShotTracker.Output out = ShotTracker.Output.shots(s -> starts.add(s.startFrame()));
        for (int i = 0; i < film.size(); i++) {
            long pts = Math.round(i * 1000 / FPS);
            tracker.accept(FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "letterboxed", i, pts, W, FRAME_H, film.get(i), W, FRAME_H), out);
        }
        tracker.finish(out);
        return starts.subList(1, starts.size());
    }

    @Test
    void everyCutOfALetterboxedFastCutFilmIsFound() {
        assertThat(found(film(1.0))).containsExactlyElementsOf(cuts());
    }

    @Test
    void everyCutOfADarkLetterboxedFastCutFilmIsFound() {
        // Megamind's restaurant is dim already (mean level about 35 of 255); at 60% it is a night scene of a graded
        // trailer, mean 15-20 with its bars, still above the fade detector's floor for black.
        assertThat(found(film(0.6))).containsExactlyElementsOf(cuts());
    }

    @Test
    void everyCutOfANightLetterboxedFilmWhoseWholeFrameIsUnderTheFadeFloorIsFound() {
        // At 45% many frames' whole-frame mean (bars included) is under the fade floor, while the picture inside
        // the bars is not black: bars known over the frames around, not from the one frame, tell them apart.
        assertThat(found(film(0.45))).containsExactlyElementsOf(cuts());
    }

    @Test
    void everyCutOfABlackAndWhiteFastCutFilmIsFound() {
        // Grey pictures have no hue or saturation to change: a cut scores on brightness alone (these cuts are strong
        // enough for the colour floor; a regression guard, not a test of a grey-specific rule).
        assertThat(found(film(1.0, true))).containsExactlyElementsOf(cuts());
    }

    @Test
    void barsDoNotCountAsPicture() {
        byte[] a = letterbox(megamind.get(50), megamindH, 1.0);
        byte[] b = letterbox(vtest.get(50), vtestH, 1.0);
        var fa = FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "x", 0, 0, W, FRAME_H, a, W, FRAME_H);
        var fb = FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "x", 1, 40, W, FRAME_H, b, W, FRAME_H);
        int[] r = FrameDistance.bars(fa.hsv(), fb.hsv(), W);
        assertThat(r[0]).isBetween(5, 6);
        assertThat(r[1]).isBetween(38, 39);
        assertThat(r[2]).isZero();
        assertThat(r[3]).isEqualTo(W);
        // The same two pictures without bars score the same.
        byte[] ua = java.util.Arrays.copyOfRange(a, r[0] * W * 3, r[1] * W * 3);
        byte[] ub = java.util.Arrays.copyOfRange(b, r[0] * W * 3, r[1] * W * 3);
        int h = r[1] - r[0];
        var ga = FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "x", 0, 0, W, h, ua, W, h);
        var gb = FeatureExtractor.fromBgr("s", SourceKind.VIDEO, "x", 1, 40, W, h, ub, W, h);
        assertThat(FrameDistance.content(fa, fb)).isCloseTo(FrameDistance.content(ga, gb), org.assertj.core.data.Offset.offset(0.01));
    }
}
