package io.videoworld.clients.llm;

import java.util.concurrent.atomic.AtomicLong;

/** What the model has cost so far: calls, failed calls, and tokens as the endpoint reports them. */
public final class LlmUsage {
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong promptTokens = new AtomicLong();
    private final AtomicLong completionTokens = new AtomicLong();

    void record(long prompt, long completion) {
        calls.incrementAndGet();
        promptTokens.addAndGet(prompt);
        completionTokens.addAndGet(completion);
    }

    void failed() {
        failures.incrementAndGet();
    }

    public long calls() {
        return calls.get();
    }

    public long failures() {
        return failures.get();
    }

    public long promptTokens() {
        return promptTokens.get();
    }

    public long completionTokens() {
        return completionTokens.get();
    }

    /** A snapshot for responses and /health. */
    public java.util.Map<String, Long> snapshot() {
        return java.util.Map.of("calls", calls(), "failures", failures(), "prompt_tokens", promptTokens(),
                "completion_tokens", completionTokens());
    }
}
