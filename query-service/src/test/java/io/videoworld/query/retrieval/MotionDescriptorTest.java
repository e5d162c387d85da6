package io.videoworld.query.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.esread.ObjectRepository;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Motion similarity tells walkers from standers and left from right, whatever their size. */
class MotionDescriptorTest {

    /** A person box 0.1 wide and {@code h} tall moving {@code dx} of the frame per second for 4 s. */
    private static ObjectRepository.Track person(double x, double h, double dx) {
        List<ObjectRepository.Point> pts = new ArrayList<>();
        for (int s = 0; s <= 4; s++) {
            double left = x + dx * s;
            pts.add(new ObjectRepository.Point(s, s * 1000L, 0.9, new double[] {left, 0.5 - h, left + 0.1, 0.5},
                    new int[] {(int) (left * 1000), (int) ((0.5 - h) * 1000), (int) ((left + 0.1) * 1000), 500}));
        }
        return new ObjectRepository.Track("t", 1, "person", 1000, 1000, 0, 4000, 5, 0.9, false, 0, pts, null);
    }

    private static double cos(float[] a, float[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d += a[i] * b[i];
        }
        return d;
    }

    @Test
    void walkersToTheRightResembleEachOtherMoreThanWalkersToTheLeftOrPeopleStandingStill() {
        float[] right = SimilarityTools.motionOf(List.of(person(0.1, 0.3, 0.05), person(0.3, 0.3, 0.06)), 0, 5000);
        float[] rightFar = SimilarityTools.motionOf(List.of(person(0.2, 0.1, 0.02)), 0, 5000);
        float[] left = SimilarityTools.motionOf(List.of(person(0.8, 0.3, -0.05)), 0, 5000);
        float[] still = SimilarityTools.motionOf(List.of(person(0.5, 0.3, 0)), 0, 5000);
        assertThat(cos(right, rightFar)).isGreaterThan(cos(right, left)).isGreaterThan(0.8);
        assertThat(cos(right, left)).isGreaterThan(cos(right, still));
        assertThat(SimilarityTools.motionOf(List.of(person(0.1, 0.3, 0.05)), 10_000, 20_000)).isNull();
    }
}
