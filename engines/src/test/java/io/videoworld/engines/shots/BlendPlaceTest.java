package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The blend fit's sums on pictures widened to ints: the same place and residual as a plain
 * long-accumulated pass over the bytes, also on pictures long enough that one int sum would
 * overflow.
 */
class BlendPlaceTest {

    /** The definition, summed the obvious way. */
    private static double[] reference(byte[] a, byte[] b, byte[] f) {
        long dd = 0;
        long dot = 0;
        long sq = 0;
        for (int i = 0; i < a.length; i++) {
            long ai = a[i] & 0xFF;
            long ba = (b[i] & 0xFF) - ai;
            long e = (f[i] & 0xFF) - ai;
            dd += ba * ba;
            dot += e * ba;
            sq += e * e;
        }
        return new double[] {dd, (double) dot / dd, Math.sqrt(Math.max(0, sq - (double) dot * dot / dd) / a.length)};
    }

    private static void assertSame(byte[] a, byte[] b, byte[] f) {
        double[] want = reference(a, b, f);
        int[] ai = MixFit.widen(a);
        int[] bi = MixFit.widen(b);
        long dd = MixFit.squaredDistance(ai, bi);
        assertThat((double) dd).isEqualTo(want[0]);
        assertThat(MixFit.place(ai, bi, MixFit.widen(f), dd)).containsExactly(want[1], want[2]);
        assertThat(MixFit.place(a, b, f, dd)).containsExactly(want[1], want[2]);
    }

    @Test
    void randomPicturesGiveTheReferenceSums() {
        Random r = new Random(7);
        for (int n : new int[] {80 * 45 * 3, 40 * 22 * 3, 80 * 107 * 3}) {
            byte[] a = new byte[n];
            byte[] b = new byte[n];
            byte[] f = new byte[n];
            r.nextBytes(a);
            r.nextBytes(b);
            r.nextBytes(f);
            assertSame(a, b, f);
        }
    }

    @Test
    void extremePicturesLongerThanOneIntSumDoNotOverflow() {
        // 80 x 200 x 3 values of 255 * 255 each: 3.1e9, past the int range in one sum.
        int n = 80 * 200 * 3;
        byte[] black = new byte[n];
        byte[] white = new byte[n];
        java.util.Arrays.fill(white, (byte) 255);
        byte[] nearWhite = white.clone();
        nearWhite[5] = 0;
        assertSame(black, white, nearWhite);
        assertThat(MixFit.place(MixFit.widen(black), MixFit.widen(white), MixFit.widen(white),
                MixFit.squaredDistance(MixFit.widen(black), MixFit.widen(white)))).containsExactly(1.0, 0.0);
    }
}
