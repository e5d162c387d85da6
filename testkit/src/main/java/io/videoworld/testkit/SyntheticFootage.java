package io.videoworld.testkit;

import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
import static org.bytedeco.opencv.global.opencv_core.addWeighted;
import static org.bytedeco.opencv.global.opencv_imgproc.GaussianBlur;
import static org.bytedeco.opencv.global.opencv_imgproc.circle;
import static org.bytedeco.opencv.global.opencv_imgproc.ellipse;
import static org.bytedeco.opencv.global.opencv_imgproc.rectangle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameRecorder;
import org.bytedeco.javacv.OpenCVFrameConverter;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Point;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Scalar;
import org.bytedeco.opencv.opencv_core.Size;

/**
 * Generated footage with known transitions, for shot detection tests and benchmarks: textured
 * scenes filmed by a slowly drifting camera, joined by hard cuts, fades through black and
 * dissolves, with the traps a detector must not fall into — fast camera pans and flashes — inside
 * shots. The ground truth comes back with the file.
 */
public final class SyntheticFootage {
    /** Kinds of ground-truth events. */
    public enum Kind { CUT, FADE, DISSOLVE, PAN, FLASH }

    /**
     * One ground-truth event in seconds; for a cut {@code start == end}. Pans and flashes are not
     * transitions: a detector that reports them is wrong.
     */
    public record Event(Kind kind, double start, double end) {
        public boolean isTransition() {
            return kind == Kind.CUT || kind == Kind.FADE || kind == Kind.DISSOLVE;
        }
    }

    /** The written clip and its truth. */
    public record Clip(Path file, double fps, int frames, List<Event> events) {}

    private static final int CANVAS_SCALE = 3;

    private SyntheticFootage() {}

    /** Writes about {@code seconds} of footage at 25 fps; the same seed gives the same clip. */
    public static Clip write(Path out, int width, int height, double seconds, long seed) throws IOException {
        double fps = 25;
        Random rnd = new Random(seed);
        List<Event> events = new ArrayList<>();
        List<Mat> scenes = new ArrayList<>();
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
        int total = (int) Math.round(seconds * fps);
        int frame = 0;
        try (FFmpegFrameRecorder rec = new FFmpegFrameRecorder(out.toFile(), width, height, 0);
                OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat();
                Mat img = new Mat(height, width, CV_8UC3);
                Mat other = new Mat(height, width, CV_8UC3);
                Mat black = new Mat(height, width, CV_8UC3, new Scalar(0, 0, 0, 0));
                Mat white = new Mat(height, width, CV_8UC3, new Scalar(255, 255, 255, 0))) {
            rec.setFormat("mp4");
            rec.setVideoCodec(avcodec.AV_CODEC_ID_MPEG4);
            rec.setFrameRate(fps);
            rec.setVideoBitrate(4_000_000);
            rec.setGopSize(50);
            rec.start();
            int sceneNo = 0;
            Mat current = scene(width, height, sceneNo++, rnd);
            scenes.add(current);
            double camX = 0;
            while (frame < total) {
                int shotFrames = (int) Math.round((1.6 + rnd.nextDouble() * 2.4) * fps);
                // Traps inside some shots: a fast pan or a flash, never near a transition.
                int trap = rnd.nextInt(4);
                int trapAt = shotFrames / 3 + rnd.nextInt(Math.max(1, shotFrames / 3));
                int panFrames = (int) (fps * 0.8);
                for (int i = 0; i < shotFrames && frame < total; i++, frame++) {
                    double speed = 1.5;
                    if (trap == 0 && i >= trapAt && i < trapAt + panFrames) {
                        speed = 28;
                        if (i == trapAt) {
                            events.add(new Event(Kind.PAN, frame / fps, (frame + panFrames) / fps));
                        }
                    }
                    camX += speed;
                    view(current, camX, width, height, frame, img);
                    if (trap == 1 && (i == trapAt || i == trapAt + 1)) {
                        if (i == trapAt) {
                            events.add(new Event(Kind.FLASH, frame / fps, (frame + 2) / fps));
                        }
                        addWeighted(img, 0.25, white, 0.75, 0, img);
                    }
                    rec.record(conv.convert(img));
                }
                if (frame >= total - fps) {
                    break;
                }
                Mat next = scene(width, height, sceneNo++, rnd);
                scenes.add(next);
                double nextCam = rnd.nextInt(width);
                int kind = rnd.nextInt(10);
                if (kind < 6) {
                    events.add(new Event(Kind.CUT, frame / fps, frame / fps));
                } else if (kind < 8) {
                    int n = (int) Math.round((0.4 + rnd.nextDouble() * 0.4) * fps);
                    int hold = 2 + rnd.nextInt(6);
                    double start = frame / fps;
                    for (int i = 0; i < 2 * n + hold && frame < total; i++, frame++) {
                        double alpha;
                        if (i < n) {
                            camX += 1.5;
                            view(current, camX, width, height, frame, img);
                            alpha = 1.0 - (i + 1.0) / n;
                        } else if (i < n + hold) {
                            view(current, camX, width, height, frame, img);
                            alpha = 0;
                        } else {
                            nextCam += 1.5;
                            view(next, nextCam, width, height, frame, img);
                            alpha = (i - n - hold + 1.0) / n;
                        }
                        addWeighted(img, alpha, black, 1 - alpha, 0, img);
                        rec.record(conv.convert(img));
                    }
                    events.add(new Event(Kind.FADE, start, frame / fps));
                } else {
                    int n = (int) Math.round((0.5 + rnd.nextDouble() * 0.7) * fps);
                    double start = frame / fps;
                    for (int i = 0; i < n && frame < total; i++, frame++) {
                        camX += 1.5;
                        nextCam += 1.5;
                        view(current, camX, width, height, frame, img);
                        view(next, nextCam, width, height, frame, other);
                        double alpha = (i + 1.0) / (n + 1);
                        addWeighted(img, 1 - alpha, other, alpha, 0, img);
                        rec.record(conv.convert(img));
                    }
                    events.add(new Event(Kind.DISSOLVE, start, frame / fps));
                }
                current = next;
                camX = nextCam;
            }
            rec.stop();
        } finally {
            scenes.forEach(Mat::close);
        }
        return new Clip(out, fps, frame, List.copyOf(events));
    }

