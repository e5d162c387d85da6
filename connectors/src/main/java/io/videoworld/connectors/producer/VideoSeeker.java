package io.videoworld.connectors.producer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.Frame;
import org.bytedeco.javacv.OpenCVFrameConverter;

/** Decodes frames of a video file at given times, seeking with FFmpeg (frame-accurate). */
public final class VideoSeeker {
    private VideoSeeker() {}

    /** A decoded frame: its actual presentation time and its JPEG. */
    public record Decoded(long ptsMs, SourceFrame frame) {}

    /** Whether a stream's source is a local video file that can still be read. */
    public static boolean readable(String sourceUri) {
        if (sourceUri == null || sourceUri.contains("://")) {
            return false;
        }
        Path p = Path.of(sourceUri);
        return Files.isRegularFile(p) && Files.isReadable(p);
    }

    /** Frames at the given times (seconds, any order), each encoded at {@code width} (0 keeps the size). */
    public static List<Decoded> grab(String file, List<Double> timesSec, int width) throws IOException {
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
        JpegEncoder encoder = new JpegEncoder(width, 90);
        List<Decoded> out = new ArrayList<>();
        try (FFmpegFrameGrabber g = new FFmpegFrameGrabber(file); OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat()) {
            g.start();
            for (double t : timesSec) {
                g.setVideoTimestamp(Math.max(0, Math.round(t * 1_000_000)));
                Frame f = g.grabImage();
                if (f == null) {
                    throw new IOException("no frame at " + t + " s in " + file);
                }
                long pts = Math.max(0, f.timestamp) / 1000;
                out.add(new Decoded(pts, encoder.encode(conv.convert(f), pts, null)));
            }
            g.stop();
        } catch (FFmpegFrameGrabber.Exception e) {
            throw new IOException("cannot decode " + file + ": " + e.getMessage(), e);
        }
        return out;
    }
}
