package io.videoworld.perception.audio;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.videoworld.perception.OrtSessions;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Voice activity with Silero VAD v5 (ONNX, from npm {@code @ricky0123/vad-web} by
 * {@code deploy/models.sh} into {@code silero-vad/silero_vad.onnx}): the probability of speech in
 * each {@link #WINDOW}-sample window (32 ms) of 16 kHz audio. The model is recurrent; its state
 * and the last {@link #CONTEXT} samples, which it sees before each window, travel in a
 * {@link VadState} that the caller keeps (per stream), so one instance serves any number of
 * streams. Thread-safe (ONNX Runtime sessions are).
 */
public final class SileroVad implements AutoCloseable {
    public static final String NAME = "silero-vad-v5";
    public static final int WINDOW = 512;
    public static final int CONTEXT = 64;
    /** Length of the recurrent state a stream carries between windows. */
    public static final int STATE = 2 * 128;

    private final OrtEnvironment env = io.videoworld.perception.OrtSessions.environment();
    private final OrtSession session;

    /** Opens {@code silero-vad/silero_vad.onnx} under a models directory. */
    public SileroVad(Path models) throws OrtException {
        Path file = models.resolve("silero-vad").resolve("silero_vad.onnx");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no voice-activity model at " + file + " (run deploy/models.sh)");
        }
        try (OrtSession.SessionOptions so = OrtSessions.options()) {
            so.setIntraOpNumThreads(1);
            session = env.createSession(file.toString(), so);
        }
    }

    /** The recurrent state and context of one stream, before its first window. */
    public static VadState fresh() {
        return new VadState(new float[STATE], new float[CONTEXT]);
    }

    /**
     * The speech probability of one window of {@link #WINDOW} samples; {@code state} is updated.
     */
    public float probability(VadState state, float[] samples, int from) throws OrtException {
        float[] input = new float[CONTEXT + WINDOW];
        System.arraycopy(state.context(), 0, input, 0, CONTEXT);
        System.arraycopy(samples, from, input, CONTEXT, WINDOW);
        try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), new long[] {1, input.length});
                OnnxTensor h = OnnxTensor.createTensor(env, FloatBuffer.wrap(state.state()), new long[] {2, 1, 128});
                OnnxTensor sr = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[] {16_000}), new long[0]);
                OrtSession.Result r = session.run(Map.of("input", x, "state", h, "sr", sr))) {
            float p = ((float[][]) r.get("output").orElseThrow().getValue())[0][0];
            float[][][] next = (float[][][]) r.get("stateN").orElseThrow().getValue();
            for (int layer = 0; layer < 2; layer++) {
                System.arraycopy(next[layer][0], 0, state.state(), layer * 128, 128);
            }
            System.arraycopy(input, input.length - CONTEXT, state.context(), 0, CONTEXT);
            return p;
        }
    }

    /** The probability of each whole window of a clip, from a fresh state. */
    public float[] probabilities(float[] samples) throws OrtException {
        VadState s = fresh();
        float[] out = new float[samples.length / WINDOW];
        for (int w = 0; w < out.length; w++) {
            out[w] = probability(s, samples, w * WINDOW);
        }
        return out;
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
