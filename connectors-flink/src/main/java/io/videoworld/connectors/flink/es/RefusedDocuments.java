package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsWrite;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.nio.charset.StandardCharsets;

/**
 * Turns a write Elasticsearch refused for its content into a document of the dead-letter index
 * {@code vw-dead-letters}: the target index, id, version, status, error and the refused source,
 * so nothing is lost and the refusal can be read, fixed and replayed. The id is derived from the
 * refused write, so a replay after a restart rewrites the same dead letter.
 */
public final class RefusedDocuments {
    /** Sources are kept whole up to this size; the sink refuses records past 1 MiB. */
    static final int MAX_SOURCE_CHARS = 512 * 1024;

    private RefusedDocuments() {}

    /**
     * The write itself when it fits the sink's record limit, else its dead letter (status 413).
     * Event time stands in for the failure time so a replay writes the same dead letter.
     */
    public static EsWrite fitting(EsWrite w, long maxRecordBytes) {
        if (w.isDelete() || w.json().length + w.id().length() + 64L <= maxRecordBytes) {
            return w;
        }
        return deadLetter(w, 413, "record_too_large", "document of " + w.json().length + " bytes is over the sink's limit of "
                + maxRecordBytes, 0);
    }

    /** The dead-letter write for {@code refused}. */
    public static EsWrite deadLetter(EsWrite refused, int status, String errorType, String reason, long failedAtMs) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("index", refused.index());
        node.put("doc_id", refused.id());
        node.put("version", refused.version());
        node.put("status", status);
        node.put("error_type", errorType);
        node.put("reason", reason);
        int colon = refused.id().indexOf(':');
        node.put("stream_id", colon > 0 ? refused.id().substring(0, colon) : refused.id());
        if (refused.json() != null) {
            String source = new String(refused.json(), StandardCharsets.UTF_8);
            node.put("source", source.length() > MAX_SOURCE_CHARS ? source.substring(0, MAX_SOURCE_CHARS) + "...(truncated)" : source);
        }
        node.put("failed_at_ms", failedAtMs);
        String id = refused.index() + "/" + refused.id() + "/v" + refused.version();
        if (id.length() > 500) {
            // Elasticsearch ids are at most 512 bytes; the hash keeps a long id deterministic.
            id = id.substring(0, 400) + "#" + Integer.toHexString(id.hashCode());
        }
        try {
            return new EsWrite(Names.DEAD_LETTERS_INDEX, id, EsWrite.UNVERSIONED, Json.MAPPER.writeValueAsBytes(node));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a dead letter", e);
        }
    }
}
