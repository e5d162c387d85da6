package io.videoworld.engines.people;

import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.Pose;
import io.videoworld.perception.PoseCrop;
import io.videoworld.perception.PoseEstimator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.videoworld.core.Detection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The converted MoveNet weights with this project's decoding, on real photos from Debian's opencv-doc,
 * against what the original TF.js graph (run once in Node with tfjs-core 4.22 and its CPU backend)
 * gave for the same 192x192 inputs; then postures and motion from those poses.
 */
class PoseEstimatorTest {
    /** The original graph's output (row, column, confidence in 0-1 of the crop) for the basketball player's crop. */
    private static final double[][] BASKETBALL_TFJS = {{0.18456, 0.48179, 0.45755}, {0.17009, 0.49313, 0.45342}, {0.16845, 0.46078, 0.53514},
        {0.18084, 0.49896, 0.51487}, {0.17546, 0.42895, 0.76948}, {0.25574, 0.53436, 0.70972}, {0.24630, 0.39105, 0.63648},
        {0.35756, 0.58078, 0.65332}, {0.35150, 0.48269, 0.56592}, {0.25331, 0.60163, 0.38924}, {0.25375, 0.57386, 0.53330},
        {0.50698, 0.52981, 0.86504}, {0.51149, 0.43682, 0.84906}, {0.69833, 0.53343, 0.59721}, {0.69263, 0.43287, 0.82358},
        {0.84524, 0.53468, 0.62930}, {0.86424, 0.42364, 0.71096}};
    /** The same for the footballer's crop. */
    private static final double[][] MESSI_TFJS = {{0.30807, 0.45760, 0.61464}, {0.29445, 0.46445, 0.54662}, {0.29660, 0.44515, 0.57443},
        {0.28879, 0.46183, 0.56684}, {0.29579, 0.40034, 0.59872}, {0.34034, 0.51389, 0.72949}, {0.34804, 0.33993, 0.57882},
        {0.39491, 0.58824, 0.52323}, {0.32984, 0.22313, 0.65358}, {0.41671, 0.69267, 0.63222}, {0.29573, 0.14409, 0.37854},
        {0.55729, 0.54563, 0.80280}, {0.59234, 0.45430, 0.83850}, {0.60820, 0.68509, 0.79390}, {0.68550, 0.43849, 0.56400},
        {0.63899, 0.82424, 0.54540}, {0.70943, 0.49598, 0.14948}};

    private static PoseEstimator poses;
    private static DecodedImage basketball;
    private static DecodedImage messi;
    /** The standing player's box as MB3-CenterNet finds it (ObjectDetectorTest), in frame pixels. */
    private static final double[] PLAYER = {21.12 * 640 / 512, 83.47 * 480 / 512, 138.99 * 640 / 512, 503.49 * 480 / 512};
    private static final double[] FOOTBALLER = {79.34 * 548 / 512, 92.58 * 342 / 512, 423.16 * 548 / 512, 507.49 * 342 / 512};

    @BeforeAll
    static void load() throws Exception {
        poses = PoseEstimator.load(ModelDirectory.locate());
        Path samples = ModelDirectory.samples();
        basketball = DecodedImage.decode(Files.readAllBytes(samples.resolve("basketball1.png")));
        messi = DecodedImage.decode(Files.readAllBytes(samples.resolve("messi5.jpg")));
    }

    @AfterAll
    static void close() {
        poses.close();
    }

