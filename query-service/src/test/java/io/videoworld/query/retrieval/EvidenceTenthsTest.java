package io.videoworld.query.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The clip lines' times read as they did when {@code String.format("%.1f")} wrote them, halves included. */
class EvidenceTenthsTest {
    @Test
    void tenthsOfASecondAreWhatStringFormatWrote() {
        Random rnd = new Random(16);
        long[] edge = {0, 49, 50, 51, 149, 150, 1150, 2250, 9950, 59_999, 600_000, 86_400_000, -50, -1150};
        for (long ms : edge) {
            assertThat(EvidenceSearch.tenths(ms)).as("%d ms", ms).isEqualTo(String.format(Locale.ROOT, "%.1f", ms / 1000.0));
        }
        for (int i = 0; i < 5000; i++) {
            long ms = rnd.nextLong(0, 100_000_000L);
            assertThat(EvidenceSearch.tenths(ms)).isEqualTo(String.format(Locale.ROOT, "%.1f", ms / 1000.0));
        }
    }
}
