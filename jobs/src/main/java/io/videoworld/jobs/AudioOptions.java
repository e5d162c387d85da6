package io.videoworld.jobs;

import io.videoworld.core.Names;
import io.videoworld.operators.audio.RecognizerSettings;
import io.videoworld.engines.audio.SpeechSegmenter;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** Settings of the audio branch: voice activity, the recogniser and the transcripts index. */
public final class AudioOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.audio.enabled")
            .booleanType().defaultValue(false)
            .withDescription("Read audio chunks from the audio topic, find speech with Silero VAD, recognise it and index it in vw-transcripts.");
    public static final ConfigOption<String> TOPIC = ConfigOptions.key("vw.kafka.audio-topic")
            .stringType().defaultValue(Names.AUDIO_TOPIC).withDescription("Topic of audio chunks, keyed by stream id.");
    public static final ConfigOption<String> RECOGNIZER = ConfigOptions.key("vw.audio.recognizer")
            .stringType().defaultValue(RecognizerSettings.SPHINX)
            .withDescription("Speech recogniser: sphinx (CMU Sphinx4 US English, embedded and offline) or openai (an OpenAI-compatible "
                    + "transcription endpoint at vw.audio.asr-url).");
    public static final ConfigOption<String> ASR_URL = ConfigOptions.key("vw.audio.asr-url")
            .stringType().defaultValue("").withDescription("Base URL, ending in /v1, of the transcription endpoint for the openai recogniser.");
    public static final ConfigOption<String> ASR_MODEL = ConfigOptions.key("vw.audio.asr-model")
            .stringType().defaultValue("whisper-1").withDescription("Model name sent to the transcription endpoint.");
    public static final ConfigOption<String> ASR_API_KEY = ConfigOptions.key("vw.audio.asr-api-key")
            .stringType().defaultValue("").withDescription("Bearer token for the transcription endpoint; empty sends none.");
    public static final ConfigOption<Duration> ASR_TIMEOUT = ConfigOptions.key("vw.audio.asr-timeout")
            .durationType().defaultValue(Duration.ofSeconds(60)).withDescription("Longest wait for the transcription endpoint per stretch of speech.");
    public static final ConfigOption<Double> VAD_THRESHOLD = ConfigOptions.key("vw.audio.vad-threshold")
            .doubleType().defaultValue(SpeechSegmenter.Params.DEFAULT.threshold())
            .withDescription("Speech probability at which a stretch of speech starts; it ends 0.15 below.");
    public static final ConfigOption<Duration> MIN_SILENCE = ConfigOptions.key("vw.audio.min-silence")
            .durationType().defaultValue(Duration.ofMillis(SpeechSegmenter.Params.DEFAULT.minSilenceMs()))
            .withDescription("Silence that ends a stretch of speech.");
    public static final ConfigOption<Duration> MIN_SPEECH = ConfigOptions.key("vw.audio.min-speech")
            .durationType().defaultValue(Duration.ofMillis(SpeechSegmenter.Params.DEFAULT.minSpeechMs()))
            .withDescription("Shortest speech kept; shorter stretches are dropped as clicks.");
    public static final ConfigOption<Duration> MAX_SPEECH = ConfigOptions.key("vw.audio.max-speech")
            .durationType().defaultValue(Duration.ofMillis(SpeechSegmenter.Params.DEFAULT.maxSpeechMs()))
            .withDescription("Longest stretch sent to the recogniser at once; longer speech is cut and goes on in the next.");
    public static final ConfigOption<Duration> IDLE = ConfigOptions.key("vw.audio.idle")
            .durationType().defaultValue(Duration.ofSeconds(10))
            .withDescription("Event time without audio after which a stream's open speech is recognised and its state cleared.");

    private AudioOptions() {}

    /** The recogniser as configured. */
    public static RecognizerSettings recognizer(Configuration conf) {
        return new RecognizerSettings(conf.get(RECOGNIZER), conf.get(ASR_URL), conf.get(ASR_MODEL), conf.get(ASR_API_KEY), conf.get(ASR_TIMEOUT));
    }

    /** The segmenter's parameters as configured. */
    public static SpeechSegmenter.Params segmenter(Configuration conf) {
        return new SpeechSegmenter.Params(conf.get(VAD_THRESHOLD), conf.get(MIN_SILENCE).toMillis(), conf.get(MIN_SPEECH).toMillis(),
                conf.get(MAX_SPEECH).toMillis());
    }
}
