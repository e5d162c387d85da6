package io.videoworld.engines.memory;

import io.videoworld.testkit.MemoryFixtures;
import static io.videoworld.testkit.MemoryFixtures.screen;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Perception;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memo answers as ScreenContinuity does, and judges a pair of keyframes once however often the open shot is batched again. */
class ContinuityMemoTest {
    private static final List<Perception> SESSION = List.of(
            screen("desk", 1, "report.odt - LibreOffice Writer", "Quarterly revenue grew in every region", topic(1, 0.1)),
            screen("desk", 2, "report.odt - LibreOffice Writer", "Quarterly revenue grew in every region this year", topic(1, 0.1)),
            screen("desk", 3, "Inbox - Mozilla Thunderbird", "Meeting moved to Thursday afternoon", topic(7, 0.1)),
            screen("desk", 4, "Inbox - Mozilla Thunderbird", "Meeting moved to Thursday afternoon, room 4", topic(7, 0.1)));

    @Test
    void answersAsScreenContinuityOncePerPair() {
        ContinuityMemo memo = new ContinuityMemo();
        for (int round = 0; round < 5; round++) {
            for (int i = 1; i < SESSION.size(); i++) {
                assertThat(memo.continues(SESSION.get(i - 1), SESSION.get(i))).as("pair %d, round %d", i, round)
                        .isEqualTo(ScreenContinuity.continues(SESSION.get(i - 1), SESSION.get(i)));
            }
        }
        assertThat(memo.computed()).as("three pairs, each judged once in five rounds").isEqualTo(3);
        // The switch from the editor to the mail client is the one place the session does not continue.
        assertThat(memo.continues(SESSION.get(1), SESSION.get(2))).isFalse();
        assertThat(memo.continues(SESSION.get(0), SESSION.get(1))).isTrue();
    }

    @Test
    void anotherStreamOrAnotherReadOfAKeyframeIsJudgedAgain() {
        ContinuityMemo memo = new ContinuityMemo();
        memo.continues(SESSION.get(1), SESSION.get(2));
        Perception otherStream = screen("other", 3, "Inbox - Mozilla Thunderbird", "Meeting moved to Thursday afternoon", topic(7, 0.1));
        Perception otherStreamBefore = screen("other", 2, "report.odt - LibreOffice Writer", "Quarterly revenue", topic(1, 0.1));
        memo.continues(otherStreamBefore, otherStream);
        Perception shed = Perception.shed(new io.videoworld.core.Keyframe("desk", MemoryFixtures.EPOCH, 3, 3000, "periodic", new byte[0],
                MemoryFixtures.EPOCH + 3000), "cpu", 1280, 800, SESSION.get(1).lines(), List.of(), "shed");
        assertThat(memo.continues(SESSION.get(1), shed)).as("carried lines of the editor: it continues").isTrue();
        assertThat(memo.computed()).isEqualTo(3);
    }
}
