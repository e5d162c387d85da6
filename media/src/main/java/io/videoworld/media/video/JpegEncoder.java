package io.videoworld.media.video;

import static org.bytedeco.opencv.global.opencv_imgcodecs.IMWRITE_JPEG_QUALITY;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imencode;
import static org.bytedeco.opencv.global.opencv_imgproc.INTER_AREA;
import static org.bytedeco.opencv.global.opencv_imgproc.resize;

import io.videoworld.core.Frame;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Size;

/**
 * Resizes to a target width (keeping the aspect ratio, even dimensions) and encodes JPEG with
 * OpenCV, which is several times faster than Java2D for both steps. It also makes the small
 * thumbnail that shot detection reads, from the pixels already decoded here.
 */
public final class JpegEncoder {
    private final int targetWidth;
    private final int quality;

    /** @param targetWidth output width in pixels, 0 to keep the source width */
    public JpegEncoder(int targetWidth, int quality) {
        this.targetWidth = targetWidth;
        this.quality = quality;
    }

    /** Output size for a source size. */
    public int[] outputSize(int width, int height) {
        if (targetWidth <= 0 || targetWidth >= width) {
            return new int[] {width, height};
        }
        int h = (int) Math.round((double) height * targetWidth / width);
        return new int[] {targetWidth, Math.max(2, h - (h % 2))};
    }

    /** Encodes a BGR image. */
    public SourceFrame encode(Mat bgr, long ptsMs, Long captureTimeMs) {
        int[] size = outputSize(bgr.cols(), bgr.rows());
        Mat img = bgr;
        Mat resized = null;
        if (size[0] != bgr.cols() || size[1] != bgr.rows()) {
            resized = new Mat();
            resize(bgr, resized, new Size(size[0], size[1]), 0, 0, INTER_AREA);
            img = resized;
        }
        try (Mat thumb = new Mat()) {
            int th = Math.max(2, (int) Math.round((double) img.rows() * Frame.THUMB_WIDTH / img.cols()));
            resize(img, thumb, new Size(Frame.THUMB_WIDTH, th), 0, 0, INTER_AREA);
            return new SourceFrame(ptsMs, captureTimeMs, size[0], size[1], jpeg(img, quality), jpeg(thumb, 90));
        } finally {
            if (resized != null) {
                resized.close();
            }
        }
    }

    private static byte[] jpeg(Mat img, int quality) {
        try (BytePointer buf = new BytePointer(); IntPointer params = new IntPointer(IMWRITE_JPEG_QUALITY, quality)) {
            if (!imencode(".jpg", img, buf, params)) {
                throw new IllegalStateException("JPEG encoding failed");
            }
            byte[] out = new byte[(int) buf.limit()];
            buf.get(out);
            return out;
        }
    }
}
