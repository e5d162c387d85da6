package io.videoworld.clients.llm;

import java.time.Duration;

/**
 * Where the language model is: any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server,
 * a hosted API). {@code baseUrl} is the part before {@code /chat/completions}, e.g.
 * {@code http://localhost:11434/v1}.
 *
 * @param baseUrl endpoint base URL
 * @param model model name sent with every request
 * @param apiKey bearer key, or null
 * @param timeout per-request timeout
 * @param maxRetries extra attempts after a timeout, a 429 or a 5xx
 * @param vision whether the model accepts images (base64 data URLs in user messages)
 */
public record LlmConfig(String baseUrl, String model, String apiKey, Duration timeout, int maxRetries, boolean vision) {

    public LlmConfig {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("LLM base URL is required");
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("LLM model is required");
        }
        baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }
}
