package io.videoworld.engines.audio;

import io.videoworld.perception.audio.SileroVad;
import io.videoworld.perception.audio.VadState;

import ai.onnxruntime.OrtException;
import io.videoworld.core.AudioChunk;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a stream's audio into stretches of speech with Silero VAD, chunk by chunk, the stream's
 * memory held in a {@link SpeechState} the caller keeps. A stretch opens at a window whose speech
 * probability reaches {@code threshold}, padded by the windows before it; it closes once the
 * probability has stayed under {@code threshold - 0.15} for {@code minSilenceMs}, keeping that
 * padding of the silence, or when it reaches {@code maxSpeechMs} (long speech goes on in a new
 * stretch); stretches with less than {@code minSpeechMs} of speech windows are dropped. A gap in
 * presentation time (more than {@link #GAP_MS} of missing audio) closes what is open; audio that
 * goes back in time is refused with an {@link IllegalArgumentException}. Flink-free.
 */
public final class SpeechSegmenter {
    /** Missing audio tolerated between chunks before the clock is reset. */
    public static final long GAP_MS = 100;
    private static final int PAD_WINDOWS = 3;
    private static final double WINDOW_MS = SileroVad.WINDOW * 1000.0 / AudioChunk.RATE;

    /**
     * @param threshold speech probability that opens a stretch
     * @param minSilenceMs silence that closes one
     * @param minSpeechMs speech a stretch needs to be kept
     * @param maxSpeechMs longest stretch
     */
    public record Params(double threshold, long minSilenceMs, long minSpeechMs, long maxSpeechMs) implements java.io.Serializable {
        public static final Params DEFAULT = new Params(0.5, 500, 200, 30_000);
    }

    private final SileroVad vad;
    private final Params params;

    public SpeechSegmenter(SileroVad vad, Params params) {
        this.vad = vad;
        this.params = params;
    }

    /** A state for a stream's first chunk. */
    public static SpeechState start(AudioChunk first) {
        SpeechState s = new SpeechState();
        s.epochMs = first.epochMs();
        s.clockMs = first.ptsMs();
        return s;
    }

    /** Feeds one chunk (validated at the edge); returns the stretches it closed. */
    public List<Speech> accept(SpeechState s, AudioChunk chunk) throws OrtException {
        List<Speech> out = new ArrayList<>();
        long expected = s.endMs();
        if (chunk.epochMs() != s.epochMs || chunk.ptsMs() > expected + GAP_MS) {
            // A new push or missing audio: what is open ends where the audio stopped, and the clock starts again.
            flush(s, out);
            s.epochMs = chunk.epochMs();
            s.clockMs = chunk.ptsMs();
            s.pending = new float[0];
            s.preroll = new float[0];
        } else if (chunk.ptsMs() < expected - GAP_MS) {
            throw new IllegalArgumentException("audio chunk " + chunk.seq() + " starts at " + chunk.ptsMs() + " ms, before the " + expected
                    + " ms already heard on this stream");
        }
        float[] in = chunk.values();
        float[] all = Arrays.copyOf(s.pending, s.pending.length + in.length);
        System.arraycopy(in, 0, all, s.pending.length, in.length);
        int windows = all.length / SileroVad.WINDOW;
        VadState vs = new VadState(s.vadState, s.vadContext);
        for (int w = 0; w < windows; w++) {
            int from = w * SileroVad.WINDOW;
            float p = vad.probability(vs, all, from);
            long windowStart = s.clockMs + Math.round(w * WINDOW_MS);
            window(s, all, from, p, windowStart, out);
        }
        int used = windows * SileroVad.WINDOW;
        s.pending = Arrays.copyOfRange(all, used, all.length);
        s.clockMs += Math.round(windows * WINDOW_MS);
        s.lastEventMs = chunk.epochMs() + chunk.ptsMs() + chunk.durationMs();
        return out;
    }

    private void window(SpeechState s, float[] all, int from, float p, long windowStart, List<Speech> out) {
        if (!s.inSpeech) {
            if (p >= params.threshold()) {
                s.inSpeech = true;
                s.speechStartMs = windowStart - Math.round(s.preroll.length * 1000.0 / AudioChunk.RATE);
                s.speech = Arrays.copyOf(s.preroll, Math.max(s.preroll.length + SileroVad.WINDOW, AudioChunk.RATE));
                s.speechLength = s.preroll.length;
                s.preroll = new float[0];
                s.probabilitySum = 0;
                s.speechWindows = 0;
                s.silentWindows = 0;
                append(s, all, from);
                s.probabilitySum += p;
                s.speechWindows++;
            } else {
                int keep = Math.min(s.preroll.length, (PAD_WINDOWS - 1) * SileroVad.WINDOW);
                float[] pre = new float[keep + SileroVad.WINDOW];
                System.arraycopy(s.preroll, s.preroll.length - keep, pre, 0, keep);
                System.arraycopy(all, from, pre, keep, SileroVad.WINDOW);
                s.preroll = pre;
            }
            return;
        }
        append(s, all, from);
        if (p >= params.threshold() - 0.15) {
            s.silentWindows = 0;
            s.probabilitySum += p;
            s.speechWindows++;
        } else {
            s.silentWindows++;
        }
        long length = Math.round(s.speechLength * 1000.0 / AudioChunk.RATE);
        if (s.silentWindows * WINDOW_MS >= params.minSilenceMs() || length >= params.maxSpeechMs()) {
            boolean goesOn = s.silentWindows == 0;
            close(s, out);
            if (goesOn) {
                // Cut by length mid-speech: the next stretch starts right here.
                s.inSpeech = true;
                s.speechStartMs = windowStart + Math.round(WINDOW_MS);
                s.speech = new float[AudioChunk.RATE];
            }
        }
    }

    private static void append(SpeechState s, float[] all, int from) {
        if (s.speechLength + SileroVad.WINDOW > s.speech.length) {
            s.speech = Arrays.copyOf(s.speech, Math.max(2 * s.speech.length, s.speechLength + SileroVad.WINDOW));
        }
        System.arraycopy(all, from, s.speech, s.speechLength, SileroVad.WINDOW);
        s.speechLength += SileroVad.WINDOW;
    }

    /** Closes the open stretch (if long enough, it is added to {@code out}) and leaves the state between stretches. */
    private void close(SpeechState s, List<Speech> out) {
        int trailing = Math.max(0, s.silentWindows - PAD_WINDOWS) * SileroVad.WINDOW;
        int length = s.speechLength - trailing;
        if (s.speechWindows * WINDOW_MS >= params.minSpeechMs() && length > 0) {
            long end = s.speechStartMs + Math.round(length * 1000.0 / AudioChunk.RATE);
            out.add(new Speech(s.epochMs, s.speechStartMs, end, Arrays.copyOf(s.speech, length), s.probabilitySum / s.speechWindows));
        }
        s.inSpeech = false;
        s.speech = new float[0];
        s.speechLength = 0;
        s.probabilitySum = 0;
        s.speechWindows = 0;
        s.silentWindows = 0;
    }

    /** Closes what is open, as at the end of a stream; returns it if it was long enough to keep. */
    public List<Speech> flush(SpeechState s) {
        List<Speech> out = new ArrayList<>();
        flush(s, out);
        return out;
    }

    private void flush(SpeechState s, List<Speech> out) {
        if (s.inSpeech) {
            close(s, out);
        }
    }
}
