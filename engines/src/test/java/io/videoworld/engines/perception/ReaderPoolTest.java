package io.videoworld.engines.perception;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * The readers of change-gated perception load their models on their own threads: the pool (and so the
 * operator's open()) does not wait for a load, a reader is free only once its load is done and handed
 * over on the caller's thread, and a load that fails is reported to the caller, not lost on the worker.
 */
class ReaderPoolTest {
    /** What a worker told: reader number, error, the thread it ran on. */
    private record Told(int worker, Throwable error, String thread) {}

    @Test
    void thePoolIsMadeWhileALoadRunsAndTheReaderIsFreeOnlyOnceHandedOver() throws Exception {
        CountDownLatch slowLoad = new CountDownLatch(1);
        BlockingQueue<Told> told = new LinkedBlockingQueue<>();
        try (ReaderPool pool = new ReaderPool(1, () -> {
            slowLoad.await();
            return null;
        }, "test readers", 0, (w, e) -> told.add(new Told(w, e, Thread.currentThread().getName())))) {
            assertThat(pool.hasFree()).as("made while its one reader is still loading").isFalse();
            assertThat(told.poll(200, MILLISECONDS)).as("nothing told before the load is done").isNull();
            slowLoad.countDown();
            Told t = told.poll(10, SECONDS);
            assertThat(t).isEqualTo(new Told(0, null, "test readers.0"));
            assertThat(pool.hasFree()).as("free only once handed over").isFalse();
            pool.ready(0);
            assertThat(pool.hasFree()).isTrue();
            assertThat(pool.take()).isZero();
        }
    }

    @Test
    void aLoadThatFailsIsToldWithItsError() throws Exception {
        BlockingQueue<Told> told = new LinkedBlockingQueue<>();
        try (ReaderPool pool = new ReaderPool(2, () -> {
            throw new java.io.FileNotFoundException("no OCR model");
        }, "failing readers", 0, (w, e) -> told.add(new Told(w, e, Thread.currentThread().getName())))) {
            Told first = told.poll(10, SECONDS);
            Told second = told.poll(10, SECONDS);
            assertThat(java.util.List.of(first.worker(), second.worker())).containsExactlyInAnyOrder(0, 1);
            assertThat(first.error()).hasMessage("no OCR model");
            assertThat(second.error()).hasMessage("no OCR model");
            assertThat(pool.hasFree()).isFalse();
        }
    }

    @Test
    void withoutWorkersTheReaderIsLoadedOnTheCallersThreadAndFreeAtOnce() throws Exception {
        String[] loadedOn = new String[1];
        try (ReaderPool pool = new ReaderPool(0, () -> {
            loadedOn[0] = Thread.currentThread().getName();
            return null;
        }, "unused", 0, (w, e) -> { throw new AssertionError("a pool without workers tells nothing"); })) {
            assertThat(loadedOn[0]).isEqualTo(Thread.currentThread().getName());
            assertThat(pool.hasFree()).isTrue();
            assertThat(pool.threaded()).isFalse();
        }
    }
}
