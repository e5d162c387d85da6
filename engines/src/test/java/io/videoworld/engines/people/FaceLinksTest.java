package io.videoworld.engines.people;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Linking tracks to people by face descriptors, on made-up descriptors whose similarities are known. */
class FaceLinksTest {
    /** A unit vector at {@code degrees} from the first axis, in the plane of the first two, padded to 8 numbers. */
    static float[] at(double degrees) {
        float[] v = new float[8];
        v[0] = (float) Math.cos(Math.toRadians(degrees));
        v[1] = (float) Math.sin(Math.toRadians(degrees));
        return v;
    }

    @Test
    void aSimilarTrackJoinsAPersonAndADissimilarOneStartsAnother() {
        FaceLinks links = new FaceLinks(0.9);
        String a = links.link("s:t:000001", at(0));
        assertThat(a).isEqualTo(FaceLinks.idOf("s:t:000001")).startsWith("per_").hasSize(24);
        assertThat(links.link("s:t:000002", at(20))).isEqualTo(a); // cos 20 deg = 0.94
        assertThat(links.link("s:t:000003", at(90))).isNotEqualTo(a).isEqualTo(FaceLinks.idOf("s:t:000003"));
        assertThat(links.people()).extracting(FaceLinks.Person::tracks).containsExactly(2, 1);
        // the person's descriptor is the unit mean: 10 degrees
        assertThat(links.people().get(0).descriptor()[1]).isCloseTo((float) Math.sin(Math.toRadians(10)), org.assertj.core.data.Offset.offset(1e-6f));
    }

    @Test
    void aTrackCloseToOneLookAlikeButFarFromThePersonsOtherTracksDoesNotJoin() {
        FaceLinks links = new FaceLinks(0.9);
        String a = links.link("t1", at(0));
        assertThat(links.link("t2", at(25))).isEqualTo(a); // cos 25 = 0.906
        // 45 degrees: cos 20 = 0.94 to t2 but cos 45 = 0.71 to t1; the mean (0.82) is under the threshold
        assertThat(links.link("t3", at(45))).isNotEqualTo(a);
    }

    @Test
    void theBestPersonWinsAndTheOrderAloneDecides() {
        List<float[]> in = List.of(at(0), at(60), at(55), at(5));
        FaceLinks one = new FaceLinks(0.9);
        FaceLinks two = new FaceLinks(0.9);
        for (int i = 0; i < in.size(); i++) {
            assertThat(one.link("t" + i, in.get(i))).isEqualTo(two.link("t" + i, in.get(i)));
        }
        assertThat(one.people()).hasSize(2);
        assertThat(one.people().get(1).tracks()).isEqualTo(2); // 55 joined 60, not 0
        // a linker told the people it knew goes on as the first would
        FaceLinks resumed = new FaceLinks(0.9, one.people());
        assertThat(resumed.link("t9", at(58))).isEqualTo(one.people().get(1).id());
    }

    @Test
    void theSameFirstTrackGivesTheSameIdAndAnotherTrackAnother() {
        assertThat(FaceLinks.idOf("cam:t:000004")).isEqualTo(FaceLinks.idOf("cam:t:000004")).isNotEqualTo(FaceLinks.idOf("cam:t:000005"));
    }
}
