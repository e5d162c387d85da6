package io.videoworld.engines.sampling;

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
    void aLimitAskedAsEachBatchStartsCapsItBetweenOneAndTheMaximum() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        java.util.Iterator<Integer> limits = List.of(1, 0, 100, 2, 100).iterator();
        java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
        // The first batch (one request) waits until every request is queued, so the later batches' sizes do not depend on timing.
        try (MicroBatcher<Integer, Integer> b = new MicroBatcher<>("test", 1, 4, () -> limits.hasNext() ? limits.next() : 100, 50, in -> {
            try {
                queued.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return in;
        }, (n, nanos) -> sizes.add(n), 0, 0)) {
            List<CompletableFuture<Integer>> out = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                out.add(b.submit(i));
            }
            queued.countDown();
            for (int i = 0; i < 12; i++) {
                assertThat(out.get(i).get(5, TimeUnit.SECONDS)).isEqualTo(i);
            }
        }
        assertThat(sizes).as("limits 1, 0 (still one), 100 (max-batch 4), 2, then the rest").containsExactly(1, 1, 4, 2, 4);
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

    @Test
    void twoWorkersRunTwoBatchesAtOnceAndEachRequestKeepsItsAnswer() throws Exception {
        // Each batch waits until a second batch is running beside it: one worker alone would never get past the first.
        java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
        try (MicroBatcher<Integer, String> b = new MicroBatcher<>("test", 2, 1, 0, in -> {
            try {
                both.await(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("no second batch ran at the same time", e);
            }
            return in.stream().map(i -> "frame-" + i).toList();
        }, (n, nanos) -> { }, 0, 1)) {
            List<CompletableFuture<String>> out = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                out.add(b.submit(i));
            }
            for (int i = 0; i < 6; i++) {
                assertThat(out.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("frame-" + i);
            }
        }
    }
}
