package io.videoworld.query.entity;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.connectors.esread.ActivityRepository.PoseActivity;
import io.videoworld.connectors.esread.PersonHistory;
import io.videoworld.connectors.esread.PersonHistory.PersonEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** State questions answered from activities, and a person replayed from an append-only history. */
class PersonStatesTest {
    private static PoseActivity act(String label, double conf, long from, long to) {
        return new PoseActivity("s:t:000002:a:" + label + ":" + from, "s:t:000002", label, conf, from, to, 3, List.of(from / 40));
    }

    @Test
    void aQuestionNamingAnActivityGetsYesOrNoAndAnyOtherWhatThePersonDoes() {
        List<PoseActivity> all = List.of(act("standing", 0.8, 2000, 2800), act("raising_hand", 0.6, 2400, 3400), act("sitting", 0.9, 4000, 5000));
        List<PoseActivity> at = PersonStates.at(all, 2600, 500);
        assertThat(at).extracting(PoseActivity::label).containsExactly("standing", "raising_hand");
        assertThat(PersonStates.answer("Ana", "Is she standing?", at)).isEqualTo("Yes: Ana is standing.");
        assertThat(PersonStates.answer("Ana", "is she sitting", at)).isEqualTo("No: Ana is standing and raising a hand, not sitting.");
        assertThat(PersonStates.answer("Ana", "Does she have her hand up?", at)).isEqualTo("Yes: Ana is raising a hand.");
        assertThat(PersonStates.answer("the person", "What is the person doing?", at)).isEqualTo("The person is standing and raising a hand.");
        assertThat(PersonStates.answer("Ana", null, at)).isEqualTo("Ana is standing and raising a hand.");
        // "understand" is not "stand"; between runs, the nearest within the margin counts; beyond it nothing does.
        assertThat(PersonStates.asked("Do you understand what she does?")).isEmpty();
        assertThat(PersonStates.at(all, 3700, 500)).extracting(PoseActivity::label).containsExactly("raising_hand", "sitting");
        assertThat(PersonStates.at(all, 6000, 500)).isEmpty();
        assertThat(PersonStates.answer("Ana", "Is she sitting?", List.of())).isNull();
    }

    private static PersonEvent event(String id, String kind, String track, String name, String label, Long from, Long to, Integer samples,
            List<Long> frames) {
        return new PersonEvent(id, "per_x", kind, "s", 1L, track, name, label, label == null ? null : 0.7, from, to, samples, frames, 0);
    }

    @Test
    void replayTakesTheLatestNameTheWidestTrackAndTheFullestRecordOfEachActivity() {
        List<PersonEvent> history = List.of(
                event("1", PersonHistory.NAMED, "s:t:2", "Ana", null, null, null, null, null),
                event("2", PersonHistory.TRACK, "s:t:2", null, null, 2000L, 2800L, 5, null),
                event("3", PersonHistory.ACTIVITY, "s:t:2", null, "standing", 2000L, 2400L, 2, List.of(50L, 55L)),
                event("4", PersonHistory.ACTIVITY, "s:t:2", null, "standing", 2000L, 2800L, 5, List.of(50L, 55L, 60L, 65L, 70L)),
                event("5", PersonHistory.TRACK, "s:t:2", null, null, 2000L, 3800L, 10, null),
                event("6", PersonHistory.NAMED, "s:t:2", "Ana Lima", null, null, null, null, null),
                event("7", "a-kind-of-later-version", "s:t:2", null, null, null, null, null, null));
        People.PersonRecord r = People.replay("per_x", history);
        assertThat(r.name()).isEqualTo("Ana Lima");
        assertThat(r.seen()).hasSize(1);
        assertThat(r.seen().get(0).toMs()).isEqualTo(3800);
        assertThat(r.activities()).hasSize(1);
        assertThat(r.activities().get(0).samples()).isEqualTo(5);
        assertThat(r.activities().get(0).toMs()).isEqualTo(2800);
        assertThat(r.events()).isEqualTo(7);
        // The same events replayed again give the same person.
        assertThat(People.replay("per_x", history)).isEqualTo(r);
    }

    @Test
    void theSameNameIsTheSamePersonAndAnotherIsAnother() {
        assertThat(People.idOf("Ana Lima")).isEqualTo(People.idOf("  ana   LIMA ")).startsWith(People.PREFIX);
        assertThat(People.idOf("Ana Lima")).isNotEqualTo(People.idOf("Ana Lisa"));
    }
}
