package io.videoworld.engines.people;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.Face;
import io.videoworld.perception.FaceCrop;
import io.videoworld.perception.FaceDescriptors;
import io.videoworld.perception.FaceRecognizer;
import io.videoworld.perception.ModelDirectory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The converted BlazeFace and faceres models with this project's decoding and alignment, on real
 * faces: the footballer of Debian's opencv-doc messi5.jpg, and the face grid of @vladmandic/human's
 * face-matching screenshot (deploy/samples.sh faces/facematch.jpg). Truth by eye on the full-size
 * image: the first row's 18 faces are one man (cut from 18 photos); the faces listed in
 * {@link #OTHERS} are other people (women, and men plainly not him); faces that might be him (men in
 * sunglasses, blurred) are left out. The tuning half is the even columns, the held-out half the odd
 * ones, fixed before the threshold was chosen.
 */
class FaceRecognizerTest {
    /** Top rows of the grid's face rows, in pixels of the 1920x954 screenshot; 18 faces per row. */
    static final int[] ROWS = {283, 395, 508};
    static final double CELL = 1920 / 18.0;
    /** {row, column} of faces that are not the first row's man. */
    static final int[][] OTHERS = {{1, 5}, {1, 6}, {1, 7}, {1, 9}, {1, 10}, {1, 11}, {1, 12}, {1, 14}, {1, 16}, {1, 17}, {2, 0}, {2, 1},
        {2, 2}, {2, 3}, {2, 5}, {2, 6}, {2, 8}, {2, 9}, {2, 10}, {2, 11}, {2, 12}, {2, 14}, {2, 15}, {2, 16}, {2, 17}};

    private static FaceRecognizer faces;
    private static DecodedImage grid;
    private static DecodedImage messi;
    /** Per labelled cell: {row, column, 1 if the man}, its face and descriptor. */
    private static final List<int[]> cells = new ArrayList<>();
    private static final List<Face> found = new ArrayList<>();
    private static float[][] descriptors;

