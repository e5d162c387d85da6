package io.videoworld.connectors.producer;

import static org.bytedeco.opencv.global.opencv_imgcodecs.IMWRITE_JPEG_QUALITY;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imencode;
import static org.bytedeco.opencv.global.opencv_imgproc.INTER_AREA;
import static org.bytedeco.opencv.global.opencv_imgproc.resize;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Size;

/**
 * Resizes to a target width (keeping the aspect ratio, even dimensions) and encodes JPEG with
 * OpenCV, which is several times faster than Java2D for both steps.
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
        try (BytePointer buf = new BytePointer()) {
            if (!imencode(".jpg", img, buf, new org.bytedeco.javacpp.IntPointer(IMWRITE_JPEG_QUALITY, quality))) {
                throw new IllegalStateException("JPEG encoding failed");
            }
            byte[] jpeg = new byte[(int) buf.limit()];
            buf.get(jpeg);
            return new SourceFrame(ptsMs, captureTimeMs, size[0], size[1], jpeg);
        } finally {
            if (resized != null) {
                resized.close();
            }
        }
    }
}
