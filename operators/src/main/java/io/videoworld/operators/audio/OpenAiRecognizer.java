package io.videoworld.operators.audio;

import io.videoworld.media.audio.AudioTrack;
import io.videoworld.core.Cue;
import io.videoworld.clients.asr.Transcriber;
import io.videoworld.perception.audio.Recognition;
import io.videoworld.perception.audio.SpeechRecognizer;
import java.util.ArrayList;
import java.util.List;

/**
 * A recogniser behind an OpenAI-compatible {@code /v1/audio/transcriptions} endpoint (whisper.cpp's
 * server, faster-whisper servers, vLLM): the stretch is sent as a WAV; the endpoint's segments
 * become the text (it gives no word times). An answer other than 2xx, or no answer, is a failure.
 */
public final class OpenAiRecognizer implements SpeechRecognizer {
    private final Transcriber transcriber;

    public OpenAiRecognizer(Transcriber transcriber) {
        this.transcriber = transcriber;
    }

    @Override
    public String name() {
        return "openai:" + transcriber.model();
    }

    @Override
    public Recognition recognize(float[] samples) throws Exception {
        List<Cue> cues = transcriber.transcribe(AudioTrack.wav(samples, 0, samples.length), 0);
        List<String> texts = new ArrayList<>();
        for (Cue c : cues) {
            texts.add(c.text());
        }
        return new Recognition(String.join(" ", texts).trim(), List.of());
    }
}
