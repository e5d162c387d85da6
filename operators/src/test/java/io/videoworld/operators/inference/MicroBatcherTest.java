package io.videoworld.operators.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MicroBatcherTest {
    @Test
    void requestsArrivingTogetherShareABatchAndEachGetsItsOwnAnswer() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        try (MicroBatcher<Integer, String> b = new MicroBatcher<>("test", 4, 200,
                in -> in.stream().map(i -> "frame-" + i).toList(), (n, nanos) -> sizes.add(n))) {
            List<CompletableFuture<String>> out = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                out.add(b.submit(i));
            }
            for (int i = 0; i < 10; i++) {
                assertThat(out.get(i).get(5, TimeUnit.SECONDS)).isEqualTo("frame-" + i);
            }
        }
        assertThat(sizes).containsExactly(4, 4, 2);
    }

    @Test
    void aLoneRequestWaitsNoLongerThanTheMaximumWait() throws Exception {
        try (MicroBatcher<Integer, Integer> b = new MicroBatcher<>("test", 16, 50, in -> in, (n, nanos) -> { })) {
            long start = System.nanoTime();
            assertThat(b.submit(7).get(5, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(1_000);
        }
    }

    @Test
    void aFailingBatchFailsItsRequestsAndTheNextBatchStillRuns() throws Exception {
        try (MicroBatcher<Integer, Integer> b = new MicroBatcher<>("test", 1, 10, in -> {
            if (in.get(0) < 0) {
                throw new IllegalArgumentException("negative frame");
            }
            return in;
        }, (n, nanos) -> { })) {
            CompletableFuture<Integer> bad = b.submit(-1);
            assertThatThrownBy(() -> bad.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("negative frame");
            assertThat(b.submit(3).get(5, TimeUnit.SECONDS)).isEqualTo(3);
        }
    }
}
