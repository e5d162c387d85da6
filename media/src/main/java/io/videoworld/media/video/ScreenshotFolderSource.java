package io.videoworld.media.video;

import static org.bytedeco.opencv.global.opencv_imgcodecs.IMREAD_COLOR;
import static org.bytedeco.opencv.global.opencv_imgcodecs.imread;

import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.bytedeco.opencv.opencv_core.Mat;

/**
 * A folder of PNG/JPEG screenshots, one frame each. Sorted by name, frames are spaced
 * {@code 1/fps} apart from the push start; sorted by mtime, each frame's capture time is its
 * file's modification time, as a screen recorder would have written it.
 */
public final class ScreenshotFolderSource implements FrameSource {
    /** How screenshots are ordered and timed. */
    public enum Order { NAME, MTIME }

    private final List<Path> files;
    private final Order order;
    private final double fps;
    private final long startMs;
    private final JpegEncoder encoder;
    private final SourceInfo info;
    private int next;
    private Long firstMtime;

    public ScreenshotFolderSource(Path folder, Order order, double fps, long startMs, JpegEncoder encoder)
            throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IOException("no such folder: " + folder);
        }
        try (Stream<Path> s = Files.list(folder)) {
            Comparator<Path> cmp = order == Order.NAME ? Comparator.comparing(p -> p.getFileName().toString())
                    : Comparator.comparingLong(ScreenshotFolderSource::mtime).thenComparing(p -> p.getFileName().toString());
            this.files = s.filter(ScreenshotFolderSource::isImage).sorted(cmp).toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no .png/.jpg/.jpeg files in " + folder);
        }
        this.order = order;
        this.fps = fps > 0 ? fps : 1.0;
        this.startMs = startMs;
        this.encoder = encoder;
        Mat first = read(files.get(0));
        String codec = files.get(0).getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png") ? "png" : "jpeg";
        this.info = new SourceInfo(this.fps, null, (long) files.size(), codec, false, 0, 0, null, null,
                first.cols(), first.rows(), this.fps);
        first.close();
    }

    private static boolean isImage(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(p) && (n.endsWith(".png") || n.endsWith(".jpg") || n.endsWith(".jpeg"));
    }

    private static long mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static Mat read(Path p) throws IOException {
        Mat m = imread(p.toString(), IMREAD_COLOR);
        if (m == null || m.empty()) {
            throw new IOException("unreadable image: " + p);
        }
        return m;
    }

    @Override
    public SourceKind kind() {
        return SourceKind.SCREEN;
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    @Override
    public long expectedFrames() {
        return files.size();
    }

    @Override
    public SourceFrame next() throws IOException {
        if (next >= files.size()) {
            return null;
        }
        Path file = files.get(next);
        long capture;
        long pts;
        if (order == Order.MTIME) {
            long m = mtime(file);
            if (firstMtime == null) {
                firstMtime = m;
            }
            capture = m;
            pts = m - firstMtime;
        } else {
            pts = Math.round(next * 1000.0 / fps);
            capture = startMs + pts;
        }
        next++;
        Mat img = read(file);
        try {
            return encoder.encode(img, pts, capture);
        } finally {
            img.close();
        }
    }

    @Override
    public void close() {
        next = files.size();
    }
}
