package io.videoworld.perception;

import io.videoworld.core.Boxes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.videoworld.core.Detection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The converted MB3-CenterNet weights on real photos from Debian's opencv-doc, against what the
 * original TF.js graph found on the same photos (run once in Node with tfjs; boxes scaled from
 * its 512x512 input to the photo).
 */
class ObjectDetectorTest {
    private static ObjectDetector detector;
    private static DecodedImage messi;
    private static DecodedImage basketball;

    @BeforeAll
    static void load() throws Exception {
        detector = ObjectDetector.load(ModelDirectory.locate(), "centernet", List.of(), 0, 0.1);
        Path samples = ModelDirectory.samples();
        messi = DecodedImage.decode(Files.readAllBytes(samples.resolve("messi5.jpg")));
        basketball = DecodedImage.decode(Files.readAllBytes(samples.resolve("basketball1.png")));
    }

    @AfterAll
    static void close() {
        detector.close();
    }

    @Test
    void footballerAndBallAreFoundWhereTheOriginalModelFoundThem() {
        List<Detection> found = detector.detect(List.of(messi)).get(0);
        Detection ball = best(found, "sports ball");
        Detection player = best(found, "person");
        double sx = messi.width() / 512.0;
        double sy = messi.height() / 512.0;
        assertThat(ball.score()).isCloseTo(0.688, within(0.05));
        assertThat(iou(ball, 314.42 * sx, 429.35 * sy, 362.43 * sx, 504.67 * sy)).isGreaterThan(0.8);
        assertThat(player.score()).isCloseTo(0.504, within(0.05));
        assertThat(iou(player, 79.34 * sx, 92.58 * sy, 423.16 * sx, 507.49 * sy)).isGreaterThan(0.8);
        assertThat(ball.appearance()).hasSize(128);
    }

    @Test
    void aBatchOfTwoGivesWhatEachImageGivesAlone() {
        List<List<Detection>> both;
        try {
            both = detector.tensorBatching(true).detect(List.of(messi, basketball));
        } finally {
            detector.tensorBatching(false);
        }
        List<Detection> alone = detector.detect(List.of(basketball)).get(0);
        assertThat(both.get(1)).hasSameSizeAs(alone);
        for (int i = 0; i < alone.size(); i++) {
            assertThat(both.get(1).get(i).category()).isEqualTo(alone.get(i).category());
            assertThat(both.get(1).get(i).score()).isCloseTo(alone.get(i).score(), within(1e-3));
        }
        Detection player = best(alone, "person");
        double sx = basketball.width() / 512.0;
        double sy = basketball.height() / 512.0;
        assertThat(player.score()).isCloseTo(0.764, within(0.05));
        assertThat(iou(player, 21.12 * sx, 83.47 * sy, 138.99 * sx, 503.49 * sy)).isGreaterThan(0.8);
        assertThat(detector.device()).isIn("cpu", "gpu");
    }

    @Test
    void twoThreadsDetectingAtOnceEachGetWhatOneThreadGets() throws Exception {
        List<Detection> alone = detector.detect(List.of(messi)).get(0);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<List<Detection>>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(pool.submit(() -> detector.detect(List.of(messi)).get(0)));
            }
            for (java.util.concurrent.Future<List<Detection>> run : runs) {
                List<Detection> got = run.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(got).extracting(Detection::category).containsExactlyElementsOf(alone.stream().map(Detection::category).toList());
                for (int i = 0; i < alone.size(); i++) {
                    assertThat(got.get(i).score()).isCloseTo(alone.get(i).score(), within(1e-4));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theSameModelReadsASmallerInputSideAndStillFindsTheFootballerAndBall() throws Exception {
        // The converted graph takes any multiple of 32 (vw.detect.input-size); 320 is 0.4x the work of 512.
        try (ObjectDetector small = ObjectDetector.load(ModelDirectory.locate(), "centernet", List.of(), 320, 0.1)) {
            List<Detection> found = small.detect(List.of(messi)).get(0);
            double sx = messi.width() / 512.0;
            double sy = messi.height() / 512.0;
            assertThat(iou(best(found, "sports ball"), 314.42 * sx, 429.35 * sy, 362.43 * sx, 504.67 * sy)).isGreaterThan(0.6);
            assertThat(iou(best(found, "person"), 79.34 * sx, 92.58 * sy, 423.16 * sx, 507.49 * sy)).isGreaterThan(0.6);
        }
    }

    private static Detection best(List<Detection> found, String category) {
        return found.stream().filter(d -> d.category().equals(category)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + category + " in " + found));
    }

    private static double iou(Detection d, double x1, double y1, double x2, double y2) {
        return Boxes.iou(new double[] {d.x1(), d.y1(), d.x2(), d.y2()}, new double[] {x1, y1, Math.min(x2, 1e9), y2});
    }

    /**
     * An image's boxes do not depend on what else shares its batch: the job batches keyframes of
     * several streams together as they arrive, so two copies of a stream must get the same boxes.
     */
    @Test
    void anImagesBoxesAreTheSameAloneAndInAnyBatch() {
        List<Detection> alone = detector.detect(List.of(messi)).get(0);
        for (List<DecodedImage> batch : List.of(List.of(messi, basketball), List.of(basketball, messi, basketball), List.of(basketball, basketball, basketball, messi))) {
            List<List<Detection>> out = detector.detect(batch);
            assertThat(out.get(batch.indexOf(messi))).as("batch of %d", batch.size()).isEqualTo(alone);
        }
    }
}
