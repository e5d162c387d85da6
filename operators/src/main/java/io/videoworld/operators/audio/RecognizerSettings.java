package io.videoworld.operators.audio;

import io.videoworld.clients.asr.Transcriber;
import io.videoworld.perception.audio.SphinxRecognizer;
import io.videoworld.perception.audio.SpeechRecognizer;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;

/**
 * Which recogniser the speech operator runs: {@link #SPHINX}, embedded and offline, or
 * {@link #OPENAI}, any OpenAI-compatible {@code /v1/audio/transcriptions} endpoint at {@code url}.
 *
 * @param engine {@link #SPHINX} or {@link #OPENAI}
 * @param url the endpoint's base URL (ending in {@code /v1}), for {@link #OPENAI}
 * @param model the model name sent to the endpoint
 * @param apiKey bearer token, or empty
 * @param timeout per request
 */
public record RecognizerSettings(String engine, String url, String model, String apiKey, Duration timeout) implements Serializable {
    public static final String SPHINX = "sphinx";
    public static final String OPENAI = "openai";

    /** The embedded default. */
    public static RecognizerSettings sphinx() {
        return new RecognizerSettings(SPHINX, "", "", "", Duration.ofSeconds(60));
    }

    /** A new recogniser as set. */
    public SpeechRecognizer create() throws IOException {
        if (SPHINX.equals(engine)) {
            return new SphinxRecognizer();
        }
        if (OPENAI.equals(engine)) {
            if (url == null || url.isBlank()) {
                throw new IllegalArgumentException("the openai recogniser needs the endpoint's URL");
            }
            return new OpenAiRecognizer(new Transcriber(url, model, apiKey, timeout));
        }
        throw new IllegalArgumentException("unknown recogniser '" + engine + "' (sphinx or openai)");
    }
}
