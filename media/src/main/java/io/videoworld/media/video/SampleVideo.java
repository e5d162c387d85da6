package io.videoworld.media.video;

import static org.bytedeco.opencv.global.opencv_imgproc.FONT_HERSHEY_SIMPLEX;
import static org.bytedeco.opencv.global.opencv_imgproc.circle;
import static org.bytedeco.opencv.global.opencv_imgproc.putText;
import static org.bytedeco.opencv.global.opencv_imgproc.rectangle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.javacv.FFmpegFrameRecorder;
import org.bytedeco.javacv.OpenCVFrameConverter;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Point;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Scalar;

/**
 * Generates a video with hard cuts at known times, so demos and tests need no footage from
 * outside: each shot has its own palette, a moving box and a ball, and its number printed.
 * Encoded as MPEG-4 Part 2 in MP4, which the LGPL FFmpeg build can write.
 */
public final class SampleVideo {
    /** The demo: one minute at 640x360, 25 fps, with five hard cuts. */
    public static final List<Double> DEMO_CUTS = List.of(8.0, 19.0, 27.5, 41.0, 52.0);

    private SampleVideo() {}

    /**
     * Writes the video and returns the cut times in seconds (the shot starts after the first).
     *
     * @param cuts times of the hard cuts, increasing, inside (0, seconds)
     */
    public static List<Double> write(Path out, int width, int height, double fps, double seconds, List<Double> cuts)
            throws IOException {
        int frames = (int) Math.round(seconds * fps);
        org.bytedeco.ffmpeg.global.avutil.av_log_set_level(org.bytedeco.ffmpeg.global.avutil.AV_LOG_ERROR);
        try (FFmpegFrameRecorder rec = new FFmpegFrameRecorder(out.toFile(), width, height, 0);
                OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat();
                Mat img = new Mat(height, width, org.bytedeco.opencv.global.opencv_core.CV_8UC3)) {
            rec.setFormat("mp4");
            rec.setVideoCodec(avcodec.AV_CODEC_ID_MPEG4);
            rec.setFrameRate(fps);
            rec.setVideoBitrate(1_500_000);
            rec.setGopSize((int) Math.round(fps));
            rec.start();
            List<Double> shotStarts = new ArrayList<>();
            shotStarts.add(0.0);
            shotStarts.addAll(cuts);
            for (int i = 0; i < frames; i++) {
                double t = i / fps;
                int shot = 0;
                while (shot + 1 < shotStarts.size() && t >= shotStarts.get(shot + 1)) {
                    shot++;
                }
                draw(img, shot, t - shotStarts.get(shot), width, height);
                rec.record(conv.convert(img));
            }
            rec.stop();
        }
        return List.copyOf(cuts);
    }

    private static void draw(Mat img, int shot, double t, int w, int h) {
        // Palettes far apart in hue and brightness so every cut is an unmistakable change.
        int[][] bg = {{40, 40, 160}, {170, 110, 30}, {40, 150, 60}, {140, 40, 140}, {200, 200, 200}, {20, 90, 120},
            {90, 20, 40}, {30, 30, 30}};
        int[] c = bg[shot % bg.length];
        img.put(new Scalar(c[0], c[1], c[2], 0));
        int bx = (int) ((w - 120) * (0.5 + 0.4 * Math.sin(t * 0.9 + shot)));
        int by = (int) ((h - 80) * (0.5 + 0.4 * Math.cos(t * 0.7 + shot)));
        rectangle(img, new Rect(bx, by, 120, 80), new Scalar(255 - c[0], 255 - c[1], 255 - c[2], 0), -1, 8, 0);
        int cx = (int) (w * (0.2 + 0.6 * ((t * 0.15 + shot * 0.3) % 1.0)));
        circle(img, new Point(cx, h / 3), 30, new Scalar(c[2], 255 - c[1], c[0] / 2 + 100, 0), -1, 8, 0);
        putText(img, "shot " + (shot + 1), new Point(20, h - 20), FONT_HERSHEY_SIMPLEX, 1.2,
                new Scalar(255, 255, 255, 0), 2, 8, false);
    }
}
