package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ASR bench's scoring (word error, speech/non-speech overlap) and its committed truth file. */
class AsrBenchTest {
    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("bin/videoworld"))) {
            p = p.getParent();
        }
        return p;
    }

    @Test
    void wordsAreLowerCaseWithoutPunctuation() {
        assertThat(AsrBench.words("And so, my fellow Americans, ask not\u2019s \"A badger.\""))
                .containsExactly("and", "so", "my", "fellow", "americans", "ask", "not's", "a", "badger");
        assertThat(AsrBench.words(" -- ")).isEmpty();
    }

    @Test
    void wordErrorsCountSubstitutionsDeletionsAndInsertions() {
        List<String> ref = List.of("a", "red", "kangaroo");
        assertThat(AsrBench.distance(ref, List.of("a", "red", "kangaroo"))).isZero();
        assertThat(AsrBench.distance(ref, List.of("kangaroo"))).isEqualTo(2);
        assertThat(AsrBench.distance(ref, List.of("a", "bed", "kangaroo", "too"))).isEqualTo(2);
        assertThat(AsrBench.distance(ref, List.of())).isEqualTo(3);
        assertThat(AsrBench.pct(2, 3)).isEqualTo("66.7%");
    }

    @Test
    void overlapIsCountedInTenMillisecondSteps() {
        List<double[]> truth = List.of(new double[] {0.0, 1.0});
        long[] t = AsrBench.overlap(truth, List.of(new double[] {0.5, 1.5}), 2.0);
        assertThat(t).containsExactly(50, 50, 50);
        assertThat(AsrBench.f1(t)).isEqualTo("0.500");
        assertThat(AsrBench.f1(AsrBench.overlap(List.of(), List.of(), 2.0))).isEqualTo("-");
        assertThat(AsrBench.f1(AsrBench.overlap(truth, truth, 2.0))).isEqualTo("1.000");
    }

    @Test
    void theTruthFileSplitsEveryClipOnceWithTextSpeechTimesAndAChecksum() throws Exception {
        List<AsrBench.Clip> clips = AsrBench.readTruth(root().resolve(AsrBench.TRUTH));
        Set<String> files = new HashSet<>();
        int heldOut = 0;
        for (AsrBench.Clip c : clips) {
            assertThat(files.add(c.file())).as("listed once: " + c.file()).isTrue();
            assertThat(c.split()).isIn("tune", "heldout");
            heldOut += c.split().equals("heldout") ? 1 : 0;
            assertThat(c.source()).as(c.file()).contains("text:");
            assertThat(c.text().isEmpty()).as("no text exactly when no speech: " + c.file()).isEqualTo(c.speech().isEmpty());
            double last = -1;
            for (double[] s : c.speech()) {
                assertThat(s[0]).as(c.file()).isGreaterThan(last).isLessThan(s[1]);
                last = s[1];
            }
        }
        assertThat(clips).hasSizeGreaterThanOrEqualTo(15);
        assertThat(heldOut).isBetween(clips.size() / 2 - 1, clips.size() / 2 + 1);
        for (String line : Files.readAllLines(root().resolve(AsrBench.TRUTH)).subList(1, clips.size() + 1)) {
            assertThat(line.split("\t")[5]).matches("[0-9a-f]{64}");
        }
    }
}
