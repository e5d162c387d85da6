package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The few reads of Flink's REST API the stack bench needs: job state, operator metrics summed over subtasks, checkpoint sizes by vertex. */
final class FlinkRest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String job;

    FlinkRest(int port, String job) {
        this.base = "http://127.0.0.1:" + port;
        this.job = job;
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return Json.MAPPER.readTree(r.body());
    }

    /** Whether every vertex of the job runs (its operators opened, models loaded). */
    boolean running() throws Exception {
        JsonNode vertices;
        try {
            vertices = get("/jobs/" + job).path("vertices");
        } catch (IllegalStateException | java.io.IOException e) {
            return false; // not submitted yet
        }
        for (JsonNode v : vertices) {
            if (!"RUNNING".equals(v.path("status").asText())) {
                return false;
            }
        }
        return !vertices.isEmpty();
    }

    private Map<String, String> vertexNames() throws Exception {
        Map<String, String> names = new LinkedHashMap<>();
        for (JsonNode v : get("/jobs/" + job).path("vertices")) {
            names.put(v.path("id").asText(), v.path("name").asText());
        }
        return names;
    }

    /** An operator metric (a counter) summed over every operator and subtask that reports it; 0 when none does. */
    long sum(String metric) throws Exception {
        long total = 0;
        for (String vertex : vertexNames().keySet()) {
            String path = "/jobs/" + job + "/vertices/" + vertex + "/subtasks/metrics";
            List<String> ids = new ArrayList<>();
            for (JsonNode m : get(path)) {
                String id = m.path("id").asText();
                if (id.equals(metric) || id.endsWith("." + metric)) {
                    ids.add(id);
                }
            }
            if (ids.isEmpty()) {
                continue;
            }
            for (JsonNode m : get(path + "?agg=sum&get=" + URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8))) {
                total += (long) m.path("sum").asDouble();
            }
        }
        return total;
    }

    /** Bytes of the latest completed checkpoint by vertex name (its full state, not the increment), empty before one completes. */
    Map<String, Long> checkpointBytes() throws Exception {
        JsonNode latest = get("/jobs/" + job + "/checkpoints").path("latest").path("completed");
        Map<String, Long> out = new LinkedHashMap<>();
        if (latest.isMissingNode() || latest.isNull()) {
            return out;
        }
        JsonNode tasks = get("/jobs/" + job + "/checkpoints/details/" + latest.path("id").asLong()).path("tasks");
        Map<String, String> names = vertexNames();
        tasks.fields().forEachRemaining(e -> out.put(names.getOrDefault(e.getKey(), e.getKey()), e.getValue().path("state_size").asLong()));
        return out;
    }
}
