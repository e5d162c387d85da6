package io.videoworld.media.audio;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.Frame;

/**
 * A video's audio track, decoded by FFmpeg to mono 16 kHz, and the events measurable on it
 * without a model: silence, loud transients, steady sound (tones, hum, music with little
 * modulation) and speech-like sound (energy modulated at syllable rate, 2-8 Hz, with a voice-like
 * zero-crossing rate). These are signal statistics, not a classifier, and are named so.
 */
public final class AudioTrack {
    public static final int RATE = 16_000;
    static final int WINDOW = RATE / 10;

    /** One audio event. */
    public record Event(String type, double start, double end, double confidence, double loudnessDb) {}

    private AudioTrack() {}

    /** Mono samples in [-1, 1] at {@link #RATE}; empty when the file has no audio stream. */
    public static float[] read(String file) throws org.bytedeco.javacv.FrameGrabber.Exception {
        try (FFmpegFrameGrabber g = new FFmpegFrameGrabber(file)) {
            g.setAudioChannels(1);
            g.setSampleRate(RATE);
            g.setSampleFormat(avutil.AV_SAMPLE_FMT_S16);
            g.start();
            if (g.getAudioStream() < 0 && g.getAudioChannels() <= 0) {
                return new float[0];
            }
            List<short[]> chunks = new ArrayList<>();
            int total = 0;
            Frame f;
            while ((f = g.grabSamples()) != null) {
                if (f.samples == null) {
                    continue;
                }
                ShortBuffer sb = (ShortBuffer) f.samples[0];
                short[] s = new short[sb.remaining()];
                sb.get(s);
                chunks.add(s);
                total += s.length;
            }
            float[] out = new float[total];
            int i = 0;
            for (short[] s : chunks) {
                for (short v : s) {
                    out[i++] = v / 32768f;
                }
            }
            return out;
        }
    }

    /** Loudness of each 100 ms window in dBFS (-100 for digital silence). */
    static double[] loudness(float[] samples) {
        double[] db = new double[samples.length / WINDOW];
        for (int w = 0; w < db.length; w++) {
            double sum = 0;
            for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
                sum += samples[i] * samples[i];
            }
            double rms = Math.sqrt(sum / WINDOW);
            db[w] = rms < 1e-5 ? -100 : 20 * Math.log10(rms);
        }
        return db;
    }

    /** Zero crossings per sample in each 100 ms window. */
    static double[] zeroCrossings(float[] samples) {
        double[] z = new double[samples.length / WINDOW];
        for (int w = 0; w < z.length; w++) {
            int n = 0;
            for (int i = w * WINDOW + 1; i < (w + 1) * WINDOW; i++) {
                if ((samples[i] >= 0) != (samples[i - 1] >= 0)) {
                    n++;
                }
            }
            z[w] = (double) n / WINDOW;
        }
        return z;
    }

    /** Events over the whole track, in time order. */
    public static List<Event> events(float[] samples) {
        double[] db = loudness(samples);
        double[] zcr = zeroCrossings(samples);
        String[] label = new String[db.length];
        for (int w = 0; w < db.length; w++) {
            if (db[w] < -45) {
                label[w] = "silence";
            } else if (db[w] > -8) {
                label[w] = "loud_transient";
            } else {
                // Modulation: how much loudness swings within the surrounding second.
                int from = Math.max(0, w - 5);
                int to = Math.min(db.length, w + 5);
                double min = 0;
                double max = -200;
                for (int k = from; k < to; k++) {
                    if (db[k] >= -45) {
                        // Silence next door is a boundary, not modulation.
                        min = Math.min(min, db[k]);
                        max = Math.max(max, db[k]);
                    }
                }
                boolean modulated = max - min > 10;
                label[w] = modulated && zcr[w] > 0.01 && zcr[w] < 0.35 ? "speech_like" : "steady_sound";
            }
        }
        List<Event> out = new ArrayList<>();
        int start = 0;
        for (int w = 1; w <= label.length; w++) {
            if (w == label.length || !label[w].equals(label[start])) {
                double seconds = (w - start) / 10.0;
                String type = label[start];
                double min = "silence".equals(type) ? 1.0 : "loud_transient".equals(type) ? 0.1 : 0.5;
                if (seconds >= min) {
                    double mean = 0;
                    for (int k = start; k < w; k++) {
                        mean += Math.max(-100, db[k]);
                    }
                    mean /= (w - start);
                    double confidence = "silence".equals(type) || "loud_transient".equals(type) ? 0.9 : Math.min(0.8, 0.4 + seconds / 10);
                    out.add(new Event(type, start / 10.0, w / 10.0, confidence, Math.round(mean * 10) / 10.0));
                }
                start = w;
            }
        }
        return out;
    }

    /** 16-bit PCM WAV of mono samples, for a transcription endpoint. */
    public static byte[] wav(float[] samples, int from, int to) {
        int n = Math.max(0, to - from);
        ByteBuffer b = ByteBuffer.allocate(44 + n * 2).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + n * 2).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16).putShort((short) 1)
                .putShort((short) 1).putInt(RATE).putInt(RATE * 2).putShort((short) 2).putShort((short) 16).put("data".getBytes()).putInt(n * 2);
        for (int i = from; i < to; i++) {
            b.putShort((short) Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767))));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(b.array());
        return out.toByteArray();
    }
}
