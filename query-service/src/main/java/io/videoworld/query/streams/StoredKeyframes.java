package io.videoworld.query.streams;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.framestore.FrameStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;

/** Deleting a frame document's stored keyframe, for every path that forgets frames. */
public final class StoredKeyframes {
    private StoredKeyframes() {}

    /** Deletes the keyframe a frame document's {@code store_ref} names, if any, and counts it. */
    public static void delete(FrameStore frames, JsonNode doc, AtomicLong count) {
        String key = doc.path("store_ref").asText(null);
        if (key == null) {
            return;
        }
        try {
            frames.delete(key);
            count.incrementAndGet();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
