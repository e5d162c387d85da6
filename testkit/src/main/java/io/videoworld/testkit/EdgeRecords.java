package io.videoworld.testkit;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameLimits;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Frame batches the edge accepts, with extreme values in every field: stream ids of 1 and 128
 * characters, sequence numbers and frame indices up to their bounds, times from 1970 to the year
 * 2200, pictures from 1x1 to 8192 pixels a side, text fields at their length limit, source facts
 * at their extremes, with and without thumbnails and capture times. Every batch this makes passes
 * {@code FrameBatchCodec.decode}; whatever a later stage does with it must not stop the job.
 */
public final class EdgeRecords {
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
    /** Picture sizes at the edges of what is accepted; each side at most 8192 and each JPEG cheap to make. */
    private static final List<int[]> SIZES = List.of(new int[] {1, 1}, new int[] {2, 1}, new int[] {1, 2}, new int[] {7, 3},
            new int[] {8192, 1}, new int[] {1, 8192}, new int[] {8192, 8}, new int[] {16, 16}, new int[] {640, 360}, new int[] {81, 4});
    private static final Map<String, byte[]> JPEGS = new ConcurrentHashMap<>();

    private EdgeRecords() {}

    /** Stream ids the edge accepts, from 1 to 128 characters. */
    public static Arbitrary<String> streamIds() {
        Arbitrary<Character> first = Arbitraries.of('a', 'Z', '0', '9');
        Arbitrary<String> rest = Arbitraries.strings().withChars(ID_CHARS).ofMinLength(0).ofMaxLength(127);
        return Combinators.combine(first, rest).as((f, r) -> f + r);
    }

