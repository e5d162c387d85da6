package io.videoworld.connectors.esread;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The read side's caches: one read for many concurrent misses, stale answers while renewing, and tails read after the settled part. */
class ReadCachesTest {
    @Test
    void concurrentMissesOfOneKeyShareOneRead() throws Exception {
        TtlCache<String, Integer> cache = new TtlCache<>(60_000);
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(pool.submit(() -> cache.get("k", k -> {
                    reads.incrementAndGet();
                    pause(release);
                    return 42;
                })));
            }
            Thread.sleep(200);
            release.countDown();
            for (Future<Integer> f : answers) {
                assertThat(f.get()).isEqualTo(42);
            }
            assertThat(reads.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExpiredEntryAnswersAtOnceWhileOneBackgroundReadRenewsIt() throws Exception {
        TtlCache<String, Integer> cache = new TtlCache<>(50);
        AtomicInteger reads = new AtomicInteger();
        assertThat(cache.get("k", k -> reads.incrementAndGet())).isEqualTo(1);
        Thread.sleep(80);
        // Expired but within the grace: the old value, and the renewal runs elsewhere.
        assertThat(cache.get("k", k -> {
            pause(new CountDownLatch(1), 300);
            return reads.incrementAndGet();
        })).isEqualTo(1);
        long deadline = System.currentTimeMillis() + 5_000;
        while (reads.get() < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        // The renewal is stored just after its read returns, on the reading thread.
        Thread.sleep(50);
        assertThat(cache.get("k", k -> reads.incrementAndGet())).isEqualTo(2);
        // Long past the grace, the read happens in line and its answer is the one returned.
        Thread.sleep(TtlCache.STALE_GRACE_MS + 200);
        int inLine = cache.get("k", k -> reads.incrementAndGet() * 100);
        assertThat(inLine).isGreaterThanOrEqualTo(300).isEqualTo(reads.get() * 100);
    }

    private static void pause(CountDownLatch latch) {
        pause(latch, 10_000);
    }

    private static void pause(CountDownLatch latch, long ms) {
        try {
            latch.await(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A document of a stream: position, whether it can still change, and a version to see which read it came from. */
    record Doc(long pos, boolean fixed, int version) {}

    @Test
    void onlyTheTailAfterTheSettledFixedPrefixIsReadAgain() throws Exception {
        List<Doc> index = new ArrayList<>(List.of(new Doc(0, true, 1), new Doc(10, true, 1), new Doc(20, false, 1)));
        List<Long> asked = new ArrayList<>();
        TailCache<String, Doc> cache = new TailCache<>(1, Doc::pos, Doc::fixed);
        TailCache.TailReader<Doc> reader = after -> {
            asked.add(after);
            return new ArrayList<>(index.stream().filter(d -> after == null || d.pos() > after).toList());
        };
        assertThat(cache.get("s", reader)).hasSize(3);
        // Nothing has settled yet: everything is read again, and a late document before the others is picked up.
        index.add(1, new Doc(5, true, 1));
        Thread.sleep(TtlCache.STALE_GRACE_MS + 50); // past the grace, so the read is in line
        assertThat(cache.get("s", reader)).extracting(Doc::pos).containsExactly(0L, 5L, 10L, 20L);
        assertThat(asked).containsExactly(null, null);
        Thread.sleep(TailCache.SETTLE_MS + 100);
        // Settled: the fixed documents are kept; the open one (20) and what follows it are read again, with its new version.
        index.set(3, new Doc(20, false, 2));
        index.add(new Doc(30, true, 1));
        List<Doc> now = cache.get("s", reader);
        assertThat(asked.get(asked.size() - 1)).isEqualTo(10L);
        assertThat(now).extracting(Doc::pos).containsExactly(0L, 5L, 10L, 20L, 30L);
        assertThat(now.get(3).version()).isEqualTo(2);
    }

    @Test
    void withoutCachingEveryCallReadsEverything() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        TailCache<String, Doc> cache = new TailCache<>(0, Doc::pos, Doc::fixed);
        for (int i = 0; i < 3; i++) {
            assertThat(cache.get("s", after -> {
                assertThat(after).isNull();
                reads.incrementAndGet();
                return List.of(new Doc(0, true, 1));
            })).hasSize(1);
        }
        assertThat(reads.get()).isEqualTo(3);
    }
}
