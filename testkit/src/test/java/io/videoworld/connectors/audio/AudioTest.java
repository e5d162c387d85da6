package io.videoworld.connectors.audio;

import io.videoworld.media.audio.AudioTrack;
import io.videoworld.core.Cue;
import io.videoworld.media.audio.Subtitles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.videoworld.testkit.SoundFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Subtitle parsing, and audio events measured on a soundtrack whose parts are known. */
class AudioTest {
    @TempDir
    Path tmp;

    @Test
    void subRipAndWebVttCuesComeBackWithTimesTextAndSpeakers() {
        List<Cue> srt = Subtitles.parse("1\n00:00:01,500 --> 00:00:03,000\nCan you pass me\n<i>the salt?</i>\n\n2\n00:01:02,000 --> 00:01:04,250\nSure.\n");
        assertThat(srt).hasSize(2);
        assertThat(srt.get(0).start()).isEqualTo(1.5);
        assertThat(srt.get(0).text()).isEqualTo("Can you pass me the salt?");
        assertThat(srt.get(1).start()).isEqualTo(62.0);
        assertThat(srt.get(1).end()).isEqualTo(64.25);
        List<Cue> vtt = Subtitles.parse("WEBVTT\n\nintro\n00:05.000 --> 00:07.500\n<v Dana>Lunch at noon?\n");
        assertThat(vtt).singleElement().satisfies(c -> {
            assertThat(c.start()).isEqualTo(5.0);
            assertThat(c.speaker()).isEqualTo("Dana");
            assertThat(c.text()).isEqualTo("Lunch at noon?");
        });
    }

    @Test
    void eventsFollowTheSoundtracksParts() {
        List<AudioTrack.Event> events = AudioTrack.events(SoundFixture.samples());
        assertThat(events).extracting(AudioTrack.Event::type)
                .containsExactly("silence", "steady_sound", "speech_like", "silence", "loud_transient");
        AudioTrack.Event tone = events.stream().filter(e -> e.type().equals("steady_sound")).findFirst().orElseThrow();
        assertThat(tone.start()).isCloseTo(2.0, within(0.2));
        // Modulation is judged over a second, so a boundary next to speech blurs by up to half of it.
        assertThat(tone.end()).isCloseTo(4.0, within(0.5));
        AudioTrack.Event speech = events.stream().filter(e -> e.type().equals("speech_like")).findFirst().orElseThrow();
        assertThat(speech.start()).isCloseTo(4.0, within(0.5));
        assertThat(speech.end()).isCloseTo(7.0, within(0.5));
        AudioTrack.Event bang = events.stream().filter(e -> e.type().equals("loud_transient")).findFirst().orElseThrow();
        assertThat(bang.start()).isCloseTo(8.0, within(0.15));
    }

    @Test
    void theTrackOfARealFileDecodesToTheSameEvents() throws Exception {
        Path file = tmp.resolve("kitchen.mkv");
        SoundFixture.write(file);
        float[] decoded = AudioTrack.read(file.toString());
        assertThat(decoded.length).isCloseTo(9 * AudioTrack.RATE, within(AudioTrack.RATE / 2));
        assertThat(AudioTrack.events(decoded)).extracting(AudioTrack.Event::type)
                .containsSubsequence("silence", "steady_sound", "speech_like", "loud_transient");
    }

    @Test
    void aSidecarIsFoundByTheVideosBaseName() throws Exception {
        java.nio.file.Files.writeString(tmp.resolve("talk.en.srt"), "1\n00:00:00,000 --> 00:00:01,000\nhi\n");
        java.nio.file.Files.writeString(tmp.resolve("talk.mp4"), "");
        assertThat(Subtitles.sidecar(tmp.resolve("talk.mp4").toString())).contains(tmp.resolve("talk.en.srt"));
        assertThat(Subtitles.sidecar(tmp.resolve("other.mp4").toString())).isEmpty();
        assertThat(Subtitles.sidecar("rtsp://cam/stream")).isEmpty();
    }

    @Test
    void aWavHasTheHeaderATranscriptionEndpointExpects() {
        byte[] wav = AudioTrack.wav(new float[] {0, 0.5f, -0.5f}, 0, 3);
        assertThat(new String(wav, 0, 4)).isEqualTo("RIFF");
        assertThat(wav).hasSize(44 + 6);
    }
}
