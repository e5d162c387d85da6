package io.videoworld.operators.audio;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.videoworld.media.audio.AudioTrack;
import io.videoworld.core.AudioChunk;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.IngestedAudio;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.engines.audio.SpeechSegmenter;
import io.videoworld.engines.audio.SpeechState;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.PojoTestUtils;
import org.junit.jupiter.api.Test;

/** The speech operator over recorded speech (Debian alsa-utils' "front center"), with the embedded and the HTTP recogniser. */
class SpeechOperatorTest {
    private static final long EPOCH = 1_700_000_000_000L;
    private static final long IDLE = 5_000;

    private static float[] frontCenter() throws Exception {
        float[] clip = AudioTrack.read(ModelDirectory.samples().resolve("speech").resolve("Front_Center.wav").toString());
        float[] out = new float[clip.length + 3 * 16_000];
        System.arraycopy(clip, 0, out, 16_000, clip.length);
        return out;
    }

    private static List<AudioChunk> chunks(String stream, float[] samples) {
        List<AudioChunk> out = new ArrayList<>();
        for (int from = 0, seq = 0; from < samples.length; from += 16_000, seq++) {
            out.add(AudioChunk.s16(stream, seq, EPOCH, 10_000 + from / 16, samples, from, Math.min(samples.length, from + 16_000)));
        }
        return out;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, AudioChunk, TranscriptDoc> harness(RecognizerSettings settings) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new SpeechOperator(ModelDirectory.locate().toString(),
                settings, SpeechSegmenter.Params.DEFAULT, IDLE)), AudioChunk::streamId, Types.STRING);
        h.open();
        return h;
    }

    private static void feed(KeyedOneInputStreamOperatorTestHarness<String, AudioChunk, TranscriptDoc> h, List<AudioChunk> chunks) throws Exception {
        for (AudioChunk c : chunks) {
            h.processElement(new StreamRecord<>(c, c.eventTimeMs()));
        }
        h.processWatermark(new Watermark(chunks.get(chunks.size() - 1).eventTimeMs() + 1000 + IDLE));
    }

    @Test
    void recordsCrossingTheJobAreFlinkPojos() {
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(AudioChunk.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(IngestedAudio.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(TranscriptDoc.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(SpeechState.class);
    }

    @Test
    void sphinxTranscribesTheSpokenWordsAndLeavesNoStateBehind() throws Exception {
        var h = harness(RecognizerSettings.sphinx());
        feed(h, chunks("talk-1", frontCenter()));
        List<TranscriptDoc> out = h.extractOutputValues();
        System.out.println("transcripts: " + out);
        assertThat(out).hasSize(1);
        TranscriptDoc t = out.get(0);
        assertThat(t.status()).isEqualTo(TranscriptDoc.OK);
        assertThat(t.recognizer()).isEqualTo("sphinx4:en-us");
        assertThat(t.vad()).isEqualTo("silero-vad-v5");
        assertThat(t.text()).contains("center");
        assertThat(t.startMs()).isBetween(10_800L, 11_500L);
        assertThat(t.endMs()).isGreaterThan(t.startMs() + 500);
        assertThat(t.words()).isNotEmpty().allSatisfy(w -> assertThat(w.startMs()).isBetween(t.startMs(), t.endMs()));
        assertThat(t.id()).isEqualTo("talk-1:a:" + String.format("%012d", t.startMs()));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
    }

    @Test
    void theEndOfAudioMarkRecognisesWhatIsOpenAtOnceAndLeavesNoStateBehind() throws Exception {
        var h = harness(RecognizerSettings.sphinx());
        // The recording with one second of silence before it and none after: its stretch is still open at the last sample.
        float[] clip = AudioTrack.read(ModelDirectory.samples().resolve("speech").resolve("Front_Center.wav").toString());
        float[] samples = new float[16_000 + clip.length];
        System.arraycopy(clip, 0, samples, 16_000, clip.length);
        List<AudioChunk> chunks = chunks("talk-end", samples);
        for (AudioChunk c : chunks) {
            h.processElement(new StreamRecord<>(c, c.eventTimeMs()));
        }
        assertThat(h.extractOutputValues()).as("no silence has closed the stretch yet").isEmpty();
        AudioChunk last = chunks.get(chunks.size() - 1);
        AudioChunk end = AudioChunk.end("talk-end", last.seq() + 1, EPOCH, last.ptsMs() + last.durationMs());
        h.processElement(new StreamRecord<>(end, end.eventTimeMs()));
        List<TranscriptDoc> out = h.extractOutputValues();
        assertThat(out).as("recognised on the mark, with no watermark past it").singleElement()
                .satisfies(t -> assertThat(t.text()).contains("center"));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
    }

    @Test
    void anHttpRecogniserIsNamedAndItsFailureIsRecordedAsFailed() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        AtomicInteger status = new AtomicInteger(200);
        server.createContext("/v1/audio/transcriptions", ex -> {
            bodies.add(ex.getRequestBody().readAllBytes());
            byte[] answer = (status.get() == 200
                    ? "{\"text\":\"front center\",\"duration\":1.4,\"segments\":[{\"start\":0.0,\"end\":1.4,\"text\":\" front center\"}]}"
                    : "{\"error\":\"model not loaded\"}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status.get(), answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            var h = harness(new RecognizerSettings(RecognizerSettings.OPENAI, url, "whisper-1", "", Duration.ofSeconds(10)));
            feed(h, chunks("talk-2", frontCenter()));
            List<TranscriptDoc> ok = new ArrayList<>(h.extractOutputValues());
            assertThat(ok).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(TranscriptDoc.OK);
                assertThat(t.text()).isEqualTo("front center");
                assertThat(t.recognizer()).isEqualTo("openai:whisper-1");
            });
            // The endpoint got the stretch as a 16 kHz WAV, as long as the stretch.
            String body = new String(bodies.get(0), StandardCharsets.ISO_8859_1);
            assertThat(body).contains("RIFF").contains("name=\"model\"").contains("whisper-1");
            long samples = (ok.get(0).endMs() - ok.get(0).startMs()) * 16;
            assertThat((long) bodies.get(0).length).isBetween(44 + 2 * samples, 44 + 2 * samples + 1_000);

            status.set(503);
            h.getOutput().clear();
            List<AudioChunk> again = new ArrayList<>();
            for (AudioChunk c : chunks("talk-2", frontCenter())) {
                again.add(new AudioChunk(c.streamId(), c.seq(), EPOCH + 60_000, c.ptsMs(), c.sampleRate(), c.channels(), c.format(), c.samples(), c.pcm()));
            }
            feed(h, again);
            assertThat(h.extractOutputValues()).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(TranscriptDoc.FAILED);
                assertThat(t.text()).isNull();
                assertThat(t.failure()).contains("503");
                assertThat(t.recognizer()).isEqualTo("openai:whisper-1");
            });
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            h.close();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void audioGoingBackInTimeIsADeadLetterAndTheStreamGoesOn() throws Exception {
        var h = harness(RecognizerSettings.sphinx());
        List<AudioChunk> c = chunks("talk-3", frontCenter());
        h.processElement(new StreamRecord<>(c.get(0), c.get(0).eventTimeMs()));
        h.processElement(new StreamRecord<>(c.get(1), c.get(1).eventTimeMs()));
        h.processElement(new StreamRecord<>(c.get(0), c.get(0).eventTimeMs()));
        var dead = h.getSideOutput(DeadLetters.TAG);
        assertThat(dead).hasSize(1);
        DeadLetter d = dead.peek().getValue();
        assertThat(d.reason()).contains("before the");
        assertThat(d.origin()).isEqualTo("talk-3#audio 0");
        feed(h, c.subList(2, c.size()));
        assertThat(h.extractOutputValues()).hasSize(1);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.close();
    }

    @Test
    void aSecretSaidAloudIsRedactedBeforeTheTranscriptLeavesAndItsWordsWithIt() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/audio/transcriptions", ex -> {
            byte[] answer = ("{\"text\":\"write to ana.lopez@example.org today\",\"segments\":[{\"start\":0.0,\"end\":1.4,"
                    + "\"text\":\" write to ana.lopez@example.org today\"}]}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            SpeechOperator op = new SpeechOperator(ModelDirectory.locate().toString(),
                    new RecognizerSettings(RecognizerSettings.OPENAI, url, "whisper-1", "", Duration.ofSeconds(10)), SpeechSegmenter.Params.DEFAULT, IDLE)
                    .redacting(new io.videoworld.engines.privacy.Redactor(java.util.EnumSet.allOf(io.videoworld.engines.privacy.RedactionKind.class)));
            var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(op), AudioChunk::streamId, Types.STRING);
            h.open();
            feed(h, chunks("talk-3", frontCenter()));
            assertThat(h.extractOutputValues()).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(TranscriptDoc.OK);
                assertThat(t.text()).isEqualTo("write to [redacted:email] today").doesNotContain("example.org");
                assertThat(t.words()).isEmpty();
            });
            assertThat(h.numKeyedStateEntries()).isZero();
            h.close();
        } finally {
            server.stop(0);
        }
    }
}