    @Test
    void convertedModelAndDecodingGiveTheOriginalGraphsKeypoints() {
        int per = PoseEstimator.SIDE * PoseEstimator.SIDE * 3;
        float[] input = new float[2 * per];
        PoseCrop.around(PLAYER[0], PLAYER[1], PLAYER[2], PLAYER[3]).fill(basketball, PoseEstimator.SIDE, input, 0);
        PoseCrop.around(FOOTBALLER[0], FOOTBALLER[1], FOOTBALLER[2], FOOTBALLER[3]).fill(messi, PoseEstimator.SIDE, input, per);
        for (int i = 0; i < input.length; i++) {
            input[i] = Math.round(input[i]); // the original graph takes int32 pixels
        }
        float[][][] got = poses.runInput(input, 2);
        double[][][] want = {BASKETBALL_TFJS, MESSI_TFJS};
        for (int img = 0; img < 2; img++) {
            for (int k = 0; k < 17; k++) {
                for (int c = 0; c < 3; c++) {
                    assertThat((double) got[img][k][c]).as("image %d keypoint %s value %d", img, Pose.NAMES[k], c)
                            .isCloseTo(want[img][k][c], within(1e-3));
                }
            }
        }
    }

    @Test
    void theStandingPlayersJointsAreOnHisBodyTopToBottom() {
        Pose p = poses.estimate(basketball, List.of(PLAYER)).get(0);
        for (int k : new int[] {Pose.NOSE, Pose.LEFT_SHOULDER, Pose.RIGHT_SHOULDER, Pose.LEFT_HIP, Pose.RIGHT_HIP, Pose.LEFT_KNEE,
            Pose.RIGHT_KNEE, Pose.LEFT_ANKLE, Pose.RIGHT_ANKLE}) {
            assertThat(p.score()[k]).as(Pose.NAMES[k]).isGreaterThan(0.4);
            assertThat(p.x()[k]).as(Pose.NAMES[k]).isBetween(PLAYER[0] - 10, PLAYER[2] + 10);
            assertThat(p.y()[k]).as(Pose.NAMES[k]).isBetween(PLAYER[1] - 10, PLAYER[3] + 10);
        }
        assertThat(p.y()[Pose.NOSE]).isLessThan(p.y()[Pose.LEFT_SHOULDER]);
        assertThat(p.y()[Pose.LEFT_SHOULDER]).isLessThan(p.y()[Pose.LEFT_HIP]);
        assertThat(p.y()[Pose.LEFT_HIP]).isLessThan(p.y()[Pose.LEFT_KNEE]);
        assertThat(p.y()[Pose.LEFT_KNEE]).isLessThan(p.y()[Pose.LEFT_ANKLE]);
        // He faces the camera: his left side is on the image's right.
        assertThat(p.x()[Pose.LEFT_SHOULDER]).isGreaterThan(p.x()[Pose.RIGHT_SHOULDER]);
        PoseActivities.Judged posture = PoseActivities.posture(p);
        assertThat(posture.label()).isEqualTo("standing");
        assertThat(posture.confidence()).isGreaterThan(0.5);
        assertThat(PoseActivities.raisedHand(p)).as("he holds the ball at his chest").isNull();
    }

    @Test
    void theSamePlayerTurnedOnHisSideIsLying() {
        DecodedImage turned = rotateClockwise(basketball);
        // (x, y) -> (h - 1 - y, x)
        int h = basketball.height();
        double[] box = {h - 1 - PLAYER[3], PLAYER[0], h - 1 - PLAYER[1], PLAYER[2]};
        Pose p = poses.estimate(turned, List.of(box)).get(0);
        PoseActivities.Judged posture = PoseActivities.posture(p);
        assertThat(posture).isNotNull();
        assertThat(posture.label()).isEqualTo("lying");
        assertThat(posture.confidence()).isGreaterThan(0.4);
    }

    @Test
    void theFootballersOutstretchedArmsReachPastHisShoulders() {
        Pose p = poses.estimate(messi, List.of(FOOTBALLER)).get(0);
        double shoulders = p.x()[Pose.LEFT_SHOULDER] - p.x()[Pose.RIGHT_SHOULDER];
        assertThat(shoulders).as("he faces the camera").isGreaterThan(0);
        assertThat(p.x()[Pose.RIGHT_SHOULDER] - p.x()[Pose.RIGHT_WRIST]).isGreaterThan(shoulders);
        assertThat(p.x()[Pose.LEFT_WRIST] - p.x()[Pose.LEFT_SHOULDER]).isGreaterThan(shoulders / 2);
        assertThat(p.score()[Pose.LEFT_WRIST]).isGreaterThan(0.5);
        assertThat(p.score()[Pose.RIGHT_WRIST]).isGreaterThan(0.3);
    }

