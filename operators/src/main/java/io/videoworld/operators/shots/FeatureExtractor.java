package io.videoworld.operators.shots;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC1;
import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_COLOR;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_REDUCED_COLOR_2;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_REDUCED_COLOR_4;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_REDUCED_COLOR_8;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imdecode;
import static org.bytedeco.opencv.global.opencv_imgproc.COLOR_BGR2GRAY;
import static org.bytedeco.opencv.global.opencv_imgproc.COLOR_BGR2HSV;
import static org.bytedeco.opencv.global.opencv_imgproc.INTER_AREA;
import static org.bytedeco.opencv.global.opencv_imgproc.cvtColor;
import static org.bytedeco.opencv.global.opencv_imgproc.resize;

import io.videoworld.core.FrameBatch;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Size;

/**
 * Computes {@link FrameFeatures} of a frame from its thumbnail when the producer sent one (a
 * JPEG {@link #WIDTH} pixels wide, decoded in microseconds), otherwise from the JPEG decoded at
 * 1/2, 1/4 or 1/8 scale straight from its DCT coefficients. Every detector works on this one
 * small image, computed once per frame.
 */
public final class FeatureExtractor {
    /** Width of the feature image; heights follow the aspect ratio up to {@link #MAX_HEIGHT}. */
    public static final int WIDTH = Frame.THUMB_WIDTH;
    /**
     * The tallest feature image: a portrait phone screen keeps its shape, a picture taller than
     * four widths is squashed, since every comparison after this one (the screen gate's scroll
     * search above all) costs the square of the height.
     */
    public static final int MAX_HEIGHT = 4 * WIDTH;
    public static final int HUE_BINS = 8;
    public static final int SAT_BINS = 4;
    public static final int VAL_BINS = 4;
    private static final byte[] HUE_TO_BYTE = new byte[256];

    static {
        for (int h = 0; h < 256; h++) {
            HUE_TO_BYTE[h] = (byte) Math.min(255, Math.round(h * 255.0 / 180.0));
        }
    }

    private static final Size HASH_SIZE = new Size(9, 8);

    /**
     * Native buffers a thread reuses from frame to frame: each JavaCPP allocation registers a
     * deallocator that reads the process's resident size, which cost more than the features.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** One thread's reusable pictures (OpenCV reallocates them only when the size changes). */
    private static final class Scratch {
        final Mat resized = new Mat();
        final Mat hsv = new Mat();
        final Mat gray = new Mat();
        final Mat hashImg = new Mat();
        BytePointer input = new BytePointer(0L);
        Mat picture = new Mat();

        /** {@code bytes} copied into the reused native buffer. */
        BytePointer input(byte[] bytes) {
            if (input.capacity() < bytes.length) {
                picture.close();
                picture = new Mat();
                input.close();
                input = new BytePointer(bytes.length);
            }
            input.position(0).put(bytes, 0, bytes.length);
            return input;
        }

        /** A BGR picture over the reused buffer holding {@code bgr}. */
        Mat picture(byte[] bgr, int w, int h) {
            BytePointer data = input(bgr);
            if (picture.cols() != w || picture.rows() != h || !data.equals(picture.data())) {
                picture.close();
                picture = new Mat(h, w, CV_8UC3, data);
            }
            return picture;
        }
    }

    private FeatureExtractor() {}

    /** Features of one frame of a batch. */
    public static FrameFeatures extract(FrameBatch batch, Frame frame) {
        boolean thumb = frame.thumb() != null;
        int reduce = thumb ? IMREAD_COLOR
                : frame.width() >= WIDTH * 8 ? IMREAD_REDUCED_COLOR_8
                : frame.width() >= WIDTH * 4 ? IMREAD_REDUCED_COLOR_4
                : frame.width() >= WIDTH * 2 ? IMREAD_REDUCED_COLOR_2 : IMREAD_COLOR;
        byte[] jpeg = thumb ? frame.thumb() : frame.jpeg();
        try (Mat encoded = new Mat(1, jpeg.length, CV_8UC1, SCRATCH.get().input(jpeg));
                Mat decoded = imdecode(encoded, reduce)) {
            if (decoded == null || decoded.empty()) {
                throw new IllegalArgumentException("frame " + frame.index() + " of " + batch.streamId() + " does not decode");
            }
            return features(batch.streamId(), batch.sourceKind(), batch.sourceUri(), batch.epochMs(), frame.index(), frame.ptsMs(),
                    batch.eventTimeMs(frame), batch.seq(), frame.width(), frame.height(), decoded, frame.jpeg());
        }
    }

