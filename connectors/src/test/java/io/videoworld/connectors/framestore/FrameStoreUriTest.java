package io.videoworld.connectors.framestore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameStoreUriTest {
    @TempDir
    Path dir;

    @Test
    void plainPathsAreLocalEveryUriGoesThroughFlink() {
        assertInstanceOf(LocalFrameStore.class, FrameStore.open(dir.toString()));
        assertInstanceOf(FlinkFileSystemFrameStore.class, FrameStore.open(dir.toUri().toString()));
        assertInstanceOf(FlinkFileSystemFrameStore.class, FrameStore.open("s3://bucket/frames"));
        assertInstanceOf(FlinkFileSystemFrameStore.class, FrameStore.open("hdfs://nn:8020/frames"));
    }

    @Test
    void flinkFileSystemStoreWritesReplacesAndReads() throws Exception {
        FrameStore store = new FlinkFileSystemFrameStore(dir.resolve("fs").toUri());
        store.put("s1/0001.jpg", new byte[] {1, 2, 3});
        store.put("s1/0001.jpg", new byte[] {4, 5}); // a replay replaces
        assertArrayEquals(new byte[] {4, 5}, store.get("s1/0001.jpg").orElseThrow());
        assertTrue(store.get("s1/missing.jpg").isEmpty());
        try (var files = Files.list(dir.resolve("fs/s1"))) {
            assertTrue(files.allMatch(p -> p.getFileName().toString().equals("0001.jpg")), "no temporary file is left");
        }
        // the same bytes through a second store at the same URI (as the query service opens it), and as a plain directory
        assertArrayEquals(new byte[] {4, 5}, FrameStore.open(dir.resolve("fs").toUri().toString()).get("s1/0001.jpg").orElseThrow());
        assertArrayEquals(new byte[] {4, 5}, FrameStore.open(dir.resolve("fs").toString()).get("s1/0001.jpg").orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> store.put("../x.jpg", new byte[] {1}));
    }
}
