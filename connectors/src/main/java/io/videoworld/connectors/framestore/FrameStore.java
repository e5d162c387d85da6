package io.videoworld.connectors.framestore;

import java.io.IOException;
import java.util.Optional;

/**
 * Where keyframe JPEGs live, addressed by {@link io.videoworld.core.Keyframe#storeKey()}. The
 * location is a URI ({@code file://} for a local or mounted directory, {@code s3://}, {@code hdfs://}, ...)
 * served by Flink's FileSystem and its plugins, so the job's task managers and the query service
 * share keyframes without sharing a disk; a plain path is a local directory.
 */
public interface FrameStore {

    /** Stores the bytes under the key, replacing what was there (replays write the same bytes). */
    void put(String key, byte[] jpeg) throws IOException;

    /** The bytes under the key, or empty when there are none. */
    Optional<byte[]> get(String key) throws IOException;

    /** Removes the bytes under the key; a key with none is no error. */
    void delete(String key) throws IOException;

    /** Removes every key under {@code streamId + "/"}: all a stream's stored frames. */
    void deleteStream(String streamId) throws IOException;

    /**
     * A store from a location: a plain directory path is read and written directly; any URI
     * ({@code file://} included) goes through Flink's FileSystem, the same way in the job that writes
     * and the query service that reads. Files are encrypted when {@code VW_FRAME_STORE_KEY} is set.
     */
    static FrameStore open(String location) {
        java.net.URI uri = uriOf(location);
        FrameStore plain = uri == null ? new LocalFrameStore(java.nio.file.Path.of(location)) : new FlinkFileSystemFrameStore(uri);
        byte[] key = EncryptedFrameStore.key(System.getenv(EncryptedFrameStore.KEY_ENV)); // encrypted at rest only when a key is set
        return key == null ? plain : new EncryptedFrameStore(plain, key);
    }

    /** The location as a URI with a scheme, or null for a plain path. */
    static java.net.URI uriOf(String location) {
        if (!location.matches("^[A-Za-z][A-Za-z0-9+.-]+:/.*")) {
            return null;
        }
        return java.net.URI.create(location);
    }
}
