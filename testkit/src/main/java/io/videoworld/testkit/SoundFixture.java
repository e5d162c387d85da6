package io.videoworld.testkit;

import io.videoworld.media.audio.AudioTrack;
import java.nio.ShortBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.javacv.FFmpegFrameRecorder;
import org.bytedeco.javacv.Frame;

/**
 * A 9-second soundtrack with known parts: 0-2 s silence, 2-4 s a steady 440 Hz tone, 4-7 s a
 * voice-like sound (a 150 Hz fundamental with harmonics, its loudness swinging at 4 Hz like
 * syllables), 7-8 s silence, 8.0-8.3 s a loud noise burst, then silence.
 */
public final class SoundFixture {
    private SoundFixture() {}

    public static float[] samples() {
        int rate = AudioTrack.RATE;
        float[] s = new float[rate * 9];
        Random r = new Random(5);
        for (int i = 0; i < s.length; i++) {
            double t = (double) i / rate;
            if (t >= 2 && t < 4) {
                s[i] = (float) (0.2 * Math.sin(2 * Math.PI * 440 * t));
            } else if (t >= 4 && t < 7) {
                double envelope = 0.05 + Math.pow(Math.max(0, Math.sin(2 * Math.PI * 4 * t)), 2);
                double voice = Math.sin(2 * Math.PI * 150 * t) + 0.5 * Math.sin(2 * Math.PI * 300 * t) + 0.3 * Math.sin(2 * Math.PI * 450 * t);
                s[i] = (float) (0.2 * envelope * voice);
            } else if (t >= 8 && t < 8.3) {
                s[i] = (float) (0.95 * (r.nextDouble() * 2 - 1));
            }
        }
        return s;
    }

    /** A 9 s Matroska file: grey frames at 5 fps and the soundtrack as 16-bit PCM. */
    public static void write(Path file) throws Exception {
        float[] s = samples();
        try (FFmpegFrameRecorder rec = new FFmpegFrameRecorder(file.toString(), 160, 120, 1)) {
            rec.setFormat("matroska");
            rec.setVideoCodec(avcodec.AV_CODEC_ID_MPEG4);
            rec.setFrameRate(5);
            rec.setAudioCodec(avcodec.AV_CODEC_ID_PCM_S16LE);
            rec.setSampleRate(AudioTrack.RATE);
            rec.setAudioChannels(1);
            rec.start();
            Frame image = new Frame(160, 120, Frame.DEPTH_UBYTE, 3);
            int perFrame = AudioTrack.RATE / 5;
            for (int f = 0; f < 45; f++) {
                rec.record(image);
                short[] chunk = new short[perFrame];
                for (int i = 0; i < perFrame; i++) {
                    chunk[i] = (short) Math.round(s[f * perFrame + i] * 32767);
                }
                rec.recordSamples(AudioTrack.RATE, 1, ShortBuffer.wrap(chunk));
            }
        }
    }
}