    /** A wide canvas in a palette of its own: gradient ground, many shapes, softened a little. */
    private static Mat scene(int w, int h, int index, Random rnd) {
        int cw = w * CANVAS_SCALE;
        Mat canvas = new Mat(h, cw, CV_8UC3);
        double hue = (index * 0.618034) % 1.0;
        int[] base = hsvToBgr(hue, 0.55 + rnd.nextDouble() * 0.4, 0.35 + rnd.nextDouble() * 0.5);
        canvas.put(new Scalar(base[0], base[1], base[2], 0));
        for (int y = 0; y < h; y += 8) {
            double f = 0.6 + 0.8 * y / h;
            rectangle(canvas, new Rect(0, y, cw, 8), new Scalar(base[0] * f, base[1] * f, base[2] * f, 0), -1, 8, 0);
        }
        for (int i = 0; i < 90; i++) {
            double sh = (hue + (rnd.nextDouble() - 0.5) * 0.25 + 1) % 1.0;
            int[] c = hsvToBgr(sh, 0.3 + rnd.nextDouble() * 0.7, 0.2 + rnd.nextDouble() * 0.8);
            Scalar color = new Scalar(c[0], c[1], c[2], 0);
            int x = rnd.nextInt(cw);
            int y = rnd.nextInt(h);
            int s = 8 + rnd.nextInt(60);
            switch (rnd.nextInt(3)) {
                case 0 -> circle(canvas, new Point(x, y), s, color, -1, 8, 0);
                case 1 -> rectangle(canvas, new Rect(x, y, s * 2, s), color, -1, 8, 0);
                default -> ellipse(canvas, new Point(x, y), new Size(s, s / 2 + 2), rnd.nextInt(180), 0, 360, color, -1, 8, 0);
            }
        }
        GaussianBlur(canvas, canvas, new Size(3, 3), 0);
        return canvas;
    }

    /** The camera's view at horizontal position {@code camX} (wrapping), plus a moving ball. */
    private static void view(Mat canvas, double camX, int w, int h, int frame, Mat out) {
        int cw = canvas.cols();
        int x = (int) (((long) camX % (cw - w) + (cw - w)) % (cw - w));
        try (Mat roi = canvas.apply(new Rect(x, 0, w, h))) {
            roi.copyTo(out);
        }
        int bx = (int) (w * (0.5 + 0.35 * Math.sin(frame * 0.07)));
        int by = (int) (h * (0.5 + 0.3 * Math.cos(frame * 0.05)));
        circle(out, new Point(bx, by), 22, new Scalar(240, 240, 240, 0), -1, 8, 0);
    }

    private static int[] hsvToBgr(double h, double s, double v) {
        double r;
        double g;
        double b;
        int i = (int) (h * 6) % 6;
        double f = h * 6 - Math.floor(h * 6);
        double p = v * (1 - s);
        double q = v * (1 - f * s);
        double t = v * (1 - (1 - f) * s);
        switch (i) {
            case 0 -> { r = v; g = t; b = p; }
            case 1 -> { r = q; g = v; b = p; }
            case 2 -> { r = p; g = v; b = t; }
            case 3 -> { r = p; g = q; b = v; }
            case 4 -> { r = t; g = p; b = v; }
            default -> { r = v; g = p; b = q; }
        }
        return new int[] {(int) (b * 255), (int) (g * 255), (int) (r * 255)};
    }
}
