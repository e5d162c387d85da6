package io.videoworld.operators.inference;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC1;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_COLOR;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imdecode;
import static org.bytedeco.opencv.global.opencv_imgproc.CHAIN_APPROX_SIMPLE;
import static org.bytedeco.opencv.global.opencv_imgproc.RETR_LIST;
import static org.bytedeco.opencv.global.opencv_imgproc.boundingRect;
import static org.bytedeco.opencv.global.opencv_imgproc.findContours;

import ai.djl.MalformedModelException;
import io.videoworld.core.TextLine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.MatVector;
import org.bytedeco.opencv.opencv_core.Rect;

/**
 * PP-OCRv4 on DJL's OnnxRuntime engine: the DB detector finds text regions (probability map,
 * threshold, connected regions grown by the DB "unclip" margin), then the CTC recogniser reads
 * each region. Boxes are axis-aligned, which suits screens and captions; rotated scene text is
 * read less well. One instance holds one predictor per model: open it per operator subtask.
 */
public final class OcrEngine implements AutoCloseable {
    private static final int DET_LIMIT = 960;
    private static final float DET_THRESHOLD = 0.3f;
    private static final float BOX_THRESHOLD = 0.5f;
    private static final int REC_HEIGHT = 48;
    private static final int REC_MAX_WIDTH = 960;

    private final ZooModel<NDList, NDList> det;
    private final ZooModel<NDList, NDList> rec;
    private final Predictor<NDList, NDList> detector;
    private final Predictor<NDList, NDList> recogniser;
    private final List<String> alphabet;

    private OcrEngine(ZooModel<NDList, NDList> det, ZooModel<NDList, NDList> rec, List<String> alphabet) {
        this.det = det;
        this.rec = rec;
        this.detector = det.newPredictor();
        this.recogniser = rec.newPredictor();
        this.alphabet = alphabet;
    }

    /** Loads {@code <models>/ppocr/{det,rec}.onnx} and {@code keys.txt}. */
    public static OcrEngine load(Path models) throws IOException {
        Path dir = models.resolve("ppocr");
        if (!Files.isRegularFile(dir.resolve("det.onnx")) || !Files.isRegularFile(dir.resolve("rec.onnx"))) {
            throw new IOException("no OCR models in " + dir + "; run deploy/models.sh");
        }
        List<String> alphabet = new ArrayList<>();
        alphabet.add("");
        alphabet.addAll(Files.readAllLines(dir.resolve("keys.txt")));
        alphabet.add(" ");
        try {
            return new OcrEngine(model(dir.resolve("det.onnx")), model(dir.resolve("rec.onnx")), alphabet);
        } catch (ModelNotFoundException | MalformedModelException e) {
            throw new IOException("cannot load OCR models from " + dir + ": " + e.getMessage(), e);
        }
    }

    private static ZooModel<NDList, NDList> model(Path file) throws ModelNotFoundException, MalformedModelException, IOException {
        return Criteria.builder().setTypes(NDList.class, NDList.class).optModelPath(file).optEngine("OnnxRuntime")
                .optTranslator(new NoopTranslator()).build().loadModel();
    }

    /** The lines of text in a JPEG or PNG, top to bottom, left to right. */
    public List<TextLine> read(byte[] image) {
        try (BytePointer data = new BytePointer(image); Mat buf = new Mat(1, image.length, CV_8UC1, data);
                Mat bgr = imdecode(buf, IMREAD_COLOR); NDManager manager = det.getNDManager().newSubManager()) {
            if (bgr == null || bgr.empty()) {
                throw new IllegalArgumentException("not a decodable image");
            }
            List<TextLine> out = new ArrayList<>();
            for (Rect r : detect(bgr, manager)) {
                try (Mat crop = bgr.apply(r)) {
                    TextLine line = recognise(crop, r, manager);
                    if (!line.text().isBlank()) {
                        out.add(line);
                    }
                }
            }
            out.sort(Comparator.comparingInt((TextLine l) -> l.y() / Math.max(1, l.height() / 2)).thenComparingInt(TextLine::x));
            return out;
        } catch (TranslateException e) {
            throw new IllegalStateException("OCR failed", e);
        }
    }

    private List<Rect> detect(Mat bgr, NDManager manager) throws TranslateException {
        double scale = Math.min(1.0, (double) DET_LIMIT / Math.max(bgr.cols(), bgr.rows()));
        int w = Math.max(32, (int) Math.round(bgr.cols() * scale / 32) * 32);
        int h = Math.max(32, (int) Math.round(bgr.rows() * scale / 32) * 32);
        float[] input = PpOcrImages.detInput(bgr, w, h);
        NDArray x = manager.create(FloatBuffer.wrap(input), new Shape(1, 3, h, w));
        float[] prob = detector.predict(new NDList(x)).get(0).toFloatArray();
        float sx = (float) bgr.cols() / w;
        float sy = (float) bgr.rows() / h;
        List<Rect> boxes = new ArrayList<>();
        try (Mat mask = new Mat(h, w, CV_8UC1); MatVector contours = new MatVector(); Mat hierarchy = new Mat()) {
            byte[] bits = new byte[w * h];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = prob[i] > DET_THRESHOLD ? (byte) 255 : 0;
            }
            mask.data().put(bits);
            findContours(mask, contours, hierarchy, RETR_LIST, CHAIN_APPROX_SIMPLE);
            for (long i = 0; i < contours.size(); i++) {
                Rect r = boundingRect(contours.get(i));
                if (r.width() < 3 || r.height() < 3 || PpOcrImages.meanIn(prob, w, r) < BOX_THRESHOLD) {
                    continue;
                }
                // DB shrinks text regions during training; grow them back by area * 1.5 / perimeter.
                double grow = (double) r.width() * r.height() * 1.5 / (2.0 * (r.width() + r.height()));
                int x0 = (int) Math.max(0, Math.floor((r.x() - grow) * sx));
                int y0 = (int) Math.max(0, Math.floor((r.y() - grow) * sy));
                int x1 = (int) Math.min(bgr.cols(), Math.ceil((r.x() + r.width() + grow) * sx));
                int y1 = (int) Math.min(bgr.rows(), Math.ceil((r.y() + r.height() + grow) * sy));
                if (x1 - x0 >= 4 && y1 - y0 >= 4) {
                    boxes.add(new Rect(x0, y0, x1 - x0, y1 - y0));
                }
            }
        }
        return boxes;
    }

    private TextLine recognise(Mat crop, Rect box, NDManager manager) throws TranslateException {
        int w = Math.min(REC_MAX_WIDTH, Math.max(REC_HEIGHT, (int) Math.ceil((double) crop.cols() * REC_HEIGHT / crop.rows())));
        float[] input = PpOcrImages.recInput(crop, w, REC_HEIGHT);
        NDArray x = manager.create(FloatBuffer.wrap(input), new Shape(1, 3, REC_HEIGHT, w));
        NDArray y = recogniser.predict(new NDList(x)).get(0);
        long[] shape = y.getShape().getShape();
        PpOcrImages.Decoded d = PpOcrImages.ctcDecode(y.toFloatArray(), (int) shape[1], (int) shape[2], alphabet);
        return new TextLine(d.text(), box.x(), box.y(), box.width(), box.height(), d.score());
    }

    @Override
    public void close() {
        detector.close();
        recogniser.close();
        det.close();
        rec.close();
    }
}
