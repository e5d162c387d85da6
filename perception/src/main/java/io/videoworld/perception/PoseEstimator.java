package io.videoworld.perception;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Body pose of people in a frame, from MoveNet Lightning ({@code <models>/movenet/model.onnx}, converted
 * by {@code deploy/movenet_to_onnx.py}): each person box is cropped by {@link PoseCrop}, all boxes of
 * a call (from one frame or several) run as one batch, and {@link MoveNetDecoder} turns the maps into keypoints in frame pixels.
 * One ONNX session; open one per operator subtask and close it with the subtask.
 */
public final class PoseEstimator implements AutoCloseable {
    /** The model's input side. */
    public static final int SIDE = 192;
    static final int CELLS = SIDE / 4;

    private final OrtEnvironment env;
    private final OrtSession session;
    private final MoveNetDecoder decoder = new MoveNetDecoder(CELLS);

    private PoseEstimator(OrtEnvironment env, OrtSession session) {
        this.env = env;
        this.session = session;
    }

    /** Opens the model under a models directory. */
    public static PoseEstimator load(Path models) throws IOException {
        Path file = models.resolve("movenet/model.onnx");
        if (!Files.isRegularFile(file)) {
            throw new IOException("no pose model at " + file + "; run deploy/models.sh");
        }
        // DJL's engine makes the process's one environment with its own thread settings: it goes first.
        ai.djl.engine.Engine.getEngine("OnnxRuntime");
        OrtEnvironment env = io.videoworld.perception.OrtSessions.environment();
        try (OrtSession.SessionOptions options = OrtSessions.options()) {
            return new PoseEstimator(env, env.createSession(file.toString(), options));
        } catch (OrtException e) {
            throw new IOException("cannot open pose model " + file + ": " + e.getMessage(), e);
        }
    }

    /** One pose per box ({x1, y1, x2, y2} in frame pixels), in the boxes' order; null for an empty box. */
    public List<Pose> estimate(DecodedImage image, List<double[]> boxes) {
        return estimate(java.util.Collections.nCopies(boxes.size(), image), boxes);
    }

    /** One pose per box, box i in image i, all in one batch; null for an empty box. */
    public List<Pose> estimate(List<DecodedImage> images, List<double[]> boxes) {
        if (images.size() != boxes.size()) {
            throw new IllegalArgumentException(images.size() + " images for " + boxes.size() + " boxes");
        }
        List<PoseCrop> crops = new ArrayList<>(boxes.size());
        List<DecodedImage> cropped = new ArrayList<>(boxes.size());
        for (int i = 0; i < boxes.size(); i++) {
            double[] b = boxes.get(i);
            PoseCrop c = PoseCrop.around(b[0], b[1], b[2], b[3]);
            crops.add(c);
            if (c != null) {
                cropped.add(images.get(i));
            }
        }
        List<PoseCrop> present = crops.stream().filter(java.util.Objects::nonNull).toList();
        float[][][] keypoints = present.isEmpty() ? new float[0][][] : run(cropped, present);
        List<Pose> out = new ArrayList<>(boxes.size());
        int i = 0;
        for (PoseCrop c : crops) {
            if (c == null) {
                out.add(null);
                continue;
            }
            float[][] kp = keypoints[i++];
            double[] x = new double[kp.length];
            double[] y = new double[kp.length];
            double[] s = new double[kp.length];
            for (int k = 0; k < kp.length; k++) {
                y[k] = c.frameY(kp[k][0]);
                x[k] = c.frameX(kp[k][1]);
                s[k] = kp[k][2];
            }
            out.add(new Pose(x, y, s));
        }
        return out;
    }

    /** Keypoints in 0-1 of each crop ({@link MoveNetDecoder#decode}'s layout), one batch for all crops. */
    float[][][] run(List<DecodedImage> images, List<PoseCrop> crops) {
        int per = SIDE * SIDE * 3;
        float[] input = new float[crops.size() * per];
        for (int i = 0; i < crops.size(); i++) {
            crops.get(i).fill(images.get(i), SIDE, input, i * per);
        }
        return runInput(input, crops.size());
    }

    /** Keypoints for {@code n} already prepared 192x192 RGB 0-255 inputs laid end to end. */
    public float[][][] runInput(float[] input, int n) {
        try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), new long[] {n, SIDE, SIDE, 3});
                OrtSession.Result r = session.run(Map.of("images", t))) {
            float[] heat = flat(r, "heatmap");
            float[] center = flat(r, "center");
            float[] regress = flat(r, "regress");
            float[] offset = flat(r, "offset");
            int cells = CELLS * CELLS;
            float[][][] out = new float[n][][];
            for (int i = 0; i < n; i++) {
                out[i] = decoder.decode(heat, i * cells * 17, center, i * cells, regress, i * cells * 34, offset, i * cells * 34);
            }
            return out;
        } catch (OrtException e) {
            throw new IllegalStateException("pose estimation failed: " + e.getMessage(), e);
        }
    }

    private static float[] flat(OrtSession.Result r, String name) throws OrtException {
        OnnxTensor t = (OnnxTensor) r.get(name).orElseThrow(() -> new IllegalStateException("pose model has no output " + name));
        FloatBuffer b = t.getFloatBuffer();
        float[] a = new float[b.remaining()];
        b.get(a);
        return a;
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the pose model: " + e.getMessage(), e);
        }
    }
}
