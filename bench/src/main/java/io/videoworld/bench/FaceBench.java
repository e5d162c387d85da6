package io.videoworld.bench;

import io.videoworld.core.Detection;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.Face;
import io.videoworld.perception.FaceCrop;
import io.videoworld.perception.FaceRecognizer;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.ObjectDetector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What faces cost the person operator, and how often a person-sample has one: on OpenCV's vtest.avi
 * (pedestrians seen from above, sampled at 4 fps, 640 wide JPEG q85 as the producer sends it) each
 * person box MB3-CenterNet finds (score >= 0.4) at least 64 px tall is searched for a face in its
 * head square, all boxes of a frame in one batch, as the operator does; faces of 20 px or more are
 * described. Then, on the face grid of deploy/samples.sh (faces/facematch.jpg, 54 faces), a search
 * and a description per face, one face per call against all in one batch. Decoding and detection
 * are not timed.
 *
 * <p>Run with {@code bin/videoworld bench faces [SAMPLES]} (default 60 samples).
 */
public final class FaceBench {
    private FaceBench() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("faces", args);
        int limit = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        Path models = ModelDirectory.locate();
        List<DecodedImage> frames = DetectorSizeBench.samples("vtest.avi");
        frames = frames.subList(0, Math.min(limit, frames.size()));
        List<List<double[]>> boxes = new ArrayList<>();
        int small = 0;
        try (ObjectDetector detector = ObjectDetector.load(models, "centernet", List.of(), 0, 0.4)) {
            for (DecodedImage f : frames) {
                List<double[]> people = new ArrayList<>();
                for (Detection d : detector.detect(List.of(f)).get(0)) {
                    if ("person".equals(d.category())) {
                        if (d.y2() - d.y1() >= 64) {
                            people.add(new double[] {d.x1(), d.y1(), d.x2(), d.y2()});
                        } else {
                            small++;
                        }
                    }
                }
                boxes.add(people);
            }
        }
        int people = boxes.stream().mapToInt(List::size).sum();
        System.out.printf("%nvtest.avi: %d samples, %d person boxes of 64 px or more (score >= 0.4; %d shorter ones not searched), %dx%d; "
                + "ONNX Runtime threads: its default%n", frames.size(), people, small, frames.get(0).width(), frames.get(0).height());
        System.out.println("| footage | person-samples searched | with a face (20 px or more) | ms / person-sample searched | ms / face described |");
        System.out.println("|---|---:|---:|---:|---:|");
        try (FaceRecognizer faces = FaceRecognizer.load(models)) {
            for (int i = 0; i < 3; i++) {
                search(faces, frames.get(i), boxes.get(i)); // warm-up
            }
            DecodedImage grid = DecodedImage.decode(Files.readAllBytes(ModelDirectory.samples().resolve("faces/facematch.jpg")));
            faces.describeSquares(List.of(grid, grid), List.of(new FaceCrop(53, 336, 104, 0), new FaceCrop(160, 336, 104, 0))); // warm-up
            long search = 0;
            long describe = 0;
            int found = 0;
            for (int i = 0; i < frames.size(); i++) {
                long t0 = System.nanoTime();
                List<Face> got = search(faces, frames.get(i), boxes.get(i));
                long t1 = System.nanoTime();
                faces.describe(Collections.nCopies(got.size(), frames.get(i)), got);
                describe += System.nanoTime() - t1;
                search += t1 - t0;
                found += got.size();
            }
            System.out.printf("| vtest.avi | %d | %d (%.0f%%) | %.1f | %s |%n", people, found, 100.0 * found / Math.max(1, people),
                    search / 1e6 / Math.max(1, people), found == 0 ? "-" : String.format("%.1f", describe / 1e6 / found));

            int[] rows = {283, 395, 508};
            double cell = 1920 / 18.0;
            List<FaceCrop> squares = new ArrayList<>();
            for (int r : rows) {
                for (int c = 0; c < 18; c++) {
                    squares.add(new FaceCrop(c * cell + cell / 2, r + 53, 2 * cell, 0));
                }
            }
            List<DecodedImage> imgs = Collections.nCopies(squares.size(), grid);
            faces.detect(imgs.subList(0, 2), squares.subList(0, 2)); // warm-up
            System.out.println();
            System.out.printf("faces/facematch.jpg: %d faces%n", squares.size());
            System.out.println("| how | ms / face searched | ms / face described | faces found |");
            System.out.println("|---|---:|---:|---:|");
            for (boolean batched : new boolean[] {false, true}) {
                List<Face> got = new ArrayList<>();
                long t0 = System.nanoTime();
                if (batched) {
                    for (List<Face> fs : faces.detect(imgs, squares)) {
                        if (!fs.isEmpty()) {
                            got.add(fs.get(0));
                        }
                    }
                } else {
                    for (int i = 0; i < squares.size(); i++) {
                        List<Face> fs = faces.detect(List.of(grid), List.of(squares.get(i))).get(0);
                        if (!fs.isEmpty()) {
                            got.add(fs.get(0));
                        }
                    }
                }
                long t1 = System.nanoTime();
                if (batched) {
                    faces.describe(Collections.nCopies(got.size(), grid), got);
                } else {
                    for (Face f : got) {
                        faces.describe(List.of(grid), List.of(f));
                    }
                }
                long t2 = System.nanoTime();
                System.out.printf("| %s | %.1f | %.1f | %d |%n", batched ? "all in one batch" : "one per call", (t1 - t0) / 1e6 / squares.size(),
                        (t2 - t1) / 1e6 / Math.max(1, got.size()), got.size());
            }
        }
        System.out.println();
        System.out.println("Timed on this machine with whatever else ran on it; see the load average recorded with the run.");
    }

    /** The faces in the head squares of a frame's person boxes, one batch, as the person operator looks for them. */
    static List<Face> search(FaceRecognizer faces, DecodedImage frame, List<double[]> boxes) {
        List<FaceCrop> squares = new ArrayList<>();
        for (double[] b : boxes) {
            double w = b[2] - b[0];
            double h = b[3] - b[1];
            double side = Math.max(16, Math.min(w, 0.45 * h));
            squares.add(new FaceCrop((b[0] + b[2]) / 2, b[1] - 0.05 * side + side / 2, side, 0));
        }
        List<Face> out = new ArrayList<>();
        List<List<Face>> found = faces.detect(Collections.nCopies(squares.size(), frame), squares);
        for (int i = 0; i < boxes.size(); i++) {
            for (Face f : found.get(i)) {
                double cx = (f.x1() + f.x2()) / 2;
                if (cx > boxes.get(i)[0] && cx < boxes.get(i)[2] && f.size() >= 20) {
                    out.add(f);
                    break;
                }
            }
        }
        return out;
    }
}
