package io.videoworld.media.video;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.javacv.FFmpegFrameRecorder;
import org.bytedeco.javacv.OpenCVFrameConverter;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Scalar;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small pictures decoded the reduced way (what the shot benchmark and {@code bench shots-on} read)
 * show what the full decode shows, for codecs that can decode at a fraction of their size and for
 * those that cannot (Cinepak and Microsoft Video 1 gave blank or broken pictures when asked to).
 */
class SmallFrameDecoderTest {
    @TempDir
    Path tmp;

    /** A 320x240 clip: a bright left half (200) and a dark right half (40), with a grey box moving across. */
    private Path write(int codec, String name) throws Exception {
        Path out = tmp.resolve(name);
        try (FFmpegFrameRecorder rec = new FFmpegFrameRecorder(out.toFile(), 320, 240, 0);
                OpenCVFrameConverter.ToMat conv = new OpenCVFrameConverter.ToMat();
                Mat img = new Mat(240, 320, org.bytedeco.opencv.global.opencv_core.CV_8UC3)) {
            rec.setFormat("avi");
            rec.setVideoCodec(codec);
            rec.setPixelFormat(codec == avcodec.AV_CODEC_ID_MSVIDEO1 ? org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_RGB555LE
                    : codec == avcodec.AV_CODEC_ID_CINEPAK ? org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_RGB24
                    : org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P);
            rec.setFrameRate(12);
            rec.setVideoBitrate(2_000_000);
            rec.start();
            for (int i = 0; i < 12; i++) {
                img.put(new Scalar(40, 40, 40, 0));
                org.bytedeco.opencv.global.opencv_imgproc.rectangle(img, new Rect(0, 0, 160, 240), new Scalar(200, 200, 200, 0), -1, 8, 0);
                org.bytedeco.opencv.global.opencv_imgproc.rectangle(img, new Rect(20 * i, 80, 60, 60), new Scalar(120, 120, 120, 0), -1, 8, 0);
                rec.record(conv.convert(img));
            }
            rec.stop();
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"cinepak", "msvideo1", "mpeg4"})
    void reducedPicturesAreThePictures(String codecName) throws Exception {
        int codec = switch (codecName) {
            case "cinepak" -> avcodec.AV_CODEC_ID_CINEPAK;
            case "msvideo1" -> avcodec.AV_CODEC_ID_MSVIDEO1;
            default -> avcodec.AV_CODEC_ID_MPEG4;
        };
        Path clip = write(codec, codecName + ".avi");
        int frames = 0;
        try (SmallFrameDecoder reduced = new SmallFrameDecoder(clip.toString(), 80, 0, true);
                SmallFrameDecoder full = new SmallFrameDecoder(clip.toString(), 80, 0, false)) {
            SmallFrameDecoder.Picture r;
            SmallFrameDecoder.Picture f;
            while ((r = reduced.next()) != null && (f = full.next()) != null) {
                frames++;
                assertThat(r.width()).isEqualTo(80);
                double left = 0;
                double right = 0;
                long diff = 0;
                int w = r.width();
                for (int y = 0; y < r.height(); y++) {
                    for (int x = 0; x < w; x++) {
                        int i = (y * w + x) * 3;
                        int v = r.bgr()[i + 1] & 0xFF;
                        if (x < 16) {
                            left += v;
                        } else if (x >= 64) {
                            right += v;
                        }
                        diff += Math.abs(v - (f.bgr()[i + 1] & 0xFF));
                    }
                }
                left /= 16.0 * r.height();
                right /= 16.0 * r.height();
                assertThat(left).as("%s frame %d: the bright half", codecName, r.index()).isBetween(170.0, 230.0);
                assertThat(right).as("%s frame %d: the dark half", codecName, r.index()).isBetween(20.0, 70.0);
                assertThat(diff / (double) (w * r.height())).as("%s frame %d: reduced against full decode", codecName, r.index())
                        .isLessThan(12.0);
            }
        }
        assertThat(frames).isEqualTo(12);
    }
}
