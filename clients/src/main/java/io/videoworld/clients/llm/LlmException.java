package io.videoworld.clients.llm;

/** The model could not be reached or answered with an error after all retries. */
public final class LlmException extends Exception {
    public LlmException(String message, Throwable cause) {
        super(message, cause);
    }
}
