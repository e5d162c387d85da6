package io.videoworld.perception;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The memo of recognised lines: keyed by a crop's ink, bounded, counted. */
class LineMemoTest {
    /** A 9-pixel-high strip of "glyphs": a column pattern from {@code seed}, 24 columns wide. */
    private static boolean[][] glyphs(int seed) {
        Random r = new Random(seed);
        boolean[][] ink = new boolean[9][24];
        for (int x = 0; x < 24; x++) {
            for (int y = 0; y < 9; y++) {
                ink[y][x] = x % 4 != 3 && r.nextInt(3) == 0;
            }
        }
        ink[0][0] = true;
        ink[8][22] = true;
        return ink;
    }

    /** Packed BGR bytes of a {@code w} x {@code h} crop: {@code ink} at ({@code dx}, {@code dy}), {@code fg} on {@code bg}, plus noise up to {@code noise}. */
    private static byte[] crop(boolean[][] ink, int w, int h, int dx, int dy, int fg, int bg, int noise) {
        Random r = new Random(7);
        byte[] bgr = new byte[w * h * 3];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int iy = y - dy;
                int ix = x - dx;
                boolean on = iy >= 0 && ix >= 0 && iy < ink.length && ix < ink[0].length && ink[iy][ix];
                int v = Math.max(0, Math.min(255, (on ? fg : bg) + (noise == 0 ? 0 : r.nextInt(2 * noise + 1) - noise)));
                for (int c = 0; c < 3; c++) {
                    bgr[3 * (y * w + x) + c] = (byte) v;
                }
            }
        }
        return bgr;
    }

    @Test
    void theSameGlyphsInAWiderShiftedOrNoisyBoxHaveOneKey() {
        boolean[][] line = glyphs(1);
        LineMemo.Key key = LineMemo.key(30, 12, crop(line, 30, 12, 2, 1, 20, 240, 0));
        assertThat(LineMemo.key(38, 16, crop(line, 38, 16, 6, 4, 20, 240, 0))).as("a wider box, the line elsewhere in it").isEqualTo(key);
        assertThat(LineMemo.key(30, 12, crop(line, 30, 12, 2, 1, 20, 240, 12))).as("JPEG-like noise far from the middle grey").isEqualTo(key);
        assertThat(LineMemo.key(30, 12, crop(line, 30, 12, 2, 1, 230, 15, 0))).as("light text on a dark background").isEqualTo(key);
    }

    @Test
    void otherGlyphsHaveAnotherKeyAndACropWithNoContrastHasNone() {
        boolean[][] line = glyphs(1);
        boolean[][] oneOther = glyphs(1);
        oneOther[4][13] = !oneOther[4][13];
        LineMemo.Key key = LineMemo.key(30, 12, crop(line, 30, 12, 2, 1, 20, 240, 0));
        assertThat(LineMemo.key(30, 12, crop(oneOther, 30, 12, 2, 1, 20, 240, 0))).isNotEqualTo(key);
        assertThat(LineMemo.key(30, 12, crop(glyphs(2), 30, 12, 2, 1, 20, 240, 0))).isNotEqualTo(key);
        assertThat(LineMemo.key(30, 12, crop(line, 30, 12, 2, 1, 120, 135, 0))).as("15 grey levels of contrast").isNull();
    }

    @Test
    void whatWasReadIsFoundAgainAndEveryLookUpIsCounted() {
        LineMemo memo = new LineMemo(8);
        LineMemo.Key key = LineMemo.key(30, 12, crop(glyphs(1), 30, 12, 2, 1, 20, 240, 0));
        assertThat(memo.get(key)).isNull();
        memo.put(key, new LineMemo.Read("Invoice 2041 paid", 0.93));
        assertThat(memo.get(LineMemo.key(34, 12, crop(glyphs(1), 34, 12, 4, 2, 20, 240, 0)))).isEqualTo(new LineMemo.Read("Invoice 2041 paid", 0.93));
        memo.put(null, new LineMemo.Read("nothing", 1));
        assertThat(memo.get(null)).as("a crop with no key is always recognised").isNull();
        assertThat(memo.remembered()).isEqualTo(1);
        assertThat(memo.recognised()).isEqualTo(2);
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void beyondItsCapacityTheLineUsedLongestAgoIsForgotten() {
        LineMemo memo = new LineMemo(2);
        LineMemo.Key a = new LineMemo.Key(10, 1, 1);
        LineMemo.Key b = new LineMemo.Key(10, 1, 2);
        LineMemo.Key c = new LineMemo.Key(10, 1, 3);
        memo.put(a, new LineMemo.Read("a", 1));
        memo.put(b, new LineMemo.Read("b", 1));
        assertThat(memo.get(a)).isNotNull();
        memo.put(c, new LineMemo.Read("c", 1));
        assertThat(memo.size()).isEqualTo(2);
        assertThat(memo.get(b)).as("b was used longest ago").isNull();
        assertThat(memo.get(a)).isNotNull();
        assertThat(memo.get(c)).isNotNull();
    }

    @Test
    void aMemoOfNoLinesRemembersNothing() {
        LineMemo memo = new LineMemo(0);
        LineMemo.Key a = new LineMemo.Key(10, 1, 1);
        memo.put(a, new LineMemo.Read("a", 1));
        assertThat(memo.get(a)).isNull();
        assertThat(memo.size()).isZero();
        assertThat(memo.recognised()).isEqualTo(1);
    }
}
