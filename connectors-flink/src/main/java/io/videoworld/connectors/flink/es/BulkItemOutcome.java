package io.videoworld.connectors.flink.es;

/**
 * What the sink does with one bulk item's result. A version conflict means a newer write is
 * already there (external versioning), so it counts as done; overload and server errors are
 * retried; a document refused for its content (a mapping error, an immense keyword, a date out of
 * range: HTTP 400 or 413) becomes a dead letter and the job goes on; anything else (auth, a
 * missing index) is systemic, and no document can fix it, so the job stops with that reason.
 */
public enum BulkItemOutcome {
    DONE,
    RETRY,
    DEAD_LETTER,
    FATAL;

    /** Errors a 400 can carry that are about the cluster or the index, not the document. */
    private static final java.util.Set<String> SYSTEMIC = java.util.Set.of("index_closed_exception", "index_not_found_exception",
            "cluster_block_exception", "security_exception", "invalid_index_name_exception");

    /** Classifies an item by HTTP status and error type; a systemic type is fatal whatever its status. */
    public static BulkItemOutcome of(int status, String errorType) {
        BulkItemOutcome byStatus = of(status);
        return byStatus == DEAD_LETTER && errorType != null && SYSTEMIC.contains(errorType) ? FATAL : byStatus;
    }

    /** Classifies an item by HTTP status; status 0 stands for no response at all. */
    public static BulkItemOutcome of(int status) {
        if (status >= 200 && status < 300) {
            return DONE;
        }
        if (status == 409) {
            return DONE;
        }
        if (status == 0 || status == 408 || status == 429 || status >= 500) {
            return RETRY;
        }
        if (status == 400 || status == 413) {
            return DEAD_LETTER;
        }
        return FATAL;
    }
}
