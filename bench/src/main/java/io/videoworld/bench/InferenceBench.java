package io.videoworld.bench;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.OcrEngine;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Detector and OCR frames/s on this machine at batch 1 and batch 16 (the operator's micro-batch),
 * on real frames: 64 frames of OpenCV's vtest.avi (pedestrians, scaled to 640 wide) for the
 * detector, 32 rendered 1280x720 screens of text for OCR. Batch 1 is the reference the ratio is
 * taken against, measured in the same run. Usage: InferenceBench [DETECTOR_SPEC]
 */
public final class InferenceBench {
    private InferenceBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("inference", args);
        String spec = args.length > 0 ? args[0] : "centernet";
        Path models = ModelDirectory.locate();
        List<DecodedImage> frames = new ArrayList<>();
        try (VideoFrameSource src = new VideoFrameSource(ModelDirectory.samples().resolve("vtest.avi").toString(), 0, new JpegEncoder(640, 90))) {
            SourceFrame f;
            while (frames.size() < 64 && (f = src.next()) != null) {
                frames.add(DecodedImage.decode(f.jpeg()));
            }
        }
        List<byte[]> screens = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            screens.add(screen(i));
        }
        System.out.printf("inference on %s, %d cores, DJL OnnxRuntime%n", System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors());
        System.out.println("| model | input | batch | frames/s | ms/frame | vs batch 1 |");
        System.out.println("|---|---|---:|---:|---:|---:|");
        try (ObjectDetector detector = ObjectDetector.load(models, spec, List.of(), 0, 0.1).tensorBatching(true)) {
            detector.detect(frames.subList(0, 16));
            double one = rate(frames.size(), () -> {
                for (DecodedImage img : frames) {
                    detector.detect(List.of(img));
                }
            });
            double sixteen = rate(frames.size(), () -> {
                for (int i = 0; i < frames.size(); i += 16) {
                    detector.detect(frames.subList(i, i + 16));
                }
            });
            String input = "centernet".equals(spec) ? "512x512 (from 640x480)" : "letterboxed 640";
            row("detector " + spec + " (" + detector.device() + ")", input, 1, one, one);
            row("detector " + spec + " (" + detector.device() + ")", input, 16, sixteen, one);
        }
        try (OcrEngine ocr = OcrEngine.load(models).tensorBatching(true)) {
            ocr.readAll(screens.subList(0, 4));
            double one = rate(screens.size(), () -> {
                for (byte[] s : screens) {
                    ocr.read(s);
                }
            });
            double sixteen = rate(screens.size(), () -> {
                for (int i = 0; i < screens.size(); i += 16) {
                    ocr.readAll(screens.subList(i, i + 16));
                }
            });
            row("PP-OCRv4 det+rec", "1280x720 screen, 6 lines", 1, one, one);
            row("PP-OCRv4 det+rec", "1280x720 screen, 6 lines", 16, sixteen, one);
        }
    }

    private static void row(String model, String input, int batch, double fps, double reference) {
        System.out.printf("| %s | %s | %d | %.1f | %.1f | %.2fx |%n", model, input, batch, fps, 1000 / fps, fps / reference);
    }

    private static double rate(int frames, Runnable work) {
        long t0 = System.nanoTime();
        work.run();
        return frames / ((System.nanoTime() - t0) / 1e9);
    }

    private static byte[] screen(int i) throws Exception {
        BufferedImage img = new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(250, 250, 250));
        g.fillRect(0, 0, 1280, 720);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(28f));
        g.setColor(new Color(30, 30, 30));
        String[] words = {"invoice", "meeting", "report", "deploy", "review", "budget", "travel", "backlog"};
        for (int line = 0; line < 6; line++) {
            g.drawString("Item " + (i * 6 + line) + ": " + words[(i + line) % words.length] + " due on day " + (line + 3), 60, 100 + line * 90);
        }
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }
}
