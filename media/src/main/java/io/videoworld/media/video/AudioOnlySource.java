package io.videoworld.media.video;

import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.opencv.global.opencv_core;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * The pictures of a source that has sound only (a podcast, a voice recording): one small black
 * frame a second for as long as the sound lasts, so that the stream has a video document, shots and
 * a time span like any other, and its audio, sent beside them, is what its memory holds.
 */
public final class AudioOnlySource implements FrameSource {
    /** Width and height of the stand-in frames: the smallest the ingest edge accepts comfortably. */
    static final int WIDTH = 64;
    static final int HEIGHT = 36;

    /** How the codec of such a source is named, so readers know its pictures are stand-ins, not in the file. */
    public static final String CODEC = "none (audio only";

    private final SourceInfo info;
    private final SourceFrame picture;
    private final long frames;
    private long next;

    /** Opens {@code file} to learn how long its sound lasts; fails when it has no audio stream. */
    public AudioOnlySource(String file) throws IOException {
        Path path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new IOException("no such file: " + file);
        }
        long durationMs;
        int channels;
        int rate;
        String codec;
        FFmpegFrameGrabber g = new FFmpegFrameGrabber(file);
        try {
            g.start();
            if (g.getAudioChannels() <= 0) {
                throw new IOException("no audio stream in " + file);
            }
            channels = g.getAudioChannels();
            rate = g.getSampleRate();
            codec = g.getAudioCodecName();
            durationMs = g.getLengthInTime() / 1000;
        } catch (FFmpegFrameGrabber.Exception e) {
            throw new IOException("cannot open " + file + ": FFmpeg cannot read it", e);
        } finally {
            Grabbers.releaseQuietly(g);
        }
        if (durationMs <= 0) {
            throw new IOException("cannot tell how long the sound of " + file + " lasts");
        }
        this.frames = durationMs / 1000 + 1;
        long size = Files.size(path);
        this.info = new SourceInfo(1.0, durationMs, frames, CODEC + ": " + codec + ")", true, channels, rate, size,
                size * 8 / durationMs, WIDTH, HEIGHT, 1.0);
        try (Mat black = new Mat(HEIGHT, WIDTH, opencv_core.CV_8UC3, new org.bytedeco.opencv.opencv_core.Scalar(0, 0, 0, 0))) {
            this.picture = new JpegEncoder(WIDTH, 80).encode(black, 0, null);
        }
    }

    /** Whether a source with this codec name was sent by this class: its file has no pictures to decode. */
    public static boolean isStandIn(String codec) {
        return codec != null && codec.startsWith(CODEC);
    }

    /** Whether {@code file} opens and has sound but no pictures; false for anything FFmpeg cannot read. */
    public static boolean isSoundOnly(String file) {
        if (!Files.isRegularFile(Path.of(file))) {
            return false;
        }
        FFmpegFrameGrabber g = new FFmpegFrameGrabber(file);
        try {
            g.start();
            return g.getImageWidth() <= 0 && g.getAudioChannels() > 0;
        } catch (FFmpegFrameGrabber.Exception e) {
            return false;
        } finally {
            Grabbers.releaseQuietly(g);
        }
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
        return frames;
    }

    @Override
    public SourceFrame next() {
        if (next >= frames) {
            return null;
        }
        long pts = Math.min(next * 1000, info.durationMs());
        next++;
        return new SourceFrame(pts, null, picture.width(), picture.height(), picture.jpeg(), picture.thumb());
    }

    @Override
    public void close() {
        // Nothing stays open: the file was read for its length only.
    }
}
