package io.videoworld.query.api;

import java.util.List;

/**
 * Every HTTP endpoint besides the tools, described once: the server registers a route only if it is
 * listed here ({@link #require}) and {@link OpenApi} documents this list, so a new endpoint cannot
 * reach users without reaching {@code /openapi.json}.
 */
public final class Endpoints {
    private Endpoints() {}

    /**
     * One endpoint.
     *
     * @param method HTTP method in capitals
     * @param path OpenAPI path with {@code {param}} placeholders (Javalin's syntax is the same)
     * @param summary one line for the document
     * @param produces the success content type
     * @param body whether it takes a JSON body
     * @param open whether it is served without a bearer token
     */
    public record Endpoint(String method, String path, String summary, String produces, boolean body, boolean open) {}

    private static final String JSON = "application/json";
    private static final String SSE = "text/event-stream";
    private static final String HTML = "text/html";

    /** The list, in the order the document shows it. */
    public static final List<Endpoint> ALL = List.of(
            new Endpoint("GET", "/health", "Service, Elasticsearch and ingest job status; 503 when degraded", JSON, false, true),
            new Endpoint("GET", "/metrics", "Prometheus metrics: requests by route, tool and status, Elasticsearch calls, event streams, "
                    + "alert deliveries, refusals by limit, the JVM (docs/metrics.md)", "text/plain", false, true),
            new Endpoint("GET", "/openapi.json", "This document", JSON, false, true),
            new Endpoint("GET", "/docs", "A page that renders this document", HTML, false, true),
            new Endpoint("GET", "/timeline", "The timeline page: a stream's shots, scenes, events and tracks as lanes", HTML, false, true),
            new Endpoint("GET", "/v1/tools", "The tools this server answers, with their parameter schemas", JSON, false, false),
            new Endpoint("GET", "/v1/frames/{id}", "A frame's JPEG, optionally cropped and resized", "image/jpeg", false, false),
            new Endpoint("POST", "/v1/ask", "Answer a question with the Solver/Checker loop over the memory: the answer, its evidence clips "
                    + "and episode ids; server-sent events when stream=true", JSON, true, false),
            new Endpoint("GET", "/v1/streams", "The streams the caller may read, with counts, time span and retention", JSON, false, false),
            new Endpoint("DELETE", "/v1/streams/{id}", "Forget a stream: its documents in every index and its stored keyframes", JSON, false, false),
            new Endpoint("POST", "/v1/streams/{id}/forget", "Forget a time range of a stream, every place a phrase was read in it, or every moment an app was on screen, with a report of what went", JSON, true, false),
            new Endpoint("POST", "/v1/streams/budget", "Apply a storage budget once (administrators): the oldest stored keyframes go until each stream (of streams, patterns; default all) is within per_stream_bytes and all within total_bytes", JSON, true, false),
            new Endpoint("GET", "/v1/streams/{id}/exclusions", "A stream's exclusion rules, every version with the event time it applies from", JSON, false, false),
            new Endpoint("PUT", "/v1/streams/{id}/exclusions", "Set a stream's exclusion rules from now on (app:, title:, domain:, url:, private); the job applies them with vw.privacy.stream-rules", JSON, true, false),
            new Endpoint("GET", "/v1/streams/{id}/events", "Live server-sent events as shots, scenes, episodes and tracks are indexed", SSE, false, false),
            new Endpoint("GET", "/v1/streams/{id}/timeline", "The lanes the timeline page draws, as JSON", JSON, false, false),
            new Endpoint("GET", "/v1/people/{id}", "A named person's history replayed: name, tracks in each stream, activities, from when to when", JSON, false, false),
            new Endpoint("DELETE", "/v1/people/{id}", "Forget a person: names, history, tracks, activities and the frames they were seen in, in every stream", JSON, false, false),
            new Endpoint("POST", "/v1/alerts", "Register an alert: a condition on new events and a webhook to call", JSON, true, false),
            new Endpoint("GET", "/v1/alerts", "The caller's alerts", JSON, false, false),
            new Endpoint("DELETE", "/v1/alerts/{id}", "Remove an alert", JSON, false, false),
            new Endpoint("GET", "/v1/alerts/{id}/deliveries", "An alert's recent webhook deliveries and their outcome (limit 1-1000)", JSON, false, false),
            new Endpoint("POST", "/mcp", "The same tools over the Model Context Protocol (streamable HTTP)", JSON, true, false));

    /** The listed endpoint for {@code method} and {@code path}; a route not listed is a programming error. */
    public static Endpoint require(String method, String path) {
        return ALL.stream().filter(e -> e.method().equals(method) && e.path().equals(path)).findFirst()
                .orElseThrow(() -> new IllegalStateException(method + " " + path + " is served but not listed in Endpoints, "
                        + "so /openapi.json would not show it"));
    }
}