    @BeforeAll
    static void load() throws Exception {
        faces = FaceRecognizer.load(ModelDirectory.locate());
        grid = DecodedImage.decode(Files.readAllBytes(ModelDirectory.samples().resolve("faces/facematch.jpg")));
        messi = DecodedImage.decode(Files.readAllBytes(ModelDirectory.samples().resolve("messi5.jpg")));
        for (int c = 0; c < 18; c++) {
            cells.add(new int[] {0, c, 1});
        }
        for (int[] o : OTHERS) {
            cells.add(new int[] {o[0], o[1], 0});
        }
        // each face is looked for in a square twice its cell, so that it is not the whole input
        List<DecodedImage> images = new ArrayList<>();
        List<FaceCrop> squares = new ArrayList<>();
        for (int[] c : cells) {
            double[] b = cell(c[0], c[1]);
            images.add(grid);
            squares.add(new FaceCrop((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, 2 * CELL, 0));
        }
        List<List<Face>> all = faces.detect(images, squares);
        for (int i = 0; i < cells.size(); i++) {
            double[] b = cell(cells.get(i)[0], cells.get(i)[1]);
            found.add(all.get(i).stream().filter(f -> inside(f, b)).findFirst().orElse(null));
        }
        List<Face> present = found.stream().filter(java.util.Objects::nonNull).toList();
        descriptors = faces.describe(java.util.Collections.nCopies(present.size(), grid), present);
    }

    @AfterAll
    static void close() {
        faces.close();
    }

    static double[] cell(int row, int col) {
        double x = col * CELL;
        return new double[] {x + 2, ROWS[row] + 1, x + CELL - 2, ROWS[row] + 105};
    }

    /** The face's centre lies in the box. */
    static boolean inside(Face f, double[] b) {
        double cx = (f.x1() + f.x2()) / 2;
        double cy = (f.y1() + f.y2()) / 2;
        return cx > b[0] && cx < b[2] && cy > b[1] && cy < b[3];
    }

    @Test
    void findsTheFootballersFaceWithItsEyesAndNose() {
        List<Face> fs = faces.detect(messi);
        assertThat(fs).hasSize(1);
        Face f = fs.get(0);
        assertThat(f.score()).isGreaterThan(0.8);
        // the footballer's box as MB3-CenterNet finds it (PoseEstimatorTest): his face in its top fifth, centred in its width
        double[] body = {79.34 * 548 / 512, 92.58 * 342 / 512, 423.16 * 548 / 512, 507.49 * 342 / 512};
        double cx = (f.x1() + f.x2()) / 2;
        double cy = (f.y1() + f.y2()) / 2;
        assertThat(cx).isBetween(body[0] + 0.25 * (body[2] - body[0]), body[2] - 0.25 * (body[2] - body[0]));
        assertThat(cy).isBetween(body[1], body[1] + 0.2 * (body[3] - body[1]));
        assertThat(f.size()).isBetween(20.0, 80.0);
        // facing the camera: his right eye on the image's left, both eyes above the nose, the nose above the mouth, all in the box
        assertThat(f.x(Face.RIGHT_EYE)).isLessThan(f.x(Face.LEFT_EYE));
        assertThat(Math.max(f.y(0), f.y(1))).isLessThan(f.y(2));
        assertThat(f.y(2)).isLessThan(f.y(3));
        for (int k = 0; k < 4; k++) {
            assertThat(f.x(k)).isBetween(f.x1(), f.x2());
            assertThat(f.y(k)).isBetween(f.y1(), f.y2());
        }
    }

    @Test
    void noFaceInTheFootballerUpsideDownAndNoneBigEnoughWhenTiny() {
        // the same photo turned upside down: the detector's one find there (not his face) has landmarks no face has
        byte[] flipped = new byte[messi.bgr().length];
        int n = messi.width() * messi.height();
        for (int p = 0; p < n; p++) {
            System.arraycopy(messi.bgr(), p * 3, flipped, (n - 1 - p) * 3, 3);
        }
        List<Face> upsideDown = faces.detect(new DecodedImage(messi.width(), messi.height(), flipped));
        System.out.println("upside-down footballer: " + upsideDown.size() + " faces " + upsideDown.stream().map(f -> java.util.Arrays.toString(f.landmarks())).toList());
        assertThat(upsideDown).isEmpty();
        // the photo at a quarter of its size in a frame as large as before: his face is under 10 px, found or not too small to describe
        int w = messi.width() / 4;
        int h = messi.height() / 4;
        byte[] small = new byte[messi.bgr().length];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                System.arraycopy(messi.bgr(), ((y * 4) * messi.width() + x * 4) * 3, small, (y * messi.width() + x) * 3, 3);
            }
        }
        for (Face f : faces.detect(new DecodedImage(messi.width(), messi.height(), small))) {
            assertThat(f.size()).isLessThan(20);
        }
    }

    @Test
    void findsAFaceInEveryCellOfTheGrid() {
        assertThat(found).doesNotContainNull();
        for (Face f : found) {
            assertThat(f.score()).isGreaterThan(0.5);
            assertThat(f.size()).isBetween(0.35 * CELL, 1.0 * CELL);
        }
    }

    @Test
    void pairsOfTheSameManPassTheThresholdChosenOnTheTuningHalfAndOthersMostlyDoNot() {
        double[] tune = scores(0, FaceLinks.THRESHOLD);
        double[] held = scores(1, FaceLinks.THRESHOLD);
        double chosen = chooseThreshold(0);
        System.out.printf("face identity: threshold chosen on the tuning half %.2f (FaceLinks.THRESHOLD %.2f); "
                + "tuning half precision %.3f recall %.3f (%d same, %d different pairs); held-out precision %.3f recall %.3f (%d same, %d different)%n",
                chosen, FaceLinks.THRESHOLD, tune[0], tune[1], (int) tune[2], (int) tune[3], held[0], held[1], (int) held[2], (int) held[3]);
        assertThat(chosen).isCloseTo(FaceLinks.THRESHOLD, org.assertj.core.data.Offset.offset(0.0051));
        assertThat(held[0]).isGreaterThanOrEqualTo(0.9);
        assertThat(held[1]).isGreaterThanOrEqualTo(0.8);
    }

    @Test
    void linksTheHeldOutMansFacesToOnePersonAndNoOtherFaceToHim() {
        FaceLinks links = new FaceLinks();
        Set<String> his = new HashSet<>();
        List<String> others = new ArrayList<>();
        int i = 0;
        for (int k = 0; k < cells.size(); k++) {
            int[] c = cells.get(k);
            if (c[1] % 2 == 1) {
                String id = links.link("grid:" + c[0] + ":" + c[1], descriptors[k]);
                if (c[2] == 1) {
                    his.add(id);
                } else {
                    others.add(id);
                }
                i++;
            }
        }
        System.out.printf("face links on the held-out half: %d faces, the man's 9 faces under %d ids, %d people in all%n", i, his.size(),
                links.people().size());
        assertThat(others).doesNotContainAnyElementsOf(his);
        assertThat(his.size()).isLessThanOrEqualTo(3);
    }

    /** {precision, recall, same pairs, different pairs} of "cosine >= t" on one half (0 even columns, 1 odd). */
    static double[] scores(int half, double t) {
        int tp = 0;
        int fp = 0;
        int same = 0;
        int diff = 0;
        for (int i = 0; i < cells.size(); i++) {
            for (int j = i + 1; j < cells.size(); j++) {
                int[] a = cells.get(i);
                int[] b = cells.get(j);
                if (a[1] % 2 != half || b[1] % 2 != half || a[2] + b[2] == 0) {
                    continue; // other half, or two faces of others (who may be one person)
                }
                boolean truth = a[2] == 1 && b[2] == 1;
                boolean said = FaceDescriptors.cosine(descriptors[i], descriptors[j]) >= t;
                same += truth ? 1 : 0;
                diff += truth ? 0 : 1;
                tp += truth && said ? 1 : 0;
                fp += !truth && said ? 1 : 0;
            }
        }
        return new double[] {tp + fp == 0 ? 1 : tp / (double) (tp + fp), tp / (double) same, same, diff};
    }

    /** The lowest threshold, in steps of 0.01, at which a half's pairwise precision is at least 0.95. */
    static double chooseThreshold(int half) {
        for (int s = 0; s <= 100; s++) {
            double t = s / 100.0;
            if (scores(half, t)[0] >= 0.95) {
                return t;
            }
        }
        return 1;
    }
}
