package io.videoworld.engines.audio;

import io.videoworld.perception.audio.Recognition;
import io.videoworld.perception.audio.SileroVad;
import io.videoworld.perception.audio.SphinxRecognizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.core.AudioChunk;
import io.videoworld.perception.ModelDirectory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Silero VAD, the segmenter and Sphinx4 on recorded speech (a voice saying "front center") and on recorded noise. */
class SpeechEnginesTest {
    private static SileroVad vad;
    private static SphinxRecognizer sphinx;

    @BeforeAll
    static void load() throws Exception {
        vad = new SileroVad(ModelDirectory.locate());
        sphinx = new SphinxRecognizer();
    }

    @AfterAll
    static void close() throws Exception {
        vad.close();
        sphinx.close();
    }

    private static List<Speech> segment(float[] samples, long ptsMs) throws Exception {
        SpeechSegmenter seg = new SpeechSegmenter(vad, SpeechSegmenter.Params.DEFAULT);
        List<AudioChunk> chunks = Clips.chunks("s", 1_000, ptsMs, samples);
        SpeechState s = SpeechSegmenter.start(chunks.get(0));
        List<Speech> out = new ArrayList<>();
        for (AudioChunk c : chunks) {
            out.addAll(seg.accept(s, c));
        }
        out.addAll(seg.flush(s));
        return out;
    }

    @Test
    void vadHearsTheVoiceAndNotTheNoise() throws Exception {
        float[] voice = vad.probabilities(Clips.read(Clips.speech("Front_Center.wav")));
        float[] noise = vad.probabilities(Clips.read(Clips.speech("Noise.wav")));
        double voiceMax = 0;
        for (float p : voice) {
            voiceMax = Math.max(voiceMax, p);
        }
        double noiseMax = 0;
        for (float p : noise) {
            noiseMax = Math.max(noiseMax, p);
        }
        System.out.printf("vad max: voice %.3f noise %.3f%n", voiceMax, noiseMax);
        assertThat(voiceMax).isGreaterThan(0.8);
        assertThat(noiseMax).isLessThan(0.5);
    }

    @Test
    void oneStretchWhereTheVoiceSpeaksOnThePresentationClock() throws Exception {
        float[] clip = Clips.read(Clips.speech("Front_Center.wav"));
        List<Speech> found = segment(Clips.padded(clip, 2.0, 2.0), 60_000);
        System.out.println("stretches: " + found.stream().map(s -> s.startMs() + "-" + s.endMs() + " p=" + s.meanProbability()).toList());
        assertThat(found).hasSize(1);
        Speech s = found.get(0);
        // The voice is inside the clip, which starts 2 s after pts 60 000.
        assertThat(s.startMs()).isBetween(61_800L, 63_000L);
        assertThat(s.endMs()).isBetween(s.startMs() + 400, 60_000L + 2_000 + clip.length / 16 + 300);
        assertThat(s.samples().length).isEqualTo((int) ((s.endMs() - s.startMs()) * 16));
        assertThat(s.meanProbability()).isGreaterThan(0.5);
        assertThat(segment(Clips.padded(Clips.read(Clips.speech("Noise.wav")), 1, 1), 0)).isEmpty();
    }

    @Test
    void audioGoingBackInTimeIsRefusedAndAGapClosesSpeech() throws Exception {
        SpeechSegmenter seg = new SpeechSegmenter(vad, SpeechSegmenter.Params.DEFAULT);
        float[] clip = Clips.padded(Clips.read(Clips.speech("Front_Left.wav")), 1.0, 0);
        List<AudioChunk> chunks = Clips.chunks("s", 0, 0, clip);
        SpeechState s = SpeechSegmenter.start(chunks.get(0));
        seg.accept(s, chunks.get(0));
        seg.accept(s, chunks.get(1));
        assertThat(s.inSpeech).isTrue();
        assertThatThrownBy(() -> seg.accept(s, chunks.get(0))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before");
        // Ten seconds missing: the open stretch is closed at the gap.
        AudioChunk later = AudioChunk.s16("s", 9, 0, 12_000, new float[16_000], 0, 16_000);
        List<Speech> closed = seg.accept(s, later);
        assertThat(closed).hasSize(1);
        assertThat(closed.get(0).endMs()).isLessThanOrEqualTo(2_100);
        assertThat(s.inSpeech).isFalse();
    }

    @Test
    void sphinxRecognisesTheRecordedWords() throws Exception {
        long t0 = System.nanoTime();
        Recognition r = sphinx.recognize(Clips.read(Clips.speech("Front_Center.wav")));
        System.out.printf("sphinx: '%s' %s in %d ms%n", r.text(), r.words(), (System.nanoTime() - t0) / 1_000_000);
        assertThat(r.text()).contains("center");
        assertThat(r.words()).isNotEmpty();
        assertThat(r.words().get(0).endMs()).isGreaterThan(r.words().get(0).startMs());
        // Every clip says two words, its file name: count the words heard right (Sphinx4's US English model is weak on them).
        int right = 0;
        int said = 0;
        for (String clip : List.of("Front_Left", "Front_Right", "Rear_Center", "Rear_Left", "Rear_Right", "Side_Left", "Side_Right")) {
            String heard = " " + sphinx.recognize(Clips.read(Clips.speech(clip + ".wav"))).text() + " ";
            for (String w : clip.toLowerCase().split("_")) {
                said++;
                right += heard.contains(" " + w + " ") ? 1 : 0;
            }
            System.out.println("sphinx " + clip + ": '" + heard.trim() + "'");
        }
        System.out.println("sphinx words right: " + right + "/" + said);
        assertThat(right).isGreaterThanOrEqualTo(said / 2);
        assertThat(sphinx.recognize(new float[16_000]).text()).isEmpty();
    }
}
