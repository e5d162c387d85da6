package io.videoworld.clients.asr;

import io.videoworld.core.Cue;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * An OpenAI-compatible transcription endpoint ({@code POST {base}/audio/transcriptions},
 * multipart, {@code response_format=verbose_json}), as whisper.cpp's server, faster-whisper
 * servers, vLLM and hosted APIs offer it. Segments become cues; a response without segments
 * becomes one cue over the whole audio.
 */
public final class Transcriber {
    private final String baseUrl;
    private final String model;
    private final String apiKey;
    private final HttpClient http;
    private final Duration timeout;

    public Transcriber(String baseUrl, String model, String apiKey, Duration timeout) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.model = model;
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public String model() {
        return model;
    }

    /** Cues of a WAV, offset by {@code offsetSec}. */
    public List<Cue> transcribe(byte[] wav, double offsetSec) throws IOException, InterruptedException {
        String boundary = "vw-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        field(body, boundary, "model", model);
        field(body, boundary, "response_format", "verbose_json");
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"audio.wav\"\r\n"
                + "Content-Type: audio/wav\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(wav);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(baseUrl + "/audio/transcriptions")).timeout(timeout)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        if (apiKey != null && !apiKey.isBlank()) {
            req.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException("transcription endpoint answered " + r.statusCode() + ": " + r.body().substring(0, Math.min(200, r.body().length())));
        }
        JsonNode json = Json.MAPPER.readTree(r.body());
        List<Cue> out = new ArrayList<>();
        for (JsonNode s : json.path("segments")) {
            String text = s.path("text").asText("").trim();
            if (!text.isEmpty()) {
                double conf = s.has("avg_logprob") ? Math.exp(s.path("avg_logprob").asDouble()) : 0.8;
                out.add(new Cue(offsetSec + s.path("start").asDouble(), offsetSec + s.path("end").asDouble(), text,
                        s.path("speaker").asText(null), Math.round(conf * 1000) / 1000.0));
            }
        }
        if (out.isEmpty() && json.path("text").asText("").trim().length() > 0) {
            out.add(new Cue(offsetSec, offsetSec + json.path("duration").asDouble(0), json.path("text").asText().trim(), null, 0.8));
        }
        return out;
    }

    private static void field(ByteArrayOutputStream body, String boundary, String name, String value) {
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n")
                .getBytes(StandardCharsets.UTF_8));
    }
}
