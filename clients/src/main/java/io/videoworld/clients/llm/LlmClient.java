package io.videoworld.clients.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.videoworld.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Chat completions against any OpenAI-compatible endpoint, with tool definitions, JSON mode,
 * a timeout per request, retries with backoff on timeouts, 429s and 5xx, and a cost counter.
 */
public final class LlmClient {
    private final LlmConfig config;
    private final HttpClient http;
    private final LlmUsage usage = new LlmUsage();
    /** Timeouts, 429s and 5xx are tried again, waiting 0.5 s and doubling up to 8 s. */
    private final RetryPolicy<Answer> retries;

    public LlmClient(LlmConfig config) {
        this.config = config;
        this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        this.retries = RetryPolicy.<Answer>builder().handle(IOException.class).handleResultIf(LlmClient::retryable)
                .withMaxRetries(config.maxRetries()).withBackoff(Duration.ofMillis(500), Duration.ofMillis(8_000)).build();
    }

    public LlmConfig config() {
        return config;
    }

    public LlmUsage usage() {
        return usage;
    }

    /** A tool the model may call: name, description and JSON schema of its arguments. */
    public record ToolSpec(String name, String description, JsonNode parameters) {}

    /**
     * One completion.
     *
     * @param tools tools offered to the model (may be empty)
     * @param jsonMode ask for a JSON object answer ({@code response_format}); endpoints that do
     *     not know it ignore it, and the caller still validates what comes back
     */
    public ChatMessage chat(List<ChatMessage> messages, List<ToolSpec> tools, boolean jsonMode) throws LlmException {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", config.model()).put("temperature", 0);
        ArrayNode msgs = body.putArray("messages");
        messages.forEach(m -> msgs.add(m.json()));
        if (!tools.isEmpty()) {
            ArrayNode ts = body.putArray("tools");
            for (ToolSpec t : tools) {
                ObjectNode fn = ts.addObject().put("type", "function").putObject("function");
                fn.put("name", t.name()).put("description", t.description()).set("parameters", t.parameters());
            }
        }
        if (jsonMode && tools.isEmpty()) {
            body.putObject("response_format").put("type", "json_object");
        }
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(config.baseUrl() + "/chat/completions"))
                .timeout(config.timeout()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (config.apiKey() != null && !config.apiKey().isBlank()) {
            req.header("Authorization", "Bearer " + config.apiKey());
        }
        Answer a;
        try {
            a = Failsafe.with(retries).get(() -> {
                HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
                // A cut-off answer does not parse: an IOException, tried again like a dropped connection.
                return new Answer(r, r.statusCode() == 200 ? Json.MAPPER.readTree(r.body()) : null);
            });
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new LlmException("interrupted", e.getCause());
            }
            usage.failed();
            throw new LlmException("the model endpoint failed after " + (config.maxRetries() + 1) + " attempts: " + e.getCause(), e.getCause());
        }
        HttpResponse<String> r = a.response();
        if (retryable(a)) {
            usage.failed();
            IOException last = new IOException("HTTP " + r.statusCode() + ": " + abbreviate(r.body()));
            throw new LlmException("the model endpoint failed after " + (config.maxRetries() + 1) + " attempts: " + last, last);
        }
        if (r.statusCode() != 200) {
            usage.failed();
            throw new LlmException("the model endpoint answered HTTP " + r.statusCode() + ": " + abbreviate(r.body()), null);
        }
        JsonNode message = a.json().path("choices").path(0).path("message");
        if (!message.isObject()) {
            usage.failed();
            throw new LlmException("the model endpoint answered without choices[0].message: " + abbreviate(r.body()), null);
        }
        usage.record(a.json().path("usage").path("prompt_tokens").asLong(), a.json().path("usage").path("completion_tokens").asLong());
        return new ChatMessage(message);
    }

    /** One answer of the endpoint, parsed when it is a 200. */
    private record Answer(HttpResponse<String> response, JsonNode json) {}

    /** Overload and server errors pass; any other answer is the model's last word. */
    private static boolean retryable(Answer a) {
        return a.response().statusCode() == 429 || a.response().statusCode() >= 500;
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
