package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@code bench ask} reads its questions and scores the clips {@code /v1/ask} cited. */
class AskBenchTest {
    private static final String FILE = """
            {"media": [{"stream": "ask-cam", "file": "vtest.avi", "set": "shots", "kind": "camera", "audio": false},
                       {"stream": "ask-jfk", "file": "jfk.mp3", "set": "speech", "kind": "speech", "audio": true}],
             "questions": [
               {"id": "cam-01", "kind": "camera", "split": "tune", "stream": "ask-cam", "question": "When did a man walk past?",
                "truth": [[10.0, 12.5], [40, 41]], "thing": "a person"},
               {"id": "sp-01", "kind": "speech", "split": "heldout", "stream": "ask-jfk", "question": "When was 'ask not' said?",
                "truth": [[6.2, 7.0]], "thing": "the words ask not"}]}
            """;

    @Test
    void questionsAreReadPerSplitWithEveryTruthRange() throws Exception {
        JsonNode doc = Json.MAPPER.readTree(FILE);
        assertThat(AskBench.media(doc)).extracting(AskBench.Media::stream, AskBench.Media::audio)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ask-cam", false), org.assertj.core.groups.Tuple.tuple("ask-jfk", true));
        assertThat(AskBench.questions(doc, "heldout")).extracting(AskBench.Question::id).containsExactly("sp-01");
        assertThat(AskBench.questions(doc, "all")).hasSize(2);
        AskBench.Question cam = AskBench.questions(doc, "tune").get(0);
        assertThat(cam.truth()).hasSize(2);
        assertThat(cam.truth().get(1)).containsExactly(40.0, 41.0);
    }

    @Test
    void aHitIsTheFirstClipOnTheQuestionsStreamThatOverlapsATruthRange() throws Exception {
        AskBench.Question cam = AskBench.questions(Json.MAPPER.readTree(FILE), "tune").get(0);
        AskBench.Clip elsewhere = new AskBench.Clip("ask-jfk", 10, 12);
        AskBench.Clip before = new AskBench.Clip("ask-cam", 0, 9.9);
        AskBench.Clip touching = new AskBench.Clip("ask-cam", 12.5, 20);
        AskBench.Clip second = new AskBench.Clip("ask-cam", 39, 40.2);
        assertThat(AskBench.rank(cam, List.of())).isZero();
        assertThat(AskBench.rank(cam, List.of(elsewhere, before))).as("another stream's clip at the right time is no hit").isZero();
        assertThat(AskBench.rank(cam, List.of(before, elsewhere, touching))).isEqualTo(3);
        assertThat(AskBench.rank(cam, List.of(second, touching))).as("the second truth range counts too").isEqualTo(1);
    }

    @Test
    void eachStreamKeepsOneFixedPushTime() {
        AskBench.Media m = new AskBench.Media("ask-cam", "vtest.avi", "shots", "camera", false);
        assertThat(AskIngest.epochOf(m)).isEqualTo(AskIngest.epochOf(new AskBench.Media("ask-cam", "other", "ask", "camera", true)))
                .isNotEqualTo(AskIngest.epochOf(new AskBench.Media("ask-jfk", "vtest.avi", "shots", "camera", false)));
    }
}
