package io.videoworld.media.video;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.FFmpegLogCallback;
import org.bytedeco.javacv.Frame;

/**
 * Decodes a video into small BGR pictures for analysis (shot detection), letting FFmpeg do all the
 * shrinking: codecs that can decode at a fraction of their size (MPEG-1/2/4, MJPEG, H.263 and
 * kin) do so ({@code lowres}, which at 1/8 is the mean of each 8x8 block, and never deeper than
 * the decoder declares it can: asked of Cinepak or Microsoft Video 1, it yields blank or broken
 * pictures without failing), the others skip their
 * deblocking filter, and swscale's area filter brings the picture to the target width in the same
 * pass as the colour conversion. Decoding runs on FFmpeg's frame threads. Nothing is
 * JPEG-encoded, and the full-size picture is never converted to BGR.
 */
public final class SmallFrameDecoder implements AutoCloseable {
    /** One decoded picture: {@code bgr} is {@code width x height x 3} bytes, row-major, no padding. */
    public record Picture(long index, long ptsMs, int width, int height, byte[] bgr) {}

    private final FFmpegFrameGrabber grabber;
    private final int width;
    private final int height;
    private final int sourceWidth;
    private final int sourceHeight;
    private final double fps;
    private long index;
    private long lastPtsMs;

    /**
     * @param uri a file path or a URL
     * @param width width of the pictures; heights follow the aspect ratio (at least 2)
     * @param threads decoding threads, 0 for FFmpeg's choice (cores + 1)
     * @param reduce whether the codec may decode at a fraction of its size (never below {@code width}) or skip deblocking
     */
    public SmallFrameDecoder(String uri, int width, int threads, boolean reduce) throws IOException {
        boolean url = uri.contains("://");
        if (!url && !Files.isRegularFile(Path.of(uri))) {
            throw new IOException("no such video file: " + uri);
        }
        FFmpegLogCallback.setLevel(avutil.AV_LOG_ERROR);
        this.grabber = new FFmpegFrameGrabber(uri);
        try {
            // The size is known only once the stream is open; probing costs an open, not a decode.
            int[] size = probe(uri);
            int lowres = 0;
            while (reduce && lowres < Math.min(3, size[2]) && (size[0] >> (lowres + 1)) >= width) {
                lowres++;
            }
            if (lowres > 0) {
                grabber.setVideoOption("lowres", Integer.toString(lowres));
            }
            if (reduce) {
                // Skipping the in-loop deblocking filter (H.264 and kin) leaves block edges that the
                // area filter averages away anyway; it is a third of the decoding time.
                grabber.setVideoOption("skip_loop_filter", "all");
            }
            if (threads > 0) {
                grabber.setVideoOption("threads", Integer.toString(threads));
            }
            this.sourceWidth = size[0];
            this.sourceHeight = size[1];
            this.width = width;
            this.height = Math.max(2, (int) Math.round((double) size[1] * width / size[0]));
            grabber.setImageWidth(this.width);
            grabber.setImageHeight(this.height);
            grabber.setImageScalingFlags(swscale.SWS_AREA);
            grabber.setPixelFormat(avutil.AV_PIX_FMT_BGR24);
            grabber.start();
        } catch (FFmpegFrameGrabber.Exception e) {
            closeQuietly();
            throw new IOException("cannot open video " + uri + ": " + e.getMessage(), e);
        }
        this.fps = grabber.getFrameRate() > 0 ? grabber.getFrameRate() : 25.0;
    }

    /** The video's width, height and the most {@code lowres} its decoder supports (0: none). */
    private static int[] probe(String uri) throws IOException {
        try (FFmpegFrameGrabber g = new FFmpegFrameGrabber(uri)) {
            g.start();
            int w = g.getImageWidth();
            int h = g.getImageHeight();
            AVCodec decoder = avcodec.avcodec_find_decoder(g.getVideoCodec());
            int maxLowres = decoder == null || decoder.isNull() ? 0 : decoder.max_lowres() & 0xFF;
            g.stop();
            if (w <= 0 || h <= 0) {
                throw new IOException("no video stream in " + uri);
            }
            return new int[] {w, h, maxLowres};
        } catch (FFmpegFrameGrabber.Exception e) {
            throw new IOException("cannot open video " + uri + ": " + e.getMessage(), e);
        }
    }

    /** Frame rate the container declares (25 when it declares none). */
    public double fps() {
        return fps;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public int sourceWidth() {
        return sourceWidth;
    }

    public int sourceHeight() {
        return sourceHeight;
    }

    /** The next picture in decode order, or null at the end. */
    public Picture next() throws IOException {
        Frame frame;
        try {
            frame = grabber.grabImage();
        } catch (FFmpegFrameGrabber.Exception e) {
            throw new IOException(e);
        }
        if (frame == null) {
            return null;
        }
        int w = frame.imageWidth;
        int h = frame.imageHeight;
        byte[] bgr = new byte[w * h * 3];
        ByteBuffer buf = (ByteBuffer) frame.image[0];
        int stride = frame.imageStride;
        if (stride == w * 3) {
            buf.position(0);
            buf.get(bgr);
        } else {
            for (int y = 0; y < h; y++) {
                buf.position(y * stride);
                buf.get(bgr, y * w * 3, w * 3);
            }
        }
        long pts = Math.max(0, frame.timestamp) / 1000;
        if (index > 0 && pts < lastPtsMs) {
            // A frame without a timestamp (FFmpeg has none for some files' last frame) follows the one before it.
            pts = lastPtsMs + Math.round(1000 / fps);
        }
        lastPtsMs = pts;
        return new Picture(index++, pts, w, h, bgr);
    }

    private void closeQuietly() {
        Grabbers.releaseQuietly(grabber);
    }

    @Override
    public void close() throws IOException {
        Grabbers.stopAndRelease(grabber);
    }
}