    /** Text fields (source URI, codec): absent, empty, any Unicode, or at the length limit. */
    public static Arbitrary<String> texts() {
        int max = FrameLimits.DEFAULT.maxTextLength();
        // Code points, not lone surrogates: a string off the wire is decoded UTF-8 and cannot hold half a pair.
        return Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(64),
                Arbitraries.strings().withChars("é文\u200f\u0000\"\\<>&").ofMinLength(max - 6).ofMaxLength(max - 2).map(t -> t + "😀"))
                .injectNull(0.2);
    }

    /** Source facts at their extremes, or none. */
    public static Arbitrary<SourceInfo> sources() {
        Arbitrary<Double> fps = Arbitraries.oneOf(Arbitraries.of(0.0, 0.001, 25.0, 1000.0), Arbitraries.doubles().between(0, 1000));
        Arbitrary<Long> big = Arbitraries.oneOf(Arbitraries.of(0L, 1L, FrameLimits.MAX_TIME_MS), Arbitraries.longs().between(0, FrameLimits.MAX_TIME_MS))
                .injectNull(0.4);
        Arbitrary<Integer> side = Arbitraries.of(0, 1, 1920, FrameLimits.DEFAULT.maxSide() * 4);
        Arbitrary<Tuple.Tuple4<Integer, Integer, Integer, Integer>> audioAndSize = Combinators.combine(Arbitraries.of(0, 1, 64),
                Arbitraries.of(0, 8000, 1_000_000), side, side).as(Tuple::of);
        return Combinators.combine(fps, big, big, texts(), Arbitraries.of(true, false), big, big, audioAndSize)
                .as((f, duration, total, codec, audio, size, bitrate, a) -> new SourceInfo(f, duration, total, codec, audio, a.get1(), a.get2(),
                        size, bitrate, a.get3(), a.get4(), f))
                .flatMap(s -> fps.map(sample -> new SourceInfo(s.fps(), s.durationMs(), s.totalFrames(), s.codec(), s.hasAudio(),
                        s.audioChannels(), s.audioSampleRate(), s.fileSizeBytes(), s.bitrateKbps(), s.width(), s.height(), sample)))
                .injectNull(0.2);
    }

    /** Whole batches the edge accepts, each with extremes somewhere. */
    public static Arbitrary<FrameBatch> batches() {
        Arbitrary<Long> epochs = Arbitraries.oneOf(Arbitraries.of(0L, 1L, FrameLimits.MAX_TIME_MS - 1_000, FrameLimits.MAX_TIME_MS),
                Arbitraries.longs().between(0, FrameLimits.MAX_TIME_MS));
        Arbitrary<Long> seqs = Arbitraries.oneOf(Arbitraries.of(0L, 1L, FrameLimits.MAX_SEQ), Arbitraries.longs().between(0, FrameLimits.MAX_SEQ));
        Arbitrary<Integer> counts = Arbitraries.oneOf(Arbitraries.of(1, 2, 40), Arbitraries.integers().between(1, 6));
        return Combinators.combine(streamIds(), Arbitraries.of(SourceKind.class), texts(), seqs, epochs, sources(), Arbitraries.of(true, false),
                        counts)
                .as((id, kind, uri, seq, epoch, source, last, n) -> Tuple.of(id, kind, uri, seq, epoch, source, last, n))
                .flatMap(t -> frames(t.get5(), t.get8()).map(frames -> new FrameBatch(t.get1(), t.get2(), t.get3(), t.get4(), t.get5(), t.get6(),
                        frames, t.get7())));
    }

    /** {@code n} frames valid after {@code epochMs}: indices rising to at most the bound, times within the year 2200. */
    static Arbitrary<List<Frame>> frames(long epochMs, int n) {
        long maxPts = FrameLimits.MAX_TIME_MS - epochMs;
        Arbitrary<Long> firstIndex = Arbitraries.oneOf(Arbitraries.of(0L, FrameLimits.MAX_FRAME_INDEX - n * 3L + 1),
                Arbitraries.longs().between(0, FrameLimits.MAX_FRAME_INDEX - n * 3L + 1));
        Arbitrary<Long> firstPts = Arbitraries.oneOf(Arbitraries.of(0L, maxPts), Arbitraries.longs().between(0, maxPts));
        Arbitrary<List<Integer>> steps = Arbitraries.integers().between(1, 3).list().ofSize(n);
        Arbitrary<List<Long>> ptsSteps = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(0, 100_000)).list().ofSize(n);
        Arbitrary<List<Integer>> sizes = Arbitraries.integers().between(0, SIZES.size() - 1).list().ofSize(n);
        Arbitrary<List<Long>> captures = Arbitraries.oneOf(Arbitraries.of(0L, FrameLimits.MAX_TIME_MS), Arbitraries.longs().between(0,
                FrameLimits.MAX_TIME_MS)).injectNull(0.6).list().ofSize(n);
        Arbitrary<List<Boolean>> thumbs = Arbitraries.of(true, false).list().ofSize(n);
        return Combinators.combine(firstIndex, firstPts, steps, ptsSteps, sizes, captures, thumbs).as((index, pts, step, ptsStep, size, capture,
                thumb) -> {
            List<Frame> out = new ArrayList<>(n);
            long i = index;
            long p = pts;
            for (int k = 0; k < n; k++) {
                i += k == 0 ? 0 : step.get(k);
                p = Math.min(maxPts, p + ptsStep.get(k));
                int[] wh = SIZES.get(size.get(k));
                long thumbHeight = Math.max(2, Math.round((double) wh[1] * Frame.THUMB_WIDTH / wh[0]));
                byte[] t = thumb.get(k) && thumbHeight <= 2_000 ? jpeg(Frame.THUMB_WIDTH, (int) thumbHeight) : null;
                out.add(new Frame(i, p, capture.get(k), wh[0], wh[1], jpeg(wh[0], wh[1]), t));
            }
            return out;
        });
    }

    private static byte[] jpeg(int w, int h) {
        return JPEGS.computeIfAbsent(w + "x" + h, k -> MalformedRecords.jpeg(w, h, new Color(40 + (w * 7) % 200, 90, 40 + (h * 13) % 200)));
    }
}
