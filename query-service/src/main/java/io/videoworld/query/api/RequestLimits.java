package io.videoworld.query.api;

/**
 * How much one request may ask of the query service. Every bound a client can hit is here, with
 * the default the service runs with; a request past one is answered 400 or 413 naming the bound.
 *
 * @param maxBodyBytes request body size (413 above it); uploaded images travel in the body
 * @param maxJsonDepth nesting of arrays and objects in a JSON body; the catalog's schemas need 4
 * @param maxIdLength ids other than stream ids ({@code frame_id}, {@code entity_id}, {@code event_ids}, …);
 *     stream ids ({@code video_id}, {@code stream_ids}) follow {@link io.videoworld.core.Ids#STREAM_ID}
 * @param maxStringLength any other string; 8000 characters stay under Elasticsearch's 32766-byte term
 *     limit even at 3 bytes a character
 * @param maxImageSide width and height an uploaded image may declare, and any image the service renders
 * @param maxImagePixels width × height an uploaded image may declare in its header
 * @param maxPixelsPerRequest pixels one request may make the service decode plus encode (frames ×
 *     width × height), so a single call cannot hold a core for seconds
 * @param bodyIdleTimeoutMs how long a blocked read of the request body waits for the next bytes
 */
public record RequestLimits(
        int maxBodyBytes,
        int maxJsonDepth,
        int maxIdLength,
        int maxStringLength,
        int maxImageSide,
        long maxImagePixels,
        long maxPixelsPerRequest,
        long bodyIdleTimeoutMs) {

    public RequestLimits {
        if (maxBodyBytes < 1 || maxJsonDepth < 4 || maxIdLength < 1 || maxStringLength < 1 || maxImageSide < 1
                || maxImagePixels < 1 || maxPixelsPerRequest < 1 || bodyIdleTimeoutMs < 1) {
            throw new IllegalArgumentException("request limits must be positive, and the JSON depth at least 4");
        }
    }

    /** The limits the service runs with unless told otherwise. */
    public static RequestLimits defaults() {
        return new RequestLimits(4 * 1024 * 1024, 32, 256, 8000, 8192, 40_000_000L, 150_000_000L, 10_000L);
    }

    /** The same limits with another body read timeout. */
    public RequestLimits withBodyIdleTimeoutMs(long ms) {
        return new RequestLimits(maxBodyBytes, maxJsonDepth, maxIdLength, maxStringLength, maxImageSide, maxImagePixels,
                maxPixelsPerRequest, ms);
    }
}
