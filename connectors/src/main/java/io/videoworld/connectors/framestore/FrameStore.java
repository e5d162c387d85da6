package io.videoworld.connectors.framestore;

import java.io.IOException;
import java.util.Optional;

/**
 * Where keyframe JPEGs live, addressed by {@link io.videoworld.core.Keyframe#storeKey()}. The
 * local directory store is the default; an S3-compatible store can stand behind the same
 * interface for clusters whose task managers share no disk.
 */
public interface FrameStore {

    /** Stores the bytes under the key, replacing what was there (replays write the same bytes). */
    void put(String key, byte[] jpeg) throws IOException;

    /** The bytes under the key, or empty when there are none. */
    Optional<byte[]> get(String key) throws IOException;

    /** A store from a location: a local directory path (the only kind so far). */
    static FrameStore open(String location) {
        return new LocalFrameStore(java.nio.file.Path.of(location));
    }
}
