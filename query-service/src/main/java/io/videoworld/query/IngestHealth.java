package io.videoworld.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The ingest job as Flink's REST API reports it, for {@code /health}: its state, how often it
 * restarted in the last ten minutes, and the sums of its {@code vwDeadLetters} and
 * {@code vwPerceptionFailures} operator metrics. A job in a restart loop can show RUNNING most of
 * the time (region failover never leaves that state), so restarts are counted from the job's
 * exception history and its {@code numRestarts} metric. {@code audio} says whether the job runs its
 * speech operator (a vertex named {@link Names#SPEECH_STAGE}), read from the job's plan. Readings are reused for two seconds so
 * polling {@code /health} costs Flink nothing much.
 */
public final class IngestHealth {
    /** The name the ingest job runs under (LocalLauncher, docker-compose). */
    public static final String JOB_NAME = "videoworld-ingest";
    static final long WINDOW_MS = Duration.ofMinutes(10).toMillis();
    static final long CACHE_MS = 2_000;
    private static final Duration TIMEOUT = Duration.ofMillis(1_500);
    private static final Set<String> TERMINAL = Set.of("FINISHED", "CANCELED", "FAILED");

    /** One reading: the JSON for {@code ingest_job}, and why it is not healthy (null when it is). */
    public record Reading(Map<String, Object> json, String problem) {
        public boolean healthy() {
            return problem == null;
        }
    }

    private final String base;
    private final HttpClient http;
    private Reading cached;
    private long cachedAt;

    private IngestHealth(String base) {
        this.base = base;
        this.http = base == null ? null : HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** Reads the job from Flink's REST API at {@code flinkUrl}; null, blank or {@code none} turns the check off. */
    public static IngestHealth of(String flinkUrl) {
        if (flinkUrl == null || flinkUrl.isBlank() || flinkUrl.equalsIgnoreCase("none")) {
            return new IngestHealth(null);
        }
        URI uri = URI.create(flinkUrl.strip());
        if (uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().startsWith("http")) {
            throw new IllegalArgumentException("--flink-url must be an http(s) URL or 'none', not '" + flinkUrl + "'");
        }
        return new IngestHealth(flinkUrl.strip().replaceAll("/+$", ""));
    }

    /** The latest reading, at most {@link #CACHE_MS} old. */
    public synchronized Reading read() {
        long now = System.currentTimeMillis();
        if (cached == null || now - cachedAt >= CACHE_MS) {
            cached = fetch(now);
            cachedAt = System.currentTimeMillis();
        }
        return cached;
    }

    private Reading fetch(long now) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (base == null) {
            out.put("state", "not_configured");
            out.put("reason", "no Flink URL is configured (--flink-url none), so the ingest job is not checked");
            return new Reading(out, null);
        }
        out.put("flink_url", base);
        try {
            JsonNode job = pick(get("/jobs/overview").join().path("jobs"));
            if (job == null) {
                out.put("state", "not_found");
                out.put("reason", "Flink runs no job named '" + JOB_NAME + "'");
                return new Reading(out, "the ingest job is not running on Flink");
            }
            String id = job.path("jid").asText();
            String state = job.path("state").asText("UNKNOWN");
            long started = job.path("start-time").asLong(0);
            CompletableFuture<JsonNode> exceptions = get("/jobs/" + id + "/exceptions?maxExceptions=100");
            CompletableFuture<JsonNode> restartsMetric = get("/jobs/" + id + "/metrics?get=numRestarts");
            CompletableFuture<JsonNode> plan = get("/jobs/" + id);
            CompletableFuture<Long> deadLetters = operatorSum(id, "vwDeadLetters");
            CompletableFuture<Long> perceptionFailures = operatorSum(id, "vwPerceptionFailures");
            long numRestarts = -1;
            for (JsonNode m : restartsMetric.join()) {
                if ("numRestarts".equals(m.path("id").asText())) {
                    numRestarts = (long) m.path("value").asDouble(-1);
                }
            }
            int recent = 0;
            long lastFailure = 0;
            for (JsonNode e : exceptions.join().path("exceptionHistory").path("entries")) {
                long t = e.path("timestamp").asLong(0);
                lastFailure = Math.max(lastFailure, t);
                if (t >= now - WINDOW_MS) {
                    recent++;
                }
            }
            // A job younger than the window restarted numRestarts times within it; the history is
            // capped (web.exception-history-size), the metric is not.
            long restarts = started >= now - WINDOW_MS && numRestarts > recent ? numRestarts : recent;
            out.put("state", state);
            out.put("job_id", id);
            out.put("restarts_last_10_min", restarts);
            if (numRestarts >= 0) {
                out.put("restarts_total", numRestarts);
            }
            if (lastFailure > 0) {
                out.put("last_failure_at", Instant.ofEpochMilli(lastFailure).toString());
            }
            boolean audio = false;
            for (JsonNode v : plan.join().path("vertices")) {
                audio |= v.path("name").asText().contains(Names.SPEECH_STAGE);
            }
            out.put("audio", audio ? "on" : "off");
            out.put("dead_letters", deadLetters.join());
            out.put("perception_failures", perceptionFailures.join());
            String problem = null;
            String restarted = restarts == 0 ? null : "restarted " + restarts + " times in the last 10 minutes";
            if (!"RUNNING".equals(state)) {
                problem = "the ingest job is " + state + (restarted == null ? "" : " and " + restarted);
            } else if (restarted != null) {
                problem = "the ingest job " + restarted;
            }
            return new Reading(out, problem);
        } catch (RuntimeException e) {
            out.put("state", "unreachable");
            out.put("reason", reason(e));
            return new Reading(out, "Flink's REST API at " + base + " does not answer");
        }
    }

    /** The newest job named {@link #JOB_NAME}, preferring one that is not finished, cancelled or failed. */
    private static JsonNode pick(JsonNode jobs) {
        JsonNode best = null;
        for (JsonNode j : jobs) {
            if (!JOB_NAME.equals(j.path("name").asText())) {
                continue;
            }
            boolean live = !TERMINAL.contains(j.path("state").asText());
            boolean bestLive = best != null && !TERMINAL.contains(best.path("state").asText());
            if (best == null || (live && !bestLive)
                    || (live == bestLive && j.path("start-time").asLong() > best.path("start-time").asLong())) {
                best = j;
            }
        }
        return best;
    }

    /**
     * The sum over all subtasks of every operator metric called {@code name}: each vertex lists
     * its metrics as {@code <operator>.<name>}, and Flink sums each over the subtasks ({@code agg=sum}).
     */
    private CompletableFuture<Long> operatorSum(String jobId, String name) {
        return get("/jobs/" + jobId).thenCompose(job -> {
            List<CompletableFuture<Long>> parts = new ArrayList<>();
            for (JsonNode v : job.path("vertices")) {
                String prefix = "/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/subtasks/metrics";
                parts.add(get(prefix).thenCompose(list -> {
                    List<CompletableFuture<JsonNode>> values = new ArrayList<>();
                    for (JsonNode m : list) {
                        String metric = m.path("id").asText();
                        if (metric.equals(name) || metric.endsWith("." + name)) {
                            values.add(get(prefix + "?agg=sum&get=" + URLEncoder.encode(metric, StandardCharsets.UTF_8)));
                        }
                    }
                    return CompletableFuture.allOf(values.toArray(CompletableFuture[]::new)).thenApply(x -> {
                        long sum = 0;
                        for (CompletableFuture<JsonNode> f : values) {
                            for (JsonNode r : f.join()) {
                                sum += (long) r.path("sum").asDouble(0);
                            }
                        }
                        return sum;
                    });
                }));
            }
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                    .thenApply(x -> parts.stream().mapToLong(CompletableFuture::join).sum());
        });
    }

    private CompletableFuture<JsonNode> get(String path) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()).thenApply(r -> {
            if (r.statusCode() != 200) {
                throw new IllegalStateException("Flink answered HTTP " + r.statusCode() + " to " + path);
            }
            try {
                return Json.MAPPER.readTree(r.body());
            } catch (java.io.IOException e) {
                throw new IllegalStateException("Flink answered " + path + " with something that is not JSON");
            }
        });
    }

    private static String reason(Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                return "connection refused";
            }
            if (c instanceof HttpTimeoutException) {
                return "no answer within " + TIMEOUT.toMillis() + " ms";
            }
        }
        if (t instanceof IllegalStateException && t.getMessage() != null) {
            return t.getMessage();
        }
        return "no usable answer";
    }
}
