package io.videoworld.query.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The looks cache of query_entity_state: one read per box, bounded by bytes, a deleted stream and a re-push not answered from it. */
class EntityLooksTest {
    private static final double[] BOX = {0.1, 0.2, 0.3, 0.4};

    private static EntityLooks.Look look(int bytes) {
        return new EntityLooks.Look(new byte[bytes], "red", 640, 360);
    }

    @Test
    void concurrentCallersOfOneBoxShareOneReadAndLaterCallsReadNothing() throws Exception {
        EntityLooks looks = new EntityLooks(1 << 20);
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch inRead = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        String key = EntityLooks.key("s", 1, 1000, BOX);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<EntityLooks.Look>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(pool.submit(() -> looks.get(key, () -> {
                    reads.incrementAndGet();
                    inRead.countDown();
                    try {
                        release.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    return look(100);
                })));
            }
            assertThat(inRead.await(5, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100); // the other callers reach the shared read
            release.countDown();
            EntityLooks.Look first = calls.get(0).get(5, TimeUnit.SECONDS);
            for (Future<EntityLooks.Look> c : calls) {
                assertThat(c.get(5, TimeUnit.SECONDS)).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(looks.get(key, () -> {
            throw new AssertionError("a held look is not read again");
        }).colour()).isEqualTo("red");
        assertThat(reads).hasValue(1);
    }

    @Test
    void theLeastRecentlyUsedLooksLeaveOnceTheBytesAreOverTheBound() throws Exception {
        EntityLooks looks = new EntityLooks(3 * (1000 + 64));
        for (int t = 0; t < 3; t++) {
            looks.get(EntityLooks.key("s", 1, t, BOX), () -> look(1000));
        }
        looks.get(EntityLooks.key("s", 1, 0, BOX), () -> look(1000)); // used: now the most recent
        looks.get(EntityLooks.key("s", 1, 3, BOX), () -> look(1000));
        assertThat(looks.size()).isEqualTo(3);
        assertThat(looks.bytes()).isLessThanOrEqualTo(3 * (1000 + 64));
        AtomicInteger reads = new AtomicInteger();
        looks.get(EntityLooks.key("s", 1, 0, BOX), () -> { reads.incrementAndGet(); return look(1000); });
        assertThat(reads).as("time 0 was used last, so time 1 left instead").hasValue(0);
        looks.get(EntityLooks.key("s", 1, 1, BOX), () -> { reads.incrementAndGet(); return look(1000); });
        assertThat(reads).hasValue(1);
        // A look larger than the whole bound is answered but never held.
        looks.get(EntityLooks.key("s", 1, 9, BOX), () -> look(10_000));
        assertThat(looks.size()).isEqualTo(3);
    }

    @Test
    void aDeletedStreamOrARepushIsReadAgainAndAFailureIsNotHeld() throws Exception {
        EntityLooks looks = new EntityLooks(1 << 20);
        AtomicInteger reads = new AtomicInteger();
        EntityLooks.Reader read = () -> { reads.incrementAndGet(); return look(10); };
        looks.get(EntityLooks.key("cam", 1, 500, BOX), read);
        looks.get(EntityLooks.key("cam-2", 1, 500, BOX), read);
        looks.get(EntityLooks.key("cam", 2, 500, BOX), read); // a re-push: another epoch
        assertThat(reads).hasValue(3);
        looks.forgetStream("cam");
        assertThat(looks.size()).as("only the other stream's look is left").isEqualTo(1);
        looks.get(EntityLooks.key("cam", 1, 500, BOX), read);
        looks.get(EntityLooks.key("cam-2", 1, 500, BOX), read);
        assertThat(reads).hasValue(4);
        String key = EntityLooks.key("cam", 1, 900, BOX);
        assertThatThrownBy(() -> looks.get(key, () -> { throw new IOException("frame store down"); })).hasMessage("frame store down");
        looks.get(key, read);
        assertThat(reads).as("the failure was not remembered").hasValue(5);
    }

    @Test
    void aReadUnderWayWhenItsStreamIsDeletedIsNotHeld() throws Exception {
        EntityLooks looks = new EntityLooks(1 << 20);
        String key = EntityLooks.key("cam", 1, 500, BOX);
        looks.get(key, () -> {
            looks.forgetStream("cam");
            return look(10);
        });
        assertThat(looks.size()).isZero();
    }
}
