package io.videoworld.perception;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC1;
import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
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
    static final int BATCH = 16;
    /** Lines a reader remembers: a few screens' worth (a dense 1280x800 screen has about 60). */
    static final int LINE_MEMO = 4096;

    private final ZooModel<NDList, NDList> det;
    private final ZooModel<NDList, NDList> rec;
    private final Predictor<NDList, NDList> detector;
    private final Predictor<NDList, NDList> recogniser;
    private final List<String> alphabet;
    private boolean tensorBatching;
    /** Lines already recognised, by their ink ({@code -Dvw.ocr.line-memo=N} lines, 0 for none). */
    private LineMemo memo = new LineMemo(Integer.getInteger("vw.ocr.line-memo", LINE_MEMO));

    private OcrEngine(ZooModel<NDList, NDList> det, ZooModel<NDList, NDList> rec, List<String> alphabet) {
        this.det = det;
        this.rec = rec;
        this.detector = det.newPredictor();
        this.recogniser = rec.newPredictor();
        this.alphabet = alphabet;
        this.tensorBatching = det.getNDManager().getDevice().isGpu();
    }

    /** Text lines taken from the line memo instead of recognised, since this engine was loaded (reads that remember only). */
    public long linesRemembered() {
        return memo.remembered();
    }

    /** Text lines recognised by the model since this engine was loaded, in reads that remember. */
    public long linesRecognised() {
        return memo.recognised();
    }

    /** Starts an empty line memo of {@code lines} (0: every line is recognised); the next reads fill it. */
    OcrEngine lineMemo(int lines) {
        this.memo = new LineMemo(lines);
        return this;
    }

    /** Overrides the device's batching choice: on by default on a GPU only (see {@link #readAll}). */
    public OcrEngine tensorBatching(boolean on) {
        this.tensorBatching = on;
        return this;
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
        return OrtSessions.tuned(Criteria.builder().setTypes(NDList.class, NDList.class).optModelPath(file).optEngine("OnnxRuntime")
                .optTranslator(new NoopTranslator())).build().loadModel();
    }

    /** The lines of text in a JPEG or PNG, top to bottom, left to right. */
    public List<TextLine> read(byte[] image) {
        return readAll(List.of(image)).get(0);
    }

    /**
     * The lines of text of several images, read as tensor batches: images of the same size go
     * through the detector together (up to {@value #BATCH}), and all their text regions through
     * the recogniser in batches of similar width, padded to the widest (PaddleOCR pads the same
     * way), which keeps the padding small. On a CPU images are read one by one, because there a
     * batch is slower than single images ({@code bin/videoworld bench inference} compares them).
     */
    public List<List<TextLine>> readAll(List<byte[]> images) {
        if (!tensorBatching && images.size() > 1) {
            List<List<TextLine>> out = new ArrayList<>();
            for (byte[] image : images) {
                out.add(batch(List.of(image)).get(0));
            }
            return out;
        }
        return batch(images);
    }

    /** A rectangle of an image, in pixels. */
    public record Crop(int x, int y, int width, int height) {
        public long pixels() {
            return (long) width * height;
        }
    }

    /**
     * The lines of text inside rectangles of decoded images ({@code crops.get(i)} of
     * {@code images.get(i)}; an image may come several times), each crop read as an image of its
     * own, with the boxes given in the whole image's pixels. What the change gate reads when only
     * part of a screen changed. Batched as {@link #readAll}.
     */
    public List<List<TextLine>> readCrops(List<DecodedImage> images, List<Crop> crops) {
        return readCrops(images, crops, false);
    }

    /**
     * As {@link #readCrops(List, List)}; {@code remember}: lines whose ink this engine recognised before take that read's
     * text and score from the line memo instead of being recognised again. Only for reads that need not be repeatable:
     * a remembered line reads as the crop that first showed its ink did, so a replay with another history can differ
     * in a space or a score.
     */
    public List<List<TextLine>> readCrops(List<DecodedImage> images, List<Crop> crops, boolean remember) {
        if (images.size() != crops.size()) {
            throw new IllegalArgumentException(images.size() + " images, " + crops.size() + " crops");
        }
        List<List<TextLine>> out = new ArrayList<>(crops.size());
        int step = tensorBatching ? Math.max(1, crops.size()) : 1;
        for (int from = 0; from < crops.size(); from += step) {
            List<Mat> mats = new ArrayList<>();
            try {
                for (int i = from; i < Math.min(crops.size(), from + step); i++) {
                    DecodedImage img = images.get(i);
                    Crop c = crops.get(i);
                    if (c.x() < 0 || c.y() < 0 || c.width() < 1 || c.height() < 1 || c.x() + c.width() > img.width()
                            || c.y() + c.height() > img.height()) {
                        throw new IllegalArgumentException("crop " + c + " outside a " + img.width() + "x" + img.height() + " image");
                    }
                    try (Mat whole = new Mat(img.height(), img.width(), CV_8UC3)) {
                        whole.data().put(img.bgr());
                        try (Mat roi = whole.apply(new Rect(c.x(), c.y(), c.width(), c.height()))) {
                            mats.add(roi.clone());
                        }
                    }
                }
                List<List<TextLine>> read = batchMats(mats, remember);
                for (int k = 0; k < read.size(); k++) {
                    Crop c = crops.get(from + k);
                    List<TextLine> moved = new ArrayList<>(read.get(k).size());
                    for (TextLine l : read.get(k)) {
                        moved.add(new TextLine(l.text(), l.x() + c.x(), l.y() + c.y(), l.width(), l.height(), l.score()));
                    }
                    out.add(moved);
                }
            } finally {
                mats.forEach(Mat::close);
            }
        }
        return out;
    }

    private List<List<TextLine>> batch(List<byte[]> images) {
        List<Mat> mats = new ArrayList<>(images.size());
        try {
            for (byte[] image : images) {
                mats.add(decode(image));
            }
            return batchMats(mats, false);
        } finally {
            mats.forEach(Mat::close);
        }
    }

    private List<List<TextLine>> batchMats(List<Mat> mats, boolean remember) {
        try (NDManager manager = det.getNDManager().newSubManager()) {
            List<List<Rect>> boxes = detectAll(mats, manager);
            record Region(int image, Rect rect, int width, LineMemo.Key key) {}
            List<List<TextLine>> out = new ArrayList<>();
            mats.forEach(m -> out.add(new ArrayList<>()));
            List<Region> regions = new ArrayList<>();
            for (int i = 0; i < mats.size(); i++) {
                for (Rect r : boxes.get(i)) {
                    LineMemo.Key key = remember ? LineMemo.key(mats.get(i), r) : null;
                    LineMemo.Read known = remember ? memo.get(key) : null;
                    if (known == null) {
                        regions.add(new Region(i, r, Math.min(REC_MAX_WIDTH, Math.max(REC_HEIGHT, (int) Math.ceil((double) r.width() * REC_HEIGHT / r.height()))), key));
                    } else if (!known.text().isEmpty()) {
                        out.get(i).add(new TextLine(known.text(), r.x(), r.y(), r.width(), r.height(), known.score()));
                    }
                }
            }
            regions.sort(Comparator.comparingInt(Region::width));
            for (int from = 0; from < regions.size(); from += BATCH) {
                List<Region> chunk = regions.subList(from, Math.min(regions.size(), from + BATCH));
                int width = chunk.get(chunk.size() - 1).width();
                float[] input = new float[chunk.size() * 3 * REC_HEIGHT * width];
                for (int k = 0; k < chunk.size(); k++) {
                    Region g = chunk.get(k);
                    try (Mat crop = mats.get(g.image()).apply(g.rect())) {
                        float[] one = PpOcrImages.recInput(crop, g.width(), REC_HEIGHT);
                        for (int row = 0; row < 3 * REC_HEIGHT; row++) {
                            System.arraycopy(one, row * g.width(), input, (k * 3 * REC_HEIGHT + row) * width, g.width());
                        }
                    }
                }
                NDArray y = recogniser.predict(new NDList(manager.create(FloatBuffer.wrap(input), new Shape(chunk.size(), 3, REC_HEIGHT, width)))).get(0);
                long[] shape = y.getShape().getShape();
                int steps = (int) shape[1];
                int classes = (int) shape[2];
                float[] probs = y.toFloatArray();
                for (int k = 0; k < chunk.size(); k++) {
                    Region g = chunk.get(k);
                    float[] mine = java.util.Arrays.copyOfRange(probs, k * steps * classes, (k + 1) * steps * classes);
                    PpOcrImages.Decoded d = PpOcrImages.ctcDecode(mine, steps, classes, alphabet);
                    if (remember) {
                        memo.put(g.key(), new LineMemo.Read(d.text().isBlank() ? "" : d.text(), d.score()));
                    }
                    if (!d.text().isBlank()) {
                        out.get(g.image()).add(new TextLine(d.text(), g.rect().x(), g.rect().y(), g.rect().width(), g.rect().height(), d.score()));
                    }
                }
            }
            for (List<TextLine> lines : out) {
                lines.sort(Comparator.comparingInt((TextLine l) -> l.y() / Math.max(1, l.height() / 2)).thenComparingInt(TextLine::x));
            }
            return out;
        } catch (TranslateException e) {
            throw new IllegalStateException("OCR failed", e);
        }
    }

    private static Mat decode(byte[] image) {
        try (BytePointer data = new BytePointer(image); Mat buf = new Mat(1, image.length, CV_8UC1, data)) {
            Mat bgr = imdecode(buf, IMREAD_COLOR);
            if (bgr == null || bgr.empty()) {
                throw new IllegalArgumentException("not a decodable image");
            }
            return bgr;
        }
    }

    /** Text regions of each image; images whose detector input has the same size share a batch. */
    private List<List<Rect>> detectAll(List<Mat> mats, NDManager manager) throws TranslateException {
        List<List<Rect>> out = new ArrayList<>();
        java.util.Map<Long, List<Integer>> bySize = new java.util.LinkedHashMap<>();
        for (int i = 0; i < mats.size(); i++) {
            out.add(List.of());
            int[] wh = detSize(mats.get(i));
            bySize.computeIfAbsent(((long) wh[0] << 32) | wh[1], k -> new ArrayList<>()).add(i);
        }
        for (var group : bySize.entrySet()) {
            int w = (int) (group.getKey() >> 32);
            int h = (int) (group.getKey() & 0xffffffffL);
            List<Integer> idx = group.getValue();
            for (int from = 0; from < idx.size(); from += BATCH) {
                List<Integer> chunk = idx.subList(from, Math.min(idx.size(), from + BATCH));
                float[] input = new float[chunk.size() * 3 * w * h];
                for (int k = 0; k < chunk.size(); k++) {
                    System.arraycopy(PpOcrImages.detInput(mats.get(chunk.get(k)), w, h), 0, input, k * 3 * w * h, 3 * w * h);
                }
                float[] prob = detector.predict(new NDList(manager.create(FloatBuffer.wrap(input), new Shape(chunk.size(), 3, h, w)))).get(0).toFloatArray();
                for (int k = 0; k < chunk.size(); k++) {
                    out.set(chunk.get(k), regions(java.util.Arrays.copyOfRange(prob, k * w * h, (k + 1) * w * h), w, h, mats.get(chunk.get(k))));
                }
            }
        }
        return out;
    }

    private static int[] detSize(Mat bgr) {
        double scale = Math.min(1.0, (double) DET_LIMIT / Math.max(bgr.cols(), bgr.rows()));
        return new int[] {Math.max(32, (int) Math.round(bgr.cols() * scale / 32) * 32), Math.max(32, (int) Math.round(bgr.rows() * scale / 32) * 32)};
    }

    private static List<Rect> regions(float[] prob, int w, int h, Mat bgr) {
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

    @Override
    public void close() {
        detector.close();
        recogniser.close();
        det.close();
        rec.close();
    }
}
