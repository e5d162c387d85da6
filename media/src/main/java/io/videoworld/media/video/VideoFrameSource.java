package io.videoworld.media.video;

import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.FFmpegLogCallback;
import org.bytedeco.javacv.Frame;
import org.bytedeco.javacv.OpenCVFrameConverter;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * Frames of a video file or a live http(s)/rtsp URL through FFmpeg, sampled at a target rate by
 * presentation time (a frame is kept when its time reaches the next sample slot), so the sample
 * rate holds whatever the source's frame rate. Sampled frames are resized and encoded on worker
 * threads ({@link EncodingPipeline}) while this thread decodes ahead, delivered in order.
 */
public final class VideoFrameSource implements FrameSource {
    private final FFmpegFrameGrabber grabber;
    private final OpenCVFrameConverter.ToMat toMat = new OpenCVFrameConverter.ToMat();
    private final JpegEncoder encoder;
    private final EncodingPipeline pipeline;
    private boolean decoded;
    private final SourceInfo info;
    private final double sampleFps;
    private final long expected;
    private long lastSlot = -1;
    private final double halfSourceFrameUs;

    /** Whether sources scale in FFmpeg by default (see the constructor); {@code -Dvw.push.scale-in-decoder=false} resizes in OpenCV as before. */
    static final boolean SCALE_IN_DECODER = Boolean.parseBoolean(System.getProperty("vw.push.scale-in-decoder", "true"));

    /**
     * @param uri a file path or a URL
     * @param sampleFps frames per second to keep; 0 keeps every frame
     */
    public VideoFrameSource(String uri, double sampleFps, JpegEncoder encoder) throws IOException {
        this(uri, sampleFps, encoder, defaultEncodeThreads());
    }

    /**
     * @param uri a file path or a URL
     * @param sampleFps frames per second to keep; 0 keeps every frame
     * @param encodeThreads threads that resize and encode while this one decodes; 0 encodes on the caller's thread
     */
    public VideoFrameSource(String uri, double sampleFps, JpegEncoder encoder, int encodeThreads) throws IOException {
        this(uri, sampleFps, encoder, encodeThreads, SCALE_IN_DECODER);
    }

    /**
     * @param uri a file path or a URL
     * @param sampleFps frames per second to keep; 0 keeps every frame
     * @param encodeThreads threads that resize and encode while this one decodes; 0 encodes on the caller's thread
     * @param scaleInDecoder whether FFmpeg's swscale brings a larger picture to the encoder's width (area filter) in the
     *     same pass as the colour conversion, rather than OpenCV resizing the full-size BGR picture afterwards
     */
    public VideoFrameSource(String uri, double sampleFps, JpegEncoder encoder, int encodeThreads, boolean scaleInDecoder)
            throws IOException {
        if (encodeThreads < 0) {
            throw new IllegalArgumentException("encode threads must not be negative, got " + encodeThreads);
        }
        boolean url = uri.contains("://");
        Path file = url ? null : Path.of(uri);
        if (file != null && !Files.isRegularFile(file)) {
            throw new IOException("no such video file: " + uri);
        }
        FFmpegLogCallback.setLevel(org.bytedeco.ffmpeg.global.avutil.AV_LOG_ERROR);
        // FFmpeg's own lines ("moov atom not found", a damaged frame it skips) would precede the one
        // line a person reads; what fails is reported by the exception below.
        org.bytedeco.ffmpeg.global.avutil.av_log_set_level(org.bytedeco.ffmpeg.global.avutil.AV_LOG_FATAL);
        this.grabber = new FFmpegFrameGrabber(uri);
        try {
            grabber.start();
        } catch (FFmpegFrameGrabber.Exception e) {
            closeQuietly();
            throw new IOException("cannot open video " + uri + ": FFmpeg cannot read it (" + (url
                    ? "check the URL and that the stream is up" : "not a video file, or damaged") + ")", e);
        }
        if (grabber.getImageWidth() <= 0) {
            closeQuietly();
            throw new IOException("no video stream in " + uri);
        }
        double fps = grabber.getFrameRate() > 0 ? grabber.getFrameRate() : 25.0;
        this.sampleFps = sampleFps > 0 ? Math.min(sampleFps, fps) : fps;
        this.encoder = encoder;
        this.halfSourceFrameUs = 500_000.0 / fps;
        long lengthUs = grabber.getLengthInTime();
        Long durationMs = !url && lengthUs > 0 ? lengthUs / 1000 : null;
        long totalFrames = grabber.getLengthInVideoFrames();
        Long size = file == null ? null : Files.size(file);
        Long bitrate = durationMs != null && durationMs > 0 && size != null ? size * 8 / durationMs : null;
        this.info = new SourceInfo(fps, durationMs, durationMs == null || totalFrames <= 0 ? null : (long) totalFrames,
                grabber.getVideoCodecName(), grabber.getAudioChannels() > 0, grabber.getAudioChannels(),
                grabber.getAudioChannels() > 0 ? grabber.getSampleRate() : 0, size, bitrate,
                grabber.getImageWidth(), grabber.getImageHeight(), this.sampleFps);
        this.expected = durationMs == null ? -1 : (long) Math.ceil(durationMs / 1000.0 * this.sampleFps);
        int[] out = encoder.outputSize(grabber.getImageWidth(), grabber.getImageHeight());
        if (scaleInDecoder && (out[0] != grabber.getImageWidth() || out[1] != grabber.getImageHeight())) {
            // Converting a 1280x720 picture to BGR at full size and then resizing it cost more than decoding it.
            grabber.setImageWidth(out[0]);
            grabber.setImageHeight(out[1]);
            grabber.setImageScalingFlags(swscale.SWS_AREA);
        }
        this.pipeline = encodeThreads > 0 ? new EncodingPipeline(encoder, encodeThreads) : null;
    }

    /** Encoding threads a source gets when none are named: one per core, at most 4. */
    public static int defaultEncodeThreads() {
        return EncodingPipeline.defaultThreads();
    }

    @Override
    public SourceKind kind() {
        return SourceKind.VIDEO;
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    @Override
    public long expectedFrames() {
        return expected;
    }

    @Override
    public SourceFrame next() throws IOException {
        if (pipeline == null) {
            Frame frame = nextSampled();
            return frame == null ? null : encoder.encode(toMat.convert(frame), Math.max(0, frame.timestamp) / 1000, null);
        }
        // Decode ahead until the encoders have enough queued, then hand back the oldest.
        while (!decoded && !pipeline.full()) {
            Frame frame = nextSampled();
            if (frame == null) {
                decoded = true;
            } else {
                pipeline.submit(toMat.convert(frame), Math.max(0, frame.timestamp) / 1000, null);
            }
        }
        return pipeline.take();
    }

    /** The next frame that starts a new sample slot, or null at the end; valid until the next grab. */
    private Frame nextSampled() throws IOException {
        while (true) {
            Frame frame = grabber.grabImage();
            if (frame == null) {
                return null;
            }
            long ts = Math.max(0, frame.timestamp);
            // A frame is kept when it is the first to reach a new sample slot; half a source frame
            // of slack keeps timestamp jitter from moving a frame into the previous slot.
            long slot = (long) Math.floor((ts + halfSourceFrameUs) * sampleFps / 1_000_000.0);
            if (slot <= lastSlot) {
                continue;
            }
            lastSlot = slot;
            return frame;
        }
    }

    private void closeQuietly() {
        Grabbers.releaseQuietly(grabber);
    }

    @Override
    public void close() throws IOException {
        if (pipeline != null) {
            pipeline.close();
        }
        Grabbers.stopAndRelease(grabber);
    }
}
