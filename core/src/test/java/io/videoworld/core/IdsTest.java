package io.videoworld.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Ids are zero-padded exactly as {@code String.format} padded them, so ids written before and after the change are the same documents. */
class IdsTest {
    @Test
    void zeroPaddingMatchesStringFormatForEveryKindOfNumber() {
        Random rnd = new Random(16);
        long[] edge = {0, 1, 9, 10, 999_999, 1_000_000, 9_999_999_999L, 10_000_000_000L, Long.MAX_VALUE, -1, -5, -123_456, Long.MIN_VALUE};
        for (int width : new int[] {6, 10}) {
            for (long n : edge) {
                assertThat(Ids.zeroPadded(n, width)).as("%d at width %d", n, width).isEqualTo(String.format(java.util.Locale.ROOT, "%0" + width + "d", n));
            }
            for (int i = 0; i < 2000; i++) {
                long n = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextLong(-1000, 100_000_000_000L);
                assertThat(Ids.zeroPadded(n, width)).isEqualTo(String.format(java.util.Locale.ROOT, "%0" + width + "d", n));
            }
        }
    }

    @Test
    void frameTrackAndSegmentIdsKeepTheirShape() {
        assertThat(Ids.frame("cam-1", 42)).isEqualTo("cam-1:f:0000000042");
        assertThat(Ids.track("cam-1", 7)).isEqualTo("cam-1:t:000007");
        assertThat(Segment.id("cam-1", "shot", 1500)).isEqualTo("cam-1:shot:0000001500");
        // Zero-padding keeps string order the frame order.
        assertThat(Ids.frame("s", 99).compareTo(Ids.frame("s", 100))).isNegative();
    }
}
