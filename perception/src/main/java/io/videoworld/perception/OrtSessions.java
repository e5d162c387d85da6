package io.videoworld.perception;

import ai.djl.repository.zoo.Criteria;
import ai.djl.engine.Engine;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

/**
 * How every ONNX Runtime session of this process is set up. ONNX Runtime's worker threads spin
 * for a while after each operator waiting for the next; with several sessions in one job (a
 * detector per subtask, OCR, the embedder) and only a few cores, those spinning threads take the
 * cores from the thread that has work, so spinning is off unless {@code -Dvw.ort.spin=true}.
 * {@code -Dvw.ort.intra-threads=N} fixes the threads per session (ONNX Runtime's default, one per
 * core, when unset or 0).
 */
public final class OrtSessions {
    private OrtSessions() {}

    /**
     * The process's one ONNX Runtime environment, for sessions opened without DJL. DJL's engine
     * creates it with its own thread-pool settings and refuses to start when one already exists, so
     * the engine is asked first and every session shares what it made.
     */
    public static OrtEnvironment environment() {
        Engine.getEngine("OnnxRuntime");
        return OrtEnvironment.getEnvironment();
    }

    /** Adds the session options to a criteria builder of the OnnxRuntime engine. */
    public static <I, O> Criteria.Builder<I, O> tuned(Criteria.Builder<I, O> criteria) {
        return criteria.optArgument("sessionOptions", options());
    }

    /** A fresh session options object with this process's settings. */
    public static OrtSession.SessionOptions options() {
        OrtSession.SessionOptions so = new OrtSession.SessionOptions();
        try {
            String spin = Boolean.getBoolean("vw.ort.spin") ? "1" : "0";
            so.addConfigEntry("session.intra_op.allow_spinning", spin);
            so.addConfigEntry("session.inter_op.allow_spinning", spin);
            int threads = Integer.getInteger("vw.ort.intra-threads", 0);
            if (threads > 0) {
                so.setIntraOpNumThreads(threads);
            }
            return so;
        } catch (OrtException e) {
            so.close();
            throw new IllegalStateException("cannot set ONNX Runtime session options: " + e.getMessage(), e);
        }
    }
}
