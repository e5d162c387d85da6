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
 * Faces and face descriptors, from BlazeFace ({@code <models>/blazeface/model.onnx}) and faceres
 * ({@code <models>/faceres/model.onnx}), both converted by {@code deploy/face_to_onnx.py}: faces are
 * found in squares of a frame ({@link FaceCrop}; a person's head region, or the whole frame), and a
 * descriptor is taken from each face's square turned so its eyes are level. All squares of a call
 * run as one batch. One session per model; open one per operator subtask and close it with the subtask.
 */
public final class FaceRecognizer implements AutoCloseable {
    /** The detector's input side. */
    public static final int DETECT_SIDE = 256;
    /** The descriptor model's input side. */
    public static final int DESCRIBE_SIDE = 224;
    /** Length of a descriptor. */
    public static final int DIMENSIONS = 1024;
    /** Lowest detector score a face is kept at. */
    public static final double MIN_SCORE = 0.5;
    /** Overlap (IoU) above which the weaker of two faces is dropped. */
    public static final double MAX_IOU = 0.3;
    /** The descriptor's square: this many times the face box's larger side. */
    public static final double ALIGN_SCALE = 1.3;

    private final OrtEnvironment env;
    private final OrtSession detector;
    private final OrtSession describer;
    private final BlazeFaceDecoder decoder = new BlazeFaceDecoder(DETECT_SIDE);

    private FaceRecognizer(OrtEnvironment env, OrtSession detector, OrtSession describer) {
        this.env = env;
        this.detector = detector;
        this.describer = describer;
    }

    /** Opens both models under a models directory. */
    public static FaceRecognizer load(Path models) throws IOException {
        Path det = models.resolve("blazeface/model.onnx");
        Path desc = models.resolve("faceres/model.onnx");
        for (Path p : List.of(det, desc)) {
            if (!Files.isRegularFile(p)) {
                throw new IOException("no face model at " + p + "; run deploy/models.sh");
            }
        }
        OrtEnvironment env = OrtSessions.environment();
        OrtSession d = null;
        try (OrtSession.SessionOptions options = OrtSessions.options()) {
            d = env.createSession(det.toString(), options);
            return new FaceRecognizer(env, d, env.createSession(desc.toString(), options));
        } catch (OrtException e) {
            if (d != null) {
                try {
                    d.close();
                } catch (OrtException ignored) {
                    // the first error is the one to report
                }
            }
            throw new IOException("cannot open the face models under " + models + ": " + e.getMessage(), e);
        }
    }

    /** The faces in the whole of one image (padded to a square), best first. */
    public List<Face> detect(DecodedImage image) {
        return detect(List.of(image), List.of(FaceCrop.around(0, 0, image.width(), image.height()))).get(0);
    }

    /** The faces whose landmarks make a face ({@link Face#plausible}) in square {@code i} of image {@code i}, in frame pixels, best first; all squares as one batch. */
    public List<List<Face>> detect(List<DecodedImage> images, List<FaceCrop> squares) {
        if (images.size() != squares.size()) {
            throw new IllegalArgumentException(images.size() + " images for " + squares.size() + " squares");
        }
        List<List<Face>> out = new ArrayList<>(squares.size());
        if (squares.isEmpty()) {
            return out;
        }
        int per = DETECT_SIDE * DETECT_SIDE * 3;
        float[] input = new float[squares.size() * per];
        for (int i = 0; i < squares.size(); i++) {
            squares.get(i).fill(images.get(i), DETECT_SIDE, input, i * per);
        }
        float[] raw = run(detector, input, squares.size(), DETECT_SIDE, "raw");
        for (int i = 0; i < squares.size(); i++) {
            FaceCrop sq = squares.get(i);
            List<Face> faces = new ArrayList<>();
            for (Face f : decoder.decode(raw, i * decoder.count() * BlazeFaceDecoder.STRIDE, MIN_SCORE, MAX_IOU)) {
                if (f.plausible()) {
                    faces.add(toFrame(f, sq));
                }
            }
            out.add(faces);
        }
        return out;
    }

    /** A face found in the model input of a square, in frame pixels (the square's turn is upright here: boxes of its corners). */
    static Face toFrame(Face f, FaceCrop sq) {
        double[] a = sq.toFrame(f.x1(), f.y1(), DETECT_SIDE);
        double[] b = sq.toFrame(f.x2(), f.y2(), DETECT_SIDE);
        double[] lm = new double[f.landmarks().length];
        for (int k = 0; k < lm.length / 2; k++) {
            double[] p = sq.toFrame(f.x(k), f.y(k), DETECT_SIDE);
            lm[2 * k] = p[0];
            lm[2 * k + 1] = p[1];
        }
        return new Face(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]), f.score(), lm);
    }

    /** Unit-length descriptors of faces, face {@code i} in image {@code i}, from their aligned squares; one batch. */
    public float[][] describe(List<DecodedImage> images, List<Face> faces) {
        List<FaceCrop> crops = new ArrayList<>(faces.size());
        for (Face f : faces) {
            crops.add(f.aligned(ALIGN_SCALE));
        }
        return describeSquares(images, crops);
    }

    /** Unit-length descriptors of squares already framing one face each; one batch. */
    public float[][] describeSquares(List<DecodedImage> images, List<FaceCrop> crops) {
        if (images.size() != crops.size()) {
            throw new IllegalArgumentException(images.size() + " images for " + crops.size() + " faces");
        }
        if (crops.isEmpty()) {
            return new float[0][];
        }
        int per = DESCRIBE_SIDE * DESCRIBE_SIDE * 3;
        float[] input = new float[crops.size() * per];
        for (int i = 0; i < crops.size(); i++) {
            crops.get(i).fill(images.get(i), DESCRIBE_SIDE, input, i * per);
        }
        float[] flat = run(describer, input, crops.size(), DESCRIBE_SIDE, "descriptor");
        float[][] out = new float[crops.size()][];
        for (int i = 0; i < out.length; i++) {
            float[] d = new float[DIMENSIONS];
            System.arraycopy(flat, i * DIMENSIONS, d, 0, DIMENSIONS);
            out[i] = FaceDescriptors.unit(d);
        }
        return out;
    }

    private float[] run(OrtSession session, float[] input, int n, int side, String output) {
        try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), new long[] {n, side, side, 3});
                OrtSession.Result r = session.run(Map.of("images", t))) {
            OnnxTensor o = (OnnxTensor) r.get(output).orElseThrow(() -> new IllegalStateException("face model has no output " + output));
            FloatBuffer b = o.getFloatBuffer();
            float[] a = new float[b.remaining()];
            b.get(a);
            return a;
        } catch (OrtException e) {
            throw new IllegalStateException("face model failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            detector.close();
            describer.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the face models: " + e.getMessage(), e);
        }
    }
}
