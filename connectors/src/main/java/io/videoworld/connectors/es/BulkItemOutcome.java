package io.videoworld.connectors.es;

/**
 * What the sink does with one bulk item's result. A version conflict means a newer write is
 * already there (external versioning), so it counts as done; overload and server errors are
 * retried; anything else means the document or mapping is wrong and retrying cannot help.
 */
public enum BulkItemOutcome {
    DONE,
    RETRY,
    FATAL;

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
        return FATAL;
    }
}
