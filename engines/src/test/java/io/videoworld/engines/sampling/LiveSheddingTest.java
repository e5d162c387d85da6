package io.videoworld.engines.sampling;

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

    @Test
    void anOverdueStreamIsReadWhateverTheBudgetAndTheStreamReadMostRecentlyIsShed() {
        LiveShedding.Budget b = new LiveShedding.Budget(new LiveShedding(0, 0.5, 10_000));
        b.seen("cam", 0);
        b.seen("scr", 0);
        assertThat(b.lastTurn("cam")).as("never read: goes first").isEqualTo(Long.MIN_VALUE);
        b.turn("scr", 5_000);
        b.spent(20_000);
        assertThat(b.shed("cam", 100, 9_000, false, true)).as("9 s without a read: not yet overdue").contains("50%");
        assertThat(b.shed("scr", 100, 10_000, false, true)).as("read 5 s ago: shed").contains("50%");
        assertThat(b.shed("cam", 100, 10_000, false, false)).as("an older keyframe of an overdue stream is still shed").contains("50%");
        assertThat(b.shed("cam", 100, 10_000, false, true)).as("its newest, 10 s without a read: read").isNull();
        b.turn("cam", 10_000);
        assertThat(b.lastTurn("cam")).isEqualTo(10_000);
        assertThat(b.lastTurn("scr")).isLessThan(b.lastTurn("cam"));
        assertThat(b.shed("cam", 100, 11_000, false, true)).as("just read: shed again").contains("50%");
        b.forget("cam");
        b.forget("scr");
        assertThat(b.streams()).isZero();
    }

    @Test
    void latestWinsShedsAnyKeyframeWithANewerOneOfItsStreamQueuedAndOnlyThose() {
        LiveShedding.Budget b = new LiveShedding.Budget(new LiveShedding(0, 0, 10_000, true));
        b.seen("scr", 0);
        assertThat(b.shed("scr", 100, 1_000, true, false)).as("even a stream's first, when a newer one waits").contains("latest wins");
        assertThat(b.shed("scr", 100, 1_000, true, true)).as("its newest: no limit says shed").isNull();
        assertThat(b.shed("scr", 60_000, 70_000, false, false)).as("overdue, but not its newest").contains("latest wins");

        LiveShedding.Budget without = new LiveShedding.Budget(new LiveShedding(0, 0, 10_000));
        assertThat(without.shed("scr", 100, 1_000, true, false)).isNull();
        b.forget("scr");
        assertThat(b.streams()).isZero();
    }
}
