package io.videoworld.engines.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.SampledFrame;
import org.junit.jupiter.api.Test;

/** Which live samples the detector skips: only stale ones with a newer sample of their stream waiting, never files. */
class StaleSamplesTest {
    private static final long NOW = 1_700_000_100_000L;

    private static SampledFrame sample(String stream, long eventTimeMs, boolean live, boolean last) {
        return new SampledFrame(stream, 1L, eventTimeMs / 250, eventTimeMs, eventTimeMs, last, false, new byte[0], live);
    }

    @Test
    void aStaleLiveSampleIsDroppedOnlyWhileANewerOneOfItsStreamWaits() {
        StaleSamples s = new StaleSamples(3_000);
        SampledFrame old = sample("cam", NOW - 10_000, true, false);
        SampledFrame newer = sample("cam", NOW - 9_750, true, false);
        s.arrived(old);
        assertThat(s.drop(old, NOW)).as("stale, but the newest: detected").isFalse();
        s.arrived(newer);
        assertThat(s.drop(old, NOW)).isTrue();
        assertThat(s.drop(newer, NOW)).as("the newest is never dropped, however late").isFalse();
        assertThat(s.drop(old, NOW - 8_000)).as("within the budget then").isFalse();
        s.done(old);
        assertThat(s.streams()).as("the stream still has its newest sample in flight").isEqualTo(1);
        s.done(newer);
        assertThat(s.streams()).as("nothing kept once the newest is done").isZero();
    }

    @Test
    void filesTheLastSampleAndAnOffBudgetAreNeverDropped() {
        StaleSamples s = new StaleSamples(3_000);
        SampledFrame file = sample("file", NOW - 60_000, false, false);
        s.arrived(file);
        s.arrived(sample("file", NOW - 59_000, false, false));
        assertThat(s.drop(file, NOW)).isFalse();
        assertThat(s.streams()).as("files are not remembered").isZero();

        SampledFrame last = sample("cam", NOW - 60_000, true, true);
        s.arrived(last);
        s.arrived(sample("cam", NOW - 59_000, true, false));
        assertThat(s.drop(last, NOW)).isFalse();
        s.done(last);
        assertThat(s.streams()).as("a stream's last sample forgets it").isZero();

        StaleSamples off = new StaleSamples(0);
        SampledFrame live = sample("cam", NOW - 60_000, true, false);
        off.arrived(live);
        off.arrived(sample("cam", NOW - 59_000, true, false));
        assertThat(off.drop(live, NOW)).isFalse();
        assertThat(off.streams()).isZero();
    }
    @Test
    void whileLiveSamplesAreInFlightABatchTakesWhatTheDetectorDoesInHalfTheLag() {
        StaleSamples s = new StaleSamples(3_000, true);
        SampledFrame cam = sample("cam", NOW - 1_000, true, false);
        s.arrived(cam);
        assertThat(s.batchLimit(16)).as("nothing measured yet").isEqualTo(16);
        s.detected(4, 4_800);
        assertThat(s.batchLimit(16)).as("1.2 s a sample: 1.5 s holds one").isEqualTo(1);
        s.detected(0, 0);
        s.detected(2, 200);
        assertThat(s.batchLimit(16)).as("smoothed to 0.65 s a sample: two").isEqualTo(2);
        for (int i = 0; i < 20; i++) {
            s.detected(10, 500);
        }
        assertThat(s.batchLimit(16)).as("fast again: up to max-batch").isEqualTo(16);
        assertThat(s.batchLimit(8)).isEqualTo(8);
        s.detected(1, 1_000);
        s.detected(1, 1_000);
        s.detected(1, 1_000);
        assertThat(s.batchLimit(16)).isEqualTo(1);
        s.done(cam);
        assertThat(s.streams()).isZero();
        assertThat(s.batchLimit(16)).as("no live sample in flight: files batch whole").isEqualTo(16);

        StaleSamples without = new StaleSamples(3_000);
        without.arrived(cam);
        without.detected(1, 5_000);
        assertThat(without.batchLimit(16)).as("limit off").isEqualTo(16);
        StaleSamples noLag = new StaleSamples(0, true);
        noLag.arrived(cam);
        noLag.detected(1, 5_000);
        assertThat(noLag.batchLimit(16)).as("live-max-lag 0: never limited").isEqualTo(16);
    }
}
