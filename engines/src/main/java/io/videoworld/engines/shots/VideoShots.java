package io.videoworld.engines.shots;

import io.videoworld.media.video.SmallFrameDecoder;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Shots of a video file (or URL) straight from the file, without Kafka or Flink: the path the
 * shot benchmark times and {@code bench shots-on} prints. FFmpeg decodes on its own threads and
 * shrinks each picture to the 80-pixel feature width itself ({@link SmallFrameDecoder}); a reader
 * thread computes each frame's features once from those pixels and hands both over, and the
 * calling thread runs the {@link ShotTracker}. No JPEG is made.
 */
public final class VideoShots {
    /** What a run read: frames, the container's frame rate, the source size and each frame's presentation time. */
    public record Run(long frames, double fps, int width, int height, long[] ptsMs) {}

    /** A frame's features and its picture, handed from the reader to the tracker. */
    private record Item(FrameFeatures features, byte[] bgr, long ptsMs) {}

    private static final Item END = new Item(null, null, -1);

    private VideoShots() {}

    /** Runs shot detection over every frame of {@code uri}, sending shots, scenes and keyframes (without JPEGs) to {@code out}. */
    public static Run detect(String uri, ShotParams params, ShotTracker.Output out) throws IOException {
        return detect(uri, "file", params, out);
    }

    public static Run detect(String uri, String streamId, ShotParams params, ShotTracker.Output out) throws IOException {
        try (SmallFrameDecoder decoder = new SmallFrameDecoder(uri, FeatureExtractor.WIDTH, 0, true)) {
            BlockingQueue<Item> queue = new ArrayBlockingQueue<>(64);
            IOException[] failure = new IOException[1];
            Thread reader = new Thread(() -> {
                try {
                    SmallFrameDecoder.Picture p;
                    while ((p = decoder.next()) != null) {
                        FrameFeatures f = FeatureExtractor.fromBgr(streamId, SourceKind.VIDEO, uri, p.index(), p.ptsMs(),
                                decoder.sourceWidth(), decoder.sourceHeight(), p.bgr(), p.width(), p.height());
                        queue.put(new Item(f, p.width() == f.featureWidth() ? p.bgr() : null, p.ptsMs()));
                    }
                } catch (IOException e) {
                    failure[0] = e;
                } catch (RuntimeException e) {
                    failure[0] = new IOException("cannot read " + uri + ": " + e.getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    try {
                        queue.put(END);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }, "vw-decode");
            reader.setDaemon(true);
            reader.start();
            ShotTracker tracker = ShotTracker.start(params, decoder.fps());
            long frames = 0;
            long[] pts = new long[1024];
            try {
                Item p;
                while ((p = queue.take()) != END) {
                    tracker.accept(p.features(), p.bgr(), out);
                    if (frames == pts.length) {
                        pts = java.util.Arrays.copyOf(pts, pts.length * 2);
                    }
                    pts[(int) frames++] = p.ptsMs();
                }
                reader.join();
            } catch (InterruptedException e) {
                reader.interrupt();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading " + uri, e);
            }
            if (failure[0] != null) {
                throw failure[0];
            }
            tracker.finish(out);
            return new Run(frames, decoder.fps(), decoder.sourceWidth(), decoder.sourceHeight(), java.util.Arrays.copyOf(pts, (int) frames));
        }
    }
}
