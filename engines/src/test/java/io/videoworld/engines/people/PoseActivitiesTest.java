package io.videoworld.engines.people;

import io.videoworld.perception.Pose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The posture, motion and raised-hand rules on poses drawn by hand in pixels (y grows downwards). */
class PoseActivitiesTest {

    /** A person from named joint positions; joints not named are unseen. */
    static Pose pose(double[]... joints) {
        double[] x = new double[17];
        double[] y = new double[17];
        double[] s = new double[17];
        for (double[] j : joints) {
            int k = (int) j[0];
            x[k] = j[1];
            y[k] = j[2];
            s[k] = 0.9;
        }
        return new Pose(x, y, s);
    }

    static Pose upright(double hipX, double wristY) {
        return pose(new double[] {Pose.LEFT_SHOULDER, hipX + 20, 100}, new double[] {Pose.RIGHT_SHOULDER, hipX - 20, 100},
                new double[] {Pose.LEFT_HIP, hipX + 15, 200}, new double[] {Pose.RIGHT_HIP, hipX - 15, 200},
                new double[] {Pose.LEFT_KNEE, hipX + 15, 290}, new double[] {Pose.RIGHT_KNEE, hipX - 15, 290},
                new double[] {Pose.LEFT_WRIST, hipX + 25, wristY}, new double[] {Pose.RIGHT_WRIST, hipX - 25, 190});
    }

    @Test
    void thighsLevelWithTheHipsUnderAnUprightTorsoIsSitting() {
        Pose sitting = pose(new double[] {Pose.LEFT_SHOULDER, 120, 100}, new double[] {Pose.RIGHT_SHOULDER, 80, 100},
                new double[] {Pose.LEFT_HIP, 115, 200}, new double[] {Pose.RIGHT_HIP, 85, 200},
                new double[] {Pose.LEFT_KNEE, 200, 210}, new double[] {Pose.RIGHT_KNEE, 190, 215});
        assertThat(PoseActivities.posture(sitting).label()).isEqualTo("sitting");
        assertThat(PoseActivities.posture(upright(100, 190)).label()).isEqualTo("standing");
    }

    @Test
    void aTorsoLeaningHalfwayOverStraightLegsIsBendingAndALevelOneLying() {
        Pose bending = pose(new double[] {Pose.LEFT_SHOULDER, 180, 130}, new double[] {Pose.RIGHT_SHOULDER, 170, 140},
                new double[] {Pose.LEFT_HIP, 105, 200}, new double[] {Pose.RIGHT_HIP, 95, 200},
                new double[] {Pose.LEFT_KNEE, 105, 290}, new double[] {Pose.RIGHT_KNEE, 95, 290});
        assertThat(PoseActivities.posture(bending).label()).isEqualTo("bending");
        Pose lying = pose(new double[] {Pose.LEFT_SHOULDER, 300, 205}, new double[] {Pose.RIGHT_SHOULDER, 300, 195},
                new double[] {Pose.LEFT_HIP, 200, 205}, new double[] {Pose.RIGHT_HIP, 200, 195});
        assertThat(PoseActivities.posture(lying).label()).isEqualTo("lying");
        assertThat(PoseActivities.posture(pose(new double[] {Pose.NOSE, 1, 1}))).as("no torso, no posture").isNull();
    }

    @Test
    void aWristWellAboveItsShoulderIsARaisedHandAndAtTheChestItIsNot() {
        assertThat(PoseActivities.raisedHand(upright(100, 40)).label()).isEqualTo("raising_hand");
        assertThat(PoseActivities.raisedHand(upright(100, 95))).isNull();
        assertThat(PoseActivities.raisedHand(upright(100, 150))).isNull();
    }

    @Test
    void consecutiveSamplesWithOneLabelMakeOneActivityWithTheirFrames() {
        // Height 200 px; hips still, then moving 100 px per second (0.5 heights/s) since the sample before, then still with a hand up.
        List<PoseActivities.Sample> samples = List.of(
                new PoseActivities.Sample(1, 0, 200, upright(100, 190)),
                new PoseActivities.Sample(2, 1000, 200, upright(100, 190)),
                new PoseActivities.Sample(3, 2000, 200, upright(200, 190)),
                new PoseActivities.Sample(4, 3000, 200, upright(300, 190)),
                new PoseActivities.Sample(5, 4000, 200, upright(300, 40)),
                new PoseActivities.Sample(6, 5000, 200, upright(300, 40)));
        List<PoseActivities.Activity> got = PoseActivities.recognize(samples);
        assertThat(got).extracting(PoseActivities.Activity::label).containsExactly("standing", "walking", "standing", "raising_hand");
        assertThat(got.get(0).frames()).containsExactly(1L, 2L);
        assertThat(got.get(1).frames()).containsExactly(3L, 4L);
        assertThat(got.get(1).fromMs()).isEqualTo(2000);
        assertThat(got.get(1).toMs()).isEqualTo(3000);
        assertThat(got.get(2).frames()).containsExactly(5L, 6L);
        assertThat(got.get(3).frames()).containsExactly(5L, 6L);
        assertThat(got).allSatisfy(a -> assertThat(a.confidence()).isBetween(0.3, 1.0));
    }
}
