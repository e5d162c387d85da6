package io.videoworld.connectors.esread;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A writer's own writes laid over lagging reads, for a while; and the same write again skipped only while it is known to stand. */
class OwnWritesTest {
    record Item(String id, long at, String text) {}

    private static List<Item> overlay(OwnWrites<Item> w, String stream, List<Item> read) {
        return w.overlay(stream, read, Item::id, Comparator.comparingLong(Item::at));
    }

    @Test
    void aWriteIsLaidOverAStaleReadInItsPlaceAndOnlyForItsStream() {
        OwnWrites<Item> w = new OwnWrites<>(60_000, 60_000);
        List<Item> read = List.of(new Item("a", 10, "old a"), new Item("c", 30, "c"));
        w.put("s1:b", "s1", "b-body", new Item("b", 20, "new b"));
        w.put("s1:a", "s1", "a-body", new Item("a", 10, "new a"));
        w.put("s1:z", "s1", "z-body", new Item("z", 30, "z"));
        w.put("s2:x", "s2", "x-body", new Item("x", 5, "x"));

        assertThat(overlay(w, "s1", read)).extracting(Item::text).containsExactly("new a", "new b", "c", "z");
        assertThat(overlay(w, "s3", read)).isEqualTo(read);
        assertThat(w.recent("s1:a")).map(Item::text).contains("new a");
        assertThat(w.recent("s1:q")).isEmpty();
    }

    @Test
    void writesStopBeingLaidOverAfterTheKeepWindow() throws Exception {
        OwnWrites<Item> w = new OwnWrites<>(100, 60_000);
        w.put("s:a", "s", "body", new Item("a", 1, "a"));
        assertThat(overlay(w, "s", List.of())).hasSize(1);
        Thread.sleep(150);
        assertThat(overlay(w, "s", List.of())).isEmpty();
        assertThat(w.recent("s:a")).isEmpty();
        // Still known as written: the writer checks that it exists rather than writing it blind.
        assertThat(w.writtenBefore("s:a", "body")).isTrue();
    }

    @Test
    void theSameWriteIsSkippedOnlyWithinTheVerifyWindowAndAfterAVerification() throws Exception {
        OwnWrites<Item> w = new OwnWrites<>(60_000, 100);
        w.put("s:a", "s", "body", new Item("a", 1, "a"));
        assertThat(w.unchanged("s:a", "body")).isTrue();
        assertThat(w.unchanged("s:a", "other body")).isFalse();
        assertThat(w.writtenBefore("s:a", "other body")).isFalse();
        Thread.sleep(150);
        assertThat(w.unchanged("s:a", "body")).as("past the window it must be checked again").isFalse();
        w.verified("s:a");
        assertThat(w.unchanged("s:a", "body")).isTrue();
        OwnWrites<Item> never = new OwnWrites<>(60_000, 0);
        never.put("s:a", "s", "body", new Item("a", 1, "a"));
        assertThat(never.unchanged("s:a", "body")).as("a repository without caching always checks").isFalse();
    }

    @Test
    void aDeletedStreamsWritesAreForgotten() {
        OwnWrites<Item> w = new OwnWrites<>(60_000, 60_000);
        w.put("s:a", "s", "body", new Item("a", 1, "a"));
        w.put("t:b", "t", "body", new Item("b", 1, "b"));
        w.forgetStream("s");
        assertThat(w.recent("s:a")).isEmpty();
        assertThat(w.unchanged("s:a", "body")).isFalse();
        assertThat(w.writtenBefore("s:a", "body")).isFalse();
        assertThat(w.recent("t:b")).isPresent();
    }
}