    /**
     * Features of a frame from pixels already decoded (BGR, {@code w x h}, shrunk to {@link #WIDTH}
     * when wider), as a file is read without Kafka: nothing is encoded or decoded again. The
     * features carry no JPEG; the event time is the presentation time.
     */
    public static FrameFeatures fromBgr(String streamId, SourceKind kind, String sourceUri, long frameIndex, long ptsMs, int sourceWidth,
            int sourceHeight, byte[] bgr, int w, int h) {
        return features(streamId, kind, sourceUri, 0, frameIndex, ptsMs, ptsMs, 0, sourceWidth, sourceHeight,
                SCRATCH.get().picture(bgr, w, h), new byte[0]);
    }

    private static FrameFeatures features(String streamId, SourceKind kind, String sourceUri, long epochMs, long frameIndex, long ptsMs,
            long eventTimeMs, long batchSeq, int width, int height, Mat decoded, byte[] jpeg) {
        int fh = (int) Math.max(1, Math.min(MAX_HEIGHT, Math.round((double) decoded.rows() * WIDTH / decoded.cols())));
        Scratch sc = SCRATCH.get();
        Mat small = decoded;
        if (decoded.cols() != WIDTH || decoded.rows() != fh) {
            try (Size to = new Size(WIDTH, fh)) {
                resize(decoded, sc.resized, to, 0, 0, INTER_AREA);
            }
            small = sc.resized;
        }
        cvtColor(small, sc.hsv, COLOR_BGR2HSV);
        cvtColor(small, sc.gray, COLOR_BGR2GRAY);
        resize(sc.gray, sc.hashImg, HASH_SIZE, 0, 0, INTER_AREA);

        byte[] bgr = bytes(small, WIDTH * fh * 3);
        byte[] hsvBytes = bytes(sc.hsv, WIDTH * fh * 3);
        for (int i = 0; i < hsvBytes.length; i += 3) {
            hsvBytes[i] = HUE_TO_BYTE[hsvBytes[i] & 0xFF];
        }
        return new FrameFeatures(streamId, kind, sourceUri, epochMs, frameIndex, ptsMs, eventTimeMs, batchSeq, width, height, WIDTH, fh,
                hsvBytes, histogram(hsvBytes), meanOf(bgr), dhash(bytes(sc.hashImg, 72)), jpeg);
    }

    private static byte[] bytes(Mat m, int n) {
        byte[] out = new byte[n];
        m.data().get(out);
        return out;
    }

    private static double meanOf(byte[] b) {
        long sum = 0;
        for (byte x : b) {
            sum += x & 0xFF;
        }
        return (double) sum / b.length;
    }

    /** Normalised 8x4x4 HSV histogram; position-free, so camera motion barely moves it. */
    static float[] histogram(byte[] hsv) {
        float[] h = new float[HUE_BINS * SAT_BINS * VAL_BINS];
        int n = hsv.length / 3;
        for (int i = 0; i < hsv.length; i += 3) {
            int hb = (hsv[i] & 0xFF) * HUE_BINS >> 8;
            int sb = (hsv[i + 1] & 0xFF) * SAT_BINS >> 8;
            int vb = (hsv[i + 2] & 0xFF) * VAL_BINS >> 8;
            h[(hb * SAT_BINS + sb) * VAL_BINS + vb]++;
        }
        for (int i = 0; i < h.length; i++) {
            h[i] /= n;
        }
        return h;
    }

    /** Difference hash: bit i is set when pixel i of a 9x8 grey image is brighter than its right neighbour. */
    static long dhash(byte[] gray9x8) {
        long hash = 0;
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                int left = gray9x8[y * 9 + x] & 0xFF;
                int right = gray9x8[y * 9 + x + 1] & 0xFF;
                hash = (hash << 1) | (left > right ? 1 : 0);
            }
        }
        return hash;
    }
}