    @Test
    void thePlayerMovedAcrossTheFrameWalksOrRunsByHowFast() {
        Pose still = poses.estimate(basketball, List.of(PLAYER)).get(0);
        DecodedImage moved = shiftRight(basketball, 80);
        double[] movedBox = {PLAYER[0] + 80, PLAYER[1], PLAYER[2] + 80, PLAYER[3]};
        Pose after = poses.estimate(moved, List.of(movedBox)).get(0);
        double hip = (after.x()[Pose.LEFT_HIP] + after.x()[Pose.RIGHT_HIP]) / 2 - (still.x()[Pose.LEFT_HIP] + still.x()[Pose.RIGHT_HIP]) / 2;
        assertThat(hip).as("the hips follow the pixels").isCloseTo(80, within(6.0));
        double height = PLAYER[3] - PLAYER[1];
        // 80 px of a ~440 px person in one second: walking; in a tenth of a second: running; no move: standing.
        List<PoseActivities.Activity> slow = PoseActivities.recognize(List.of(new PoseActivities.Sample(10, 0, height, still),
                new PoseActivities.Sample(20, 1000, height, after)));
        // Motion is measured between samples: the first one stands.
        assertThat(slow).extracting(PoseActivities.Activity::label).containsExactly("standing", "walking");
        assertThat(slow.get(1).frames()).containsExactly(20L);
        List<PoseActivities.Activity> fast = PoseActivities.recognize(List.of(new PoseActivities.Sample(10, 0, height, still),
                new PoseActivities.Sample(11, 100, height, after)));
        assertThat(fast).extracting(PoseActivities.Activity::label).containsExactly("standing", "running");
        List<PoseActivities.Activity> stay = PoseActivities.recognize(List.of(new PoseActivities.Sample(10, 0, height, still),
                new PoseActivities.Sample(20, 1000, height, still)));
        assertThat(stay).extracting(PoseActivities.Activity::label).containsExactly("standing");
    }

    @Test
    void aBatchOfBoxesGivesWhatEachBoxGivesAloneAndAnEmptyBoxNoPose() {
        Pose alone = poses.estimate(basketball, List.of(PLAYER)).get(0);
        List<Pose> batch = poses.estimate(basketball, List.of(new double[] {500, 60, 640, 480}, new double[] {5, 5, 5, 9}, PLAYER));
        assertThat(batch).hasSize(3);
        assertThat(batch.get(1)).isNull();
        for (int k = 0; k < 17; k++) {
            assertThat(batch.get(2).x()[k]).isCloseTo(alone.x()[k], within(0.01));
            assertThat(batch.get(2).score()[k]).isCloseTo(alone.score()[k], within(1e-4));
        }
    }

    static DecodedImage rotateClockwise(DecodedImage img) {
        int w = img.width();
        int h = img.height();
        byte[] out = new byte[w * h * 3];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int nx = h - 1 - y;
                int ny = x;
                System.arraycopy(img.bgr(), (y * w + x) * 3, out, (ny * h + nx) * 3, 3);
            }
        }
        return new DecodedImage(h, w, out);
    }

    static DecodedImage shiftRight(DecodedImage img, int dx) {
        int w = img.width();
        byte[] out = new byte[img.bgr().length];
        for (int y = 0; y < img.height(); y++) {
            System.arraycopy(img.bgr(), y * w * 3, out, (y * w + dx) * 3, (w - dx) * 3);
        }
        return new DecodedImage(w, img.height(), out);
    }
}
