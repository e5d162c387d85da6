package io.videoworld.connectors.es;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.VideoDoc;

/** Turns domain documents into sink writes: index, deterministic id, version and JSON. */
public final class EsDocuments {
    private EsDocuments() {}

    /** Frames never change once written, so a replay rewrites identical content unversioned. */
    public static EsWrite frame(FrameDoc doc) {
        return new EsWrite(Names.FRAMES_INDEX, doc.id(), EsWrite.UNVERSIONED, json(doc));
    }

    /**
     * A stream's document is rewritten after every batch; it is versioned by frames indexed plus
     * the idle flag, which only grow, so a late bulk request cannot roll it back.
     */
    public static EsWrite video(VideoDoc doc) {
        long version = doc.framesIndexed() * 2 + (VideoDoc.IDLE.equals(doc.status()) ? 1 : 0);
        return new EsWrite(Names.VIDEOS_INDEX, doc.id(), version, json(doc));
    }

    private static byte[] json(Object doc) {
        try {
            return Json.MAPPER.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + doc, e);
        }
    }
}
