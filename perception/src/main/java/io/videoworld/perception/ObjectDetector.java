package io.videoworld.perception;

import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.TranslateException;
import ai.djl.translate.Translator;
import io.videoworld.core.Detection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An object detector behind one DJL predictor: the default MB3-CenterNet (COCO-80, from
 * {@code <models>/centernet/model.onnx}), a YOLO ONNX export ({@code yolo:/path/model.onnx}) or a
 * YOLO TorchScript file through DJL's PyTorch engine ({@code torchscript:/path/model.pt}; no build of
 * this project includes that engine, so {@code ai.djl.pytorch:pytorch-engine} and its native library
 * must be put on the classpath). Images are detected as one tensor batch on a GPU; on a CPU image by
 * image, because OnnxRuntime already spreads one image over the cores and a batch only adds memory
 * traffic ({@code bin/videoworld bench inference} compares the two). A model
 * exported with a fixed batch of one is noticed on the first refusal and fed image by image. Each box gets its colour histogram for the
 * tracker. Open one per operator subtask; {@link #detect} may be called from several threads at
 * once (one model; predictors are lent out one per call at once, so there are as many as calls
 * ever ran together, however many threads called).
 */
public final class ObjectDetector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectDetector.class);
    /** Input side of a YOLO export unless one is named (Ultralytics' default). */
    public static final int DEFAULT_YOLO_INPUT = 640;
    /** Input side of CenterNet unless one is named (trained at 512). */
    public static final int DEFAULT_CENTERNET_INPUT = CenterNetTranslator.TRAINED_INPUT;

    private final ZooModel<DecodedImage, List<Detection>> model;
    private final java.util.concurrent.ConcurrentLinkedQueue<Predictor<DecodedImage, List<Detection>>> idle =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final List<Predictor<DecodedImage, List<Detection>>> predictors = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final String device;
    private final String spec;
    private volatile boolean batchable;

    private ObjectDetector(ZooModel<DecodedImage, List<Detection>> model, String spec) {
        this.model = model;
        this.spec = spec;
        this.device = model.getNDManager().getDevice().isGpu() ? "gpu" : "cpu";
        this.batchable = "gpu".equals(device);
    }

    /**
     * Loads the detector a spec names: {@code centernet}, {@code yolo:PATH} or {@code torchscript:PATH}.
     *
     * @param labels class names of a YOLO model (COCO's 80 when empty)
     * @param inputSize square input side; 0 for the detector's default ({@link #DEFAULT_YOLO_INPUT} for YOLO,
     *     {@link #DEFAULT_CENTERNET_INPUT} for CenterNet)
     * @param minScore boxes below this are dropped (keep it low: the tracker uses weak boxes)
     */
    public static ObjectDetector load(Path models, String spec, List<String> labels, int inputSize, double minScore) throws IOException {
        List<String> names = labels == null || labels.isEmpty() ? CocoLabels.NAMES : labels;
        Path file;
        String engine;
        Translator<DecodedImage, List<Detection>> translator;
        if ("centernet".equals(spec)) {
            file = models.resolve("centernet/model.onnx");
            engine = "OnnxRuntime";
            translator = new CenterNetTranslator(inputSize > 0 ? inputSize : DEFAULT_CENTERNET_INPUT, minScore);
        } else if (spec.startsWith("yolo:") || spec.startsWith("torchscript:")) {
            file = Path.of(spec.substring(spec.indexOf(':') + 1));
            engine = spec.startsWith("torchscript:") ? "PyTorch" : "OnnxRuntime";
            translator = new YoloTranslator(inputSize > 0 ? inputSize : DEFAULT_YOLO_INPUT, names, minScore);
        } else {
            throw new IllegalArgumentException("detector '" + spec + "' is none of centernet, yolo:PATH.onnx, torchscript:PATH.pt");
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException("no detector model at " + file + ("centernet".equals(spec) ? "; run deploy/models.sh" : ""));
        }
        if (!Engine.hasEngine(engine)) {
            throw new IOException("detector " + spec + " needs DJL's " + engine
                    + " engine, which is not on the classpath (TorchScript: add ai.djl.pytorch:pytorch-engine and its native library to it)");
        }
        try {
            Criteria.Builder<DecodedImage, List<Detection>> c = Criteria.builder()
                    .setTypes(DecodedImage.class, (Class<List<Detection>>) (Class<?>) List.class)
                    .optModelPath(file).optEngine(engine).optTranslator(translator);
            ZooModel<DecodedImage, List<Detection>> m = ("OnnxRuntime".equals(engine) ? OrtSessions.tuned(c) : c).build().loadModel();
            ObjectDetector d = new ObjectDetector(m, spec);
            LOG.info("detector {} from {} on {} ({} engine)", spec, file, d.device, engine);
            return d;
        } catch (ModelNotFoundException | MalformedModelException e) {
            throw new IOException("cannot load detector " + file + ": " + e.getMessage(), e);
        }
    }

    public String device() {
        return device;
    }

    /** Overrides the device's batching choice (benchmarks compare both). */
    public ObjectDetector tensorBatching(boolean on) {
        this.batchable = on;
        return this;
    }

    public String spec() {
        return spec;
    }

    /** Boxes per image, best first, each with the colour histogram of its pixels. */
    public List<List<Detection>> detect(List<DecodedImage> images) {
        List<List<Detection>> raw;
        try {
            raw = run(images);
        } catch (TranslateException e) {
            throw new IllegalStateException("detection failed: " + e.getMessage(), e);
        }
        List<List<Detection>> out = new ArrayList<>(images.size());
        for (int i = 0; i < images.size(); i++) {
            DecodedImage img = images.get(i);
            List<Detection> withLooks = new ArrayList<>();
            for (Detection d : raw.get(i)) {
                withLooks.add(new Detection(d.category(), d.score(), d.x1(), d.y1(), d.x2(), d.y2(), img.appearance(d.x1(), d.y1(), d.x2(), d.y2())));
            }
            out.add(withLooks);
        }
        return out;
    }

    private List<List<Detection>> run(List<DecodedImage> images) throws TranslateException {
        // A DJL predictor is not thread-safe, the model is: each call borrows an idle predictor or makes one.
        Predictor<DecodedImage, List<Detection>> predictor = idle.poll();
        if (predictor == null) {
            predictor = model.newPredictor();
            predictors.add(predictor);
        }
        try {
            return run(predictor, images);
        } finally {
            idle.add(predictor);
        }
    }

    private List<List<Detection>> run(Predictor<DecodedImage, List<Detection>> predictor, List<DecodedImage> images) throws TranslateException {
        if (batchable && images.size() > 1) {
            try {
                return predictor.batchPredict(images);
            } catch (TranslateException | RuntimeException e) {
                batchable = false;
                LOG.warn("detector {} refused a batch of {} ({}); feeding images one at a time", spec, images.size(), e.getMessage());
            }
        }
        List<List<Detection>> out = new ArrayList<>(images.size());
        for (DecodedImage img : images) {
            out.add(predictor.predict(img));
        }
        return out;
    }

    @Override
    public void close() {
        predictors.forEach(Predictor::close);
        model.close();
    }
}
