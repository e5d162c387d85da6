package io.videoworld.bench;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Detection;
import io.videoworld.core.TextLine;
import io.videoworld.engines.gates.MotionGate;
import io.videoworld.engines.gates.MotionMemory;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.OcrEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Change-gated perception against perceiving every frame whole, on the same frames in the same
 * run. (a) Screens: a generated 1280x800 1 fps session (typing, scrolling, idle stretches, app
 * switches and returns; JPEG q90 as the producer sends them; the lines drawn are the truth): PP-OCRv4
 * on every frame whole, then through {@link ScreenGate}; pixels read, frames/s, line recall of the
 * gated read against the full read and both against the truth. (b) Camera: OpenCV's vtest.avi
 * (pedestrians) sampled at 4 fps, 640 wide: CenterNet on every sample, then through
 * {@link MotionGate}; detector calls, frames/s, and detection recall against full detection
 * (same label, IoU 0.5, boxes scoring 0.3 and up); other gate thresholds are replayed on the same
 * run's detections (no extra detector calls), marked so. Usage: GateBench [SCREEN_FRAMES (300)]
 * [FULL_EVERY (20)] [FULL_FRACTION (0.5)] [CAMERA_FULL_EVERY (8)] [MIN_MOTION (0.002)].
 */
public final class GateBench {
    private GateBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("gate", args);
        int frames = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int fullEvery = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        double fullFraction = args.length > 2 ? Double.parseDouble(args[2]) : 0.5;
        int camFullEvery = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        double minMotion = args.length > 4 ? Double.parseDouble(args[4]) : 0.002;
        Path models = ModelDirectory.locate();
        System.out.printf("change gate on %s, %d cores, DJL OnnxRuntime%n", System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors());
        screens(models, frames, new ScreenGate.Settings(true, fullEvery, fullFraction));
        camera(models, new MotionGate.Settings(true, camFullEvery, minMotion));
    }

    // ---------------------------------------------------------------- screens

    private static void screens(Path models, int frames, ScreenGate.Settings settings) throws Exception {
        List<GateScreenSession.Shot> session = GateScreenSession.session(frames, 2024);
        try (OcrEngine ocr = OcrEngine.load(models)) {
            ocr.read(GateScreenSession.warmUpJpeg()); // warm-up
            long pixels = (long) session.get(0).image().width() * session.get(0).image().height();
            List<List<TextLine>> full = new ArrayList<>();
            long t0 = System.nanoTime();
            for (GateScreenSession.Shot s : session) {
                full.add(ocr.readCrops(List.of(s.image()), List.of(new OcrEngine.Crop(0, 0, s.image().width(), s.image().height()))).get(0));
            }
            double fullSeconds = (System.nanoTime() - t0) / 1e9;
            ScreenGate gate = new ScreenGate(settings);
            List<List<TextLine>> gated = new ArrayList<>();
            long read = 0;
            int[] kinds = new int[3];
            t0 = System.nanoTime();
            ScreenGate.Last last = null;
            for (GateScreenSession.Shot s : session) {
                GreyFrame grey = GreyFrame.of(s.image());
                ScreenGate.Read r = gate.read(last, s.image(), grey, ocr);
                last = ScreenGate.remember(last, grey, r.plan(), r.lines());
                gated.add(r.lines());
                read += r.plan().pixelsRead();
                kinds[r.plan().kind().ordinal()]++;
            }
            double gatedSeconds = (System.nanoTime() - t0) / 1e9;
            double[] vsFull = recall(full, gated);
            double[] fullVsTruth = recallTruth(session, full);
            double[] gatedVsTruth = recallTruth(session, gated);
            System.out.printf("%n(a) screens: %d frames 1280x800 at 1 fps, JPEG q90; gate: full read every %d, whole when bands > %.0f%%; "
                    + "reads: %d full, %d partial, %d none%n", frames, settings.fullEvery(), settings.fullFraction() * 100, kinds[0], kinds[1], kinds[2]);
            System.out.println("| screens | OCR pixels | frames/s | line recall vs full read | line recall vs truth |");
            System.out.println("|---|---:|---:|---:|---:|");
            System.out.printf("| every frame whole | %.1f M (1.00x) | %.2f (1.00x) | 1.000 | %.3f |%n", frames * (double) pixels / 1e6, frames / fullSeconds,
                    fullVsTruth[0]);
            System.out.printf("| change gate | %.1f M (%.2fx) | %.2f (%.2fx) | %.3f | %.3f |%n", read / 1e6, read / (frames * (double) pixels),
                    frames / gatedSeconds, fullSeconds / gatedSeconds, vsFull[0], gatedVsTruth[0]);
            System.out.printf("gated lines not in the full read (stale or extra): %.3f of the gated lines; worst frame's recall vs full: %.3f%n",
                    1 - recall(gated, full)[0], vsFull[1]);
        }
    }

    private static String norm(String s) {
        return s.replaceAll("\\s+", "").toLowerCase();
    }

    /** [pooled recall of the reference's lines among the other's, worst frame's recall]; a line is found when its text (whitespace aside) is. */
    private static double[] recall(List<List<TextLine>> reference, List<List<TextLine>> other) {
        int hit = 0;
        int all = 0;
        double worst = 1;
        for (int i = 0; i < reference.size(); i++) {
            List<String> pool = new ArrayList<>(other.get(i).stream().map(l -> norm(l.text())).toList());
            int h = 0;
            for (TextLine l : reference.get(i)) {
                if (pool.remove(norm(l.text()))) {
                    h++;
                }
            }
            hit += h;
            all += reference.get(i).size();
            if (!reference.get(i).isEmpty()) {
                worst = Math.min(worst, (double) h / reference.get(i).size());
            }
        }
        return new double[] {all == 0 ? 1 : (double) hit / all, worst};
    }

    private static double[] recallTruth(List<GateScreenSession.Shot> session, List<List<TextLine>> read) {
        List<List<TextLine>> truth = new ArrayList<>();
        for (GateScreenSession.Shot s : session) {
            truth.add(s.truth().stream().map(t -> new TextLine(t, 0, 0, 1, 1, 1)).toList());
        }
        return recall(truth, read);
    }

    // ---------------------------------------------------------------- camera

    private static void camera(Path models, MotionGate.Settings settings) throws Exception {
        List<DecodedImage> samples = new ArrayList<>();
        try (VideoFrameSource src = new VideoFrameSource(ModelDirectory.samples().resolve("vtest.avi").toString(), 4, new JpegEncoder(640, 90))) {
            SourceFrame f;
            while ((f = src.next()) != null) {
                samples.add(DecodedImage.decode(f.jpeg()));
            }
        }
        try (ObjectDetector detector = ObjectDetector.load(models, "centernet", List.of(), 0, 0.1)) {
            detector.detect(samples.subList(0, 2)); // warm-up
            List<List<Detection>> full = new ArrayList<>();
            long t0 = System.nanoTime();
            for (DecodedImage img : samples) {
                full.add(detector.detect(List.of(img)).get(0));
            }
            double fullSeconds = (System.nanoTime() - t0) / 1e9;
            MotionGate gate = new MotionGate(settings);
            List<List<Detection>> gated = new ArrayList<>();
            int calls = 0;
            t0 = System.nanoTime();
            MotionMemory memory = null;
            List<Detection> kept = null;
            for (DecodedImage img : samples) {
                GreyFrame thumb = GreyFrame.thumbnail(img, MotionGate.THUMB);
                boolean detect = gate.detect(memory, thumb);
                if (detect) {
                    kept = detector.detect(List.of(img)).get(0);
                    calls++;
                }
                memory = MotionGate.next(memory, thumb, detect, 0);
                gated.add(kept);
            }
            double gatedSeconds = (System.nanoTime() - t0) / 1e9;
            int n = samples.size();
            System.out.printf("%n(b) camera: vtest.avi, %d samples at 4 fps, 640x480; gate: detect when >= %.2f%% of the %d-wide thumbnail moved, "
                    + "in any case every %d samples%n", n, settings.minMotion() * 100, MotionGate.THUMB, settings.fullEvery());
            System.out.println("| camera | detector calls | frames/s | detection recall vs full (IoU 0.5) |");
            System.out.println("|---|---:|---:|---:|");
            System.out.printf("| every sample | %d (1.00x) | %.2f (1.00x) | 1.000 |%n", n, n / fullSeconds);
            System.out.printf("| motion gate | %d (%.2fx) | %.2f (%.2fx) | %.3f |%n", calls, calls / (double) n, n / gatedSeconds, fullSeconds / gatedSeconds,
                    detectionRecall(full, gated));
            System.out.println("replayed on this run's detections (no detector calls): min motion / full every -> calls, recall");
            for (double mm : new double[] {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02}) {
                for (int every : new int[] {4, 8, 16}) {
                    MotionGate replay = new MotionGate(new MotionGate.Settings(true, every, mm));
                    List<List<Detection>> out = new ArrayList<>();
                    int c = 0;
                    MotionMemory m = null;
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        GreyFrame thumb = GreyFrame.thumbnail(samples.get(i), MotionGate.THUMB);
                        boolean detect = replay.detect(m, thumb);
                        if (detect) {
                            from = i;
                            c++;
                        }
                        m = MotionGate.next(m, thumb, detect, 0);
                        out.add(full.get(from));
                    }
                    System.out.printf("  %.2f%% / %d -> %.2fx calls, recall %.3f%n", mm * 100, every, c / (double) n, detectionRecall(full, out));
                }
            }
        }
    }

    /** Share of the full detection's boxes (score 0.3 and up) matched by a gated box of the same label at IoU 0.5. */
    private static double detectionRecall(List<List<Detection>> full, List<List<Detection>> gated) {
        return DetectorSizeBench.matched(full, gated, 0.3);
    }
}
