package io.videoworld.media.images;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC1;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_COLOR;
import static org.bytedeco.opencv.global.opencv_imgcodecs.IMWRITE_JPEG_QUALITY;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imdecode;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imencode;
import static org.bytedeco.opencv.global.opencv_imgproc.INTER_AREA;
import static org.bytedeco.opencv.global.opencv_imgproc.INTER_LINEAR;
import static org.bytedeco.opencv.global.opencv_imgproc.resize;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Size;

/** JPEG in, JPEG out: crop by a normalised box with padding, resize, re-encode (OpenCV). */
public final class Images {
    private Images() {}

    /** A box in pixels, clipped to the image. */
    public record PixelBox(int x, int y, int width, int height) {}

    /**
     * The pixel box of a normalised {@code [x, y, w, h]} grown by {@code padding} of its size on
     * each side, clipped to the image.
     */
    public static PixelBox box(double[] bbox, double padding, int imageWidth, int imageHeight) {
        double px = bbox[2] * padding;
        double py = bbox[3] * padding;
        int x0 = (int) Math.floor(Math.max(0, bbox[0] - px) * imageWidth);
        int y0 = (int) Math.floor(Math.max(0, bbox[1] - py) * imageHeight);
        int x1 = (int) Math.ceil(Math.min(1, bbox[0] + bbox[2] + px) * imageWidth);
        int y1 = (int) Math.ceil(Math.min(1, bbox[1] + bbox[3] + py) * imageHeight);
        return new PixelBox(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
    }

    /** The size of a JPEG, decoding it. */
    public static int[] size(byte[] jpeg) {
        try (Mat m = decode(jpeg)) {
            return new int[] {m.cols(), m.rows()};
        }
    }

    /**
     * Crops (when {@code box} is not null) and resizes (when a target size is given; a zero
     * dimension keeps the aspect ratio), then encodes as JPEG.
     */
    public static byte[] transform(byte[] jpeg, PixelBox box, int width, int height, int quality) {
        try (Mat img = decode(jpeg)) {
            Mat cur = img;
            Mat cropped = null;
            Mat resized = null;
            try {
                if (box != null) {
                    cropped = img.apply(new Rect(box.x(), box.y(), Math.min(box.width(), img.cols() - box.x()),
                            Math.min(box.height(), img.rows() - box.y()))).clone();
                    cur = cropped;
                }
                if (width > 0 || height > 0) {
                    int w = width > 0 ? width : (int) Math.round((double) cur.cols() * height / cur.rows());
                    int h = height > 0 ? height : (int) Math.round((double) cur.rows() * width / cur.cols());
                    if (w != cur.cols() || h != cur.rows()) {
                        resized = new Mat();
                        resize(cur, resized, new Size(Math.max(1, w), Math.max(1, h)), 0, 0,
                                w < cur.cols() ? INTER_AREA : INTER_LINEAR);
                        cur = resized;
                    }
                }
                if (cur == img) {
                    return jpeg;
                }
                return encode(cur, quality);
            } finally {
                if (cropped != null) {
                    cropped.close();
                }
                if (resized != null) {
                    resized.close();
                }
            }
        }
    }

    static Mat decode(byte[] jpeg) {
        try (BytePointer data = new BytePointer(jpeg); Mat buf = new Mat(1, jpeg.length, CV_8UC1, data)) {
            Mat m = imdecode(buf, IMREAD_COLOR);
            if (m == null || m.empty()) {
                throw new IllegalArgumentException("not a decodable image");
            }
            return m;
        }
    }

    static byte[] encode(Mat img, int quality) {
        try (BytePointer out = new BytePointer(); IntPointer params = new IntPointer(IMWRITE_JPEG_QUALITY, quality)) {
            imencode(".jpg", img, out, params);
            byte[] b = new byte[(int) out.limit()];
            out.get(b);
            return b;
        }
    }
}
