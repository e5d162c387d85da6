package io.videoworld.connectors.producer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.Frame;
import org.bytedeco.javacv.OpenCVFrameConverter;

/**
 * Decodes frames of a video file at given times, seeking with FFmpeg (frame-accurate). Opening a
 * file costs more than a seek, so open grabbers are kept (a few per file, a bounded number of
 * files) and reused; decoded frames are kept in a small LRU cache, because agents ask for the
 * same moments again.
 */
public final class VideoSeeker {
    private static final int GRABBERS_PER_FILE = 2;
    private static final int MAX_FILES = 16;
    private static final int CACHED_FRAMES = 256;

    private static final Map<String, Deque<FFmpegFrameGrabber>> IDLE = new LinkedHashMap<>(16, 0.75f, true);
    private static final Map<String, Decoded> CACHE = new LinkedHashMap<>(CACHED_FRAMES, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Decoded> eldest) {
            return size() > CACHED_FRAMES;
        }
    };

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
        List<Decoded> out = new ArrayList<>();
        FFmpegFrameGrabber g = null;
        JpegEncoder encoder = new JpegEncoder(width, 90);
        try (OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat()) {
            for (double t : timesSec) {
                long us = Math.max(0, Math.round(t * 1_000_000));
                String key = file + "@" + us + "/" + width;
                Decoded cached;
                synchronized (CACHE) {
                    cached = CACHE.get(key);
                }
                if (cached != null) {
                    out.add(cached);
                    continue;
                }
                if (g == null) {
                    g = borrow(file);
                }
                g.setVideoTimestamp(us);
                Frame f = g.grabImage();
                if (f == null) {
                    throw new IOException("no frame at " + t + " s in " + file);
                }
                long pts = Math.max(0, f.timestamp) / 1000;
                Decoded d = new Decoded(pts, encoder.encode(conv.convert(f), pts, null));
                synchronized (CACHE) {
                    CACHE.put(key, d);
                }
                out.add(d);
            }
        } catch (FFmpegFrameGrabber.Exception e) {
            discard(g);
            g = null;
            throw new IOException("cannot decode " + file + ": " + e.getMessage(), e);
        } finally {
            if (g != null) {
                giveBack(file, g);
            }
        }
        return out;
    }

    private static FFmpegFrameGrabber borrow(String file) throws FFmpegFrameGrabber.Exception {
        synchronized (IDLE) {
            Deque<FFmpegFrameGrabber> idle = IDLE.get(file);
            if (idle != null && !idle.isEmpty()) {
                return idle.pop();
            }
        }
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
        FFmpegFrameGrabber g = new FFmpegFrameGrabber(file);
        g.start();
        return g;
    }

    private static void giveBack(String file, FFmpegFrameGrabber g) {
        List<FFmpegFrameGrabber> evicted = new ArrayList<>();
        synchronized (IDLE) {
            Deque<FFmpegFrameGrabber> idle = IDLE.computeIfAbsent(file, f -> new ArrayDeque<>());
            if (idle.size() < GRABBERS_PER_FILE) {
                idle.push(g);
                g = null;
            }
            while (IDLE.size() > MAX_FILES) {
                var eldest = IDLE.entrySet().iterator().next();
                evicted.addAll(eldest.getValue());
                IDLE.remove(eldest.getKey());
            }
        }
        if (g != null) {
            evicted.add(g);
        }
        evicted.forEach(VideoSeeker::discard);
    }

    private static void discard(FFmpegFrameGrabber g) {
        if (g == null) {
            return;
        }
        try {
            g.stop();
            g.release();
        } catch (FFmpegFrameGrabber.Exception ignored) {
            // it is being thrown away
        }
    }
}
