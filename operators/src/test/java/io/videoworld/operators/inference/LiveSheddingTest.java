package io.videoworld.operators.inference;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The live shedding budget: stale keyframes are skipped, and perception keeps to its share of the time. */
class LiveSheddingTest {
    @Test
    void aStaleKeyframeIsShedAndPerceptionKeepsToItsShareOfTheTime() {
        LiveShedding.Budget b = new LiveShedding.Budget(new LiveShedding(3_000, 0.5));
        assertThat(b.shed(3_500, 0, false)).contains("queued 3.5 s").contains("limit 3.0 s");
        assertThat(b.shed(100, 0, false)).isNull();
        // Four seconds of OCR every second: the 10 s burst lasts until the third, then half the time is allowed.
        b.spent(4_000);
        assertThat(b.shed(100, 1_000, false)).isNull();
        b.spent(4_000);
        assertThat(b.shed(100, 2_000, false)).isNull();
        b.spent(4_000);
        assertThat(b.shed(100, 3_000, false)).as("10 s + 1.5 s earned, 12 s spent").contains("50%");
        assertThat(b.shed(100, 3_000, true)).as("a stream's first keyframe is read anyway").isNull();
        assertThat(b.shed(100, 4_000, false)).as("the debt paid back at half the wall-clock time").isNull();

        LiveShedding.Budget off = new LiveShedding.Budget(LiveShedding.OFF);
        off.spent(60_000);
        assertThat(off.shed(600_000, 0, false)).isNull();
    }
}
