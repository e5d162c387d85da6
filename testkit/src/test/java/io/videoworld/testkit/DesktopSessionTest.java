package io.videoworld.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated desktop sessions have contiguous truth, returns, several tasks in one app, and the machine's text on screen. */
class DesktopSessionTest {
    private static final long EPOCH = 1_700_000_000_000L;
    @TempDir
    static Path tmp;
    private static DesktopSession.Session session;

    @BeforeAll
    static void generate() throws Exception {
        String keep = System.getProperty("vw.desktop.keep");
        Path dir = keep != null ? Path.of(keep) : tmp.resolve("desk");
        session = DesktopSession.write(dir, DesktopSession.TUNING.get(Integer.getInteger("vw.desktop.pick", 0)), 120, EPOCH);
    }

    @Test
    void oneFrameASecondAt1280x800WithCaptureTimesAndContiguousTruth() throws Exception {
        assertThat(session.frames()).isEqualTo(120);
        BufferedImage first = ImageIO.read(session.folder().resolve("00000.jpg").toFile());
        assertThat(first.getWidth()).isEqualTo(1280);
        assertThat(first.getHeight()).isEqualTo(800);
        assertThat(Files.getLastModifiedTime(session.folder().resolve("00010.jpg")).toMillis()).isEqualTo(EPOCH + 10_000);
        List<DesktopSession.Activity> truth = session.truth();
        assertThat(truth.get(0).start()).isZero();
        assertThat(truth.get(truth.size() - 1).end()).isEqualTo(120);
        for (int i = 1; i < truth.size(); i++) {
            assertThat(truth.get(i).start()).isEqualTo(truth.get(i - 1).end());
            assertThat(truth.get(i).task()).isNotEqualTo(truth.get(i - 1).task());
        }
    }

    @Test
    void theSameSeedGivesTheSameVariantAndSeedsCoverPanelsAndMissingTitleBars() {
        assertThat(DesktopSession.variant(7)).isEqualTo(DesktopSession.variant(7));
        Set<String> panels = new HashSet<>();
        Set<Boolean> titled = new HashSet<>();
        for (long s : DesktopSession.HELD_OUT) {
            panels.add(DesktopSession.variant(s).panel());
            titled.add(DesktopSession.variant(s).titled());
        }
        assertThat(panels).containsExactlyInAnyOrder("none", "top", "bottom");
        assertThat(titled).containsExactlyInAnyOrder(true, false);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH);
        assertThat(DesktopSession.FRESH).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.FRESH_2);
        assertThat(DesktopSession.FRESH_2).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.FRESH_3);
        assertThat(DesktopSession.FRESH_3).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_2);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.FRESH_4);
        assertThat(DesktopSession.FRESH_4).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_2).doesNotContainAnyElementsOf(DesktopSession.FRESH_3);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.FRESH_5);
        assertThat(DesktopSession.FRESH_5).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_2).doesNotContainAnyElementsOf(DesktopSession.FRESH_3)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_4);
        assertThat(DesktopSession.TUNING).doesNotContainAnyElementsOf(DesktopSession.FRESH_6);
        assertThat(DesktopSession.FRESH_6).doesNotContainAnyElementsOf(DesktopSession.HELD_OUT).doesNotContainAnyElementsOf(DesktopSession.FRESH)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_2).doesNotContainAnyElementsOf(DesktopSession.FRESH_3)
                .doesNotContainAnyElementsOf(DesktopSession.FRESH_4).doesNotContainAnyElementsOf(DesktopSession.FRESH_5);
    }

    @Test
    void linesOnScreenComeFromTheMachinesFiles() {
        assertThat(session.shown()).isNotEmpty();
        DesktopSession.Shown s = session.shown().get(0);
        assertThat(s.end()).isGreaterThanOrEqualTo(s.start());
        System.out.println(session.variant() + " " + session.truth());
    }
}
