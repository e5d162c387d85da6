package io.videoworld.connectors.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;

/**
 * Chat completions against any OpenAI-compatible endpoint, with tool definitions, JSON mode,
 * a timeout per request, retries with backoff on timeouts, 429s and 5xx, and a cost counter.
 */
public final class LlmClient {
    private final LlmConfig config;
    private final HttpClient http;
    private final LlmUsage usage = new LlmUsage();

    public LlmClient(LlmConfig config) {
        this.config = config;
        this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
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
        Exception last = null;
        for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
            if (attempt > 0) {
                sleep(250L << Math.min(attempt, 5));
            }
            try {
                HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 429 || r.statusCode() >= 500) {
                    last = new IOException("HTTP " + r.statusCode() + ": " + abbreviate(r.body()));
                    continue;
                }
                if (r.statusCode() != 200) {
                    usage.failed();
                    throw new LlmException("the model endpoint answered HTTP " + r.statusCode() + ": " + abbreviate(r.body()), null);
                }
                JsonNode json = Json.MAPPER.readTree(r.body());
                JsonNode message = json.path("choices").path(0).path("message");
                if (!message.isObject()) {
                    usage.failed();
                    throw new LlmException("the model endpoint answered without choices[0].message: " + abbreviate(r.body()), null);
                }
                usage.record(json.path("usage").path("prompt_tokens").asLong(), json.path("usage").path("completion_tokens").asLong());
                return new ChatMessage(message);
            } catch (HttpTimeoutException e) {
                last = e;
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LlmException("interrupted", e);
            }
        }
        usage.failed();
        throw new LlmException("the model endpoint failed after " + (config.maxRetries() + 1) + " attempts: " + last, last);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
