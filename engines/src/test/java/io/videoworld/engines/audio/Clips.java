package io.videoworld.engines.audio;

import io.videoworld.core.AudioChunk;
import io.videoworld.perception.ModelDirectory;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/** The recorded speech deploy/samples.sh brings (Debian's alsa-utils), read as 16 kHz mono for the tests. */
public final class Clips {
    private Clips() {}

    /** A clip under {@code $VW_SAMPLES/speech}. */
    public static Path speech(String name) {
        Path p = ModelDirectory.samples().resolve("speech").resolve(name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("no recorded speech at " + p + " (run deploy/samples.sh)");
        }
        return p;
    }

    /** A 16-bit mono WAV at a multiple of 16 kHz, down-sampled to 16 kHz by averaging (the clips are 48 kHz). */
    public static float[] read(Path wav) throws Exception {
        try (AudioInputStream in = AudioSystem.getAudioInputStream(wav.toFile())) {
            AudioFormat f = in.getFormat();
            if (f.getChannels() != 1 || f.getSampleSizeInBits() != 16 || ((int) f.getSampleRate()) % 16_000 != 0) {
                throw new IllegalArgumentException("expected 16-bit mono at a multiple of 16 kHz: " + f);
            }
            int factor = (int) f.getSampleRate() / 16_000;
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            ByteBuffer b = ByteBuffer.wrap(bytes.toByteArray()).order(f.isBigEndian() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            int n = b.remaining() / 2 / factor;
            float[] out = new float[n];
            for (int i = 0; i < n; i++) {
                float sum = 0;
                for (int k = 0; k < factor; k++) {
                    sum += b.getShort() / 32768f;
                }
                out[i] = sum / factor;
            }
            return out;
        }
    }

    /** {@code before} seconds of silence, the clip, {@code after} seconds of silence. */
    public static float[] padded(float[] clip, double before, double after) {
        int a = (int) (before * 16_000);
        float[] out = new float[a + clip.length + (int) (after * 16_000)];
        System.arraycopy(clip, 0, out, a, clip.length);
        return out;
    }

    /** The samples as one-second chunks of a stream, from presentation time {@code ptsMs}. */
    public static List<AudioChunk> chunks(String streamId, long epochMs, long ptsMs, float[] samples) {
        List<AudioChunk> out = new ArrayList<>();
        for (int from = 0, seq = 0; from < samples.length; from += 16_000, seq++) {
            out.add(AudioChunk.s16(streamId, seq, epochMs, ptsMs + from / 16, samples, from, Math.min(samples.length, from + 16_000)));
        }
        return out;
    }
}
