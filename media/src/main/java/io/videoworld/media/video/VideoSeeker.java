package io.videoworld.media.video;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.io.IOException;
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
 * Decodes frames of a video file (a local path or an http(s) URL, see {@link SourceLocator}) at given times, seeking with FFmpeg (frame-accurate). Opening a
 * file costs more than a seek, so open grabbers are kept (a few per file, a bounded number of
 * files) and reused; decoded frames are kept in a small Caffeine cache, because agents ask for the
 * same moments again. Its owner closes it, which releases every grabber it keeps open.
 */
public final class VideoSeeker implements AutoCloseable {
    private static final int GRABBERS_PER_FILE = 2;
    private static final int MAX_FILES = 16;
    private static final int CACHED_FRAMES = 256;
    /** Frames decoded by every seeker of this process; tests hold paths that must not decode to it. */
    private static final java.util.concurrent.atomic.LongAdder DECODED = new java.util.concurrent.atomic.LongAdder();

    private final Map<String, Deque<FFmpegFrameGrabber>> idle = new LinkedHashMap<>(16, 0.75f, true);
    private final Cache<String, Decoded> cache = Caffeine.newBuilder().maximumSize(CACHED_FRAMES).recordStats().build();
    /** Guarded by {@link #idle}: once closed, grabbers given back are released instead of kept. */
    private boolean closed;

    /** A decoded frame: its actual presentation time and its JPEG. */
    public record Decoded(long ptsMs, SourceFrame frame) {}

    /** How many frames every seeker of this process has decoded from a file (cached answers not counted). */
    public static long framesDecoded() {
        return DECODED.sum();
    }

    /** Hits and misses of the decoded-frame cache, for metrics. */
    public CacheStats cacheStats() {
        return cache.stats();
    }

    /** Frames at the given times (seconds, any order), each encoded at {@code width} (0 keeps the size). */
    public List<Decoded> grab(String file, List<Double> timesSec, int width) throws IOException {
        List<Decoded> out = new ArrayList<>();
        FFmpegFrameGrabber g = null;
        JpegEncoder encoder = new JpegEncoder(width, 90);
        try (OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat()) {
            for (double t : timesSec) {
                long us = Math.max(0, Math.round(t * 1_000_000));
                String key = file + "@" + us + "/" + width;
                Decoded cached = cache.getIfPresent(key);
                if (cached != null) {
                    out.add(cached);
                    continue;
                }
                if (g == null) {
                    g = borrow(file);
                }
                g.setVideoTimestamp(us);
                DECODED.increment();
                Frame f = g.grabImage();
                if (f == null) {
                    throw new IOException("no frame at " + t + " s in " + file);
                }
                long pts = Math.max(0, f.timestamp) / 1000;
                Decoded d = new Decoded(pts, encoder.encode(conv.convert(f), pts, null));
                cache.put(key, d);
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

    private FFmpegFrameGrabber borrow(String file) throws FFmpegFrameGrabber.Exception {
        synchronized (idle) {
            Deque<FFmpegFrameGrabber> open = idle.get(file);
            if (open != null && !open.isEmpty()) {
                return open.pop();
            }
        }
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
        FFmpegFrameGrabber g = new FFmpegFrameGrabber(file);
        g.start();
        return g;
    }

    private void giveBack(String file, FFmpegFrameGrabber g) {
        List<FFmpegFrameGrabber> evicted = new ArrayList<>();
        synchronized (idle) {
            Deque<FFmpegFrameGrabber> open = idle.computeIfAbsent(file, f -> new ArrayDeque<>());
            if (!closed && open.size() < GRABBERS_PER_FILE) {
                open.push(g);
                g = null;
            }
            while (idle.size() > MAX_FILES) {
                var eldest = idle.entrySet().iterator().next();
                evicted.addAll(eldest.getValue());
                idle.remove(eldest.getKey());
            }
        }
        if (g != null) {
            evicted.add(g);
        }
        evicted.forEach(VideoSeeker::discard);
    }

    /** Releases every open grabber and forgets the cached frames; frames still being decoded finish and are released after. */
    @Override
    public void close() {
        List<FFmpegFrameGrabber> open = new ArrayList<>();
        synchronized (idle) {
            closed = true;
            idle.values().forEach(open::addAll);
            idle.clear();
        }
        cache.invalidateAll();
        open.forEach(VideoSeeker::discard);
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
