package io.videoworld.engines.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Windows that show no name: a pager's status line read in pieces makes a terminal, and a
 * full-screen page of prose is guessed a document viewer when its pages turn and a browser when
 * it scrolls, a guess that names the window but never tells tasks apart.
 */
class WindowKindsTest {
    private static final List<String> PAGE = List.of("tar (1.34+dfsg-1.2) unstable; urgency=medium", "Non-maintainer upload.",
            "Fix the build with the new compiler release", "Closes a long standing bug about sparse files", "Sebastian Ramacher wrote this",
            "Update the watch file for the new upstream site", "Bump Standards-Version to the latest one", "New upstream version of it",
            "Drop a patch applied upstream since then", "Rebuild against the new library soname");

    /** A 640x400 keyframe: {@code lines} from line {@code first} at the top, 20 px apart, and {@code bottom} pieces on its last row (x, text). */
    private static Perception shot(List<String> lines, int first, Object... bottom) {
        List<TextLine> out = new ArrayList<>();
        for (int i = first; i < lines.size(); i++) {
            out.add(new TextLine(lines.get(i), 10, 6 + 20 * (i - first), 5 * lines.get(i).length(), 15, 0.9));
        }
        for (int i = 0; i < bottom.length; i += 2) {
            String text = (String) bottom[i + 1];
            out.add(new TextLine(text, (int) bottom[i], 388, 5 * text.length(), 9, 0.8));
        }
        return new Perception("desk", 0, 1, 1000, "periodic", out, "", null, null, "cpu", 640, 400, List.of(), 1000);
    }

    @Test
    void aPagersStatusLineReadInPiecesMakesATerminal() {
        assertThat(WindowKinds.pager(List.of("some text", "qtoquit)"))).isTrue();
        assertThat(WindowKinds.pager(List.of("git-fetch\uff081)line18"))).as("a full-width bracket").isTrue();
        assertThat(WindowKinds.pager(List.of("User Comimands"))).as("the header row, a letter misread").isTrue();
        assertThat(WindowKinds.pager(List.of("it is time to quit.", "see the help for more"))).as("prose").isFalse();
        // Pieces no pattern of a whole line finds, on the bottom row of the frame; the same words higher up are text.
        assertThat(WindowKinds.pagerRow(List.of(shot(PAGE, 0, 174, "17(press", 219, "forhelp", 288, "quit")))).isTrue();
        assertThat(WindowKinds.pagerRow(List.of(shot(PAGE, 0, 4, "Activities", 299, "16:13", 600, "en 90%")))).as("a panel").isFalse();
        assertThat(WindowKinds.pagerRow(List.of(shot(List.of("press the button", "for help see below", "or quit now"), 0)))).isFalse();
        // A window with no title bar whose top line runs a word into a dash: the pager says terminal before that reading does.
        String top = "tc18.6\uff088.6.13+dfsg-2\uff09unstable;urgency-mediun";
        assertThat(WindowChrome.app(top, List.of(top))).isEqualTo("mediun");
        assertThat(WindowChrome.app(top, List.of(top), true)).isEqualTo("terminal");
        assertThat(WindowChrome.app(top, List.of(top, "rqtoquit1"))).isEqualTo("terminal");
        assertThat(WindowChrome.app("tar(1) - Konsole", List.of("rqtoquit1"), true)).as("a title that names the app").isEqualTo("konsole");
    }

    @Test
    void aFullScreenPageIsGuessedByHowItsTextMoves() {
        assertThat(WindowKinds.byMotion(List.of(shot(PAGE, 0), shot(PAGE, 3), shot(PAGE, 5)))).as("scrolled").isEqualTo(WindowKinds.BROWSER);
        List<String> next = PAGE.stream().map(l -> "Next page: " + l.toLowerCase()).toList();
        assertThat(WindowKinds.byMotion(List.of(shot(PAGE, 0), shot(PAGE, 0), shot(next, 0)))).as("a page turned").isEqualTo(WindowKinds.PDF);
        assertThat(WindowKinds.byMotion(List.of(shot(PAGE, 0), shot(PAGE, 0)))).as("still").isNull();
        assertThat(WindowKinds.byMotion(List.of(shot(PAGE, 0)))).as("one keyframe").isNull();
    }

    @Test
    void aLineThatGrowsWhereItStandsIsTyped() {
        List<String> typing = new ArrayList<>(PAGE);
        typing.set(4, PAGE.get(4) + " and some mor");
        assertThat(WindowKinds.typed(List.of(shot(PAGE, 0), shot(typing, 0)))).isTrue();
        assertThat(WindowKinds.typed(List.of(shot(PAGE, 0), shot(PAGE, 2)))).as("scrolled").isFalse();
        List<String> more = new ArrayList<>(PAGE);
        more.add("alice: a new message at the bottom");
        assertThat(WindowKinds.typed(List.of(shot(PAGE, 0), shot(more, 0)))).as("a line added").isFalse();
        assertThat(WindowKinds.typed(List.of(shot(PAGE, 0), shot(PAGE, 0)))).as("still").isFalse();
    }

    @Test
    void aViewersHeaderOutranksAnAddressInItsText() {
        List<String> licence = List.of("Apache License", "http://www.apache.org/licenses/", "TERMS AND CONDITIONS FOR USE");
        assertThat(WindowKinds.of("Apache-2.0.pdf page 1 of 9 100%", licence)).isEqualTo(WindowKinds.PDF);
        assertThat(WindowKinds.of(null, licence)).as("no header: the address is all there is").isEqualTo(WindowKinds.BROWSER);
    }

    @Test
    void aGuessedKindNamesTheBatchButIsLeftOutOfWhatLaterBatchesCompare() {
        EpisodeBatch guessed = batch("browser", null, PAGE, EpisodeBatch.NEW);
        assertThat(EpisodeBatches.guessed(guessed)).isTrue();
        assertThat(EpisodeBatches.digest(guessed).app()).isNull();
        EpisodeBatch byAddress = batch("browser", "gtk changelog \u00a6 https://wiki.debian.org/gtk", PAGE, EpisodeBatch.NEW);
        assertThat(EpisodeBatches.digest(byAddress).app()).as("an address bar names it").isEqualTo("browser");
        assertThat(EpisodeBatches.digest(batch("pdf", null, PAGE, EpisodeBatch.RETURN)).app()).as("the task it returned to names it").isEqualTo("pdf");
        assertThat(EpisodeBatches.digest(batch("editor", null, PAGE, EpisodeBatch.NEW)).app()).as("typed into, or monospaced").isNull();
        assertThat(EpisodeBatches.digest(batch("okular", "tar.pdf - Okular", PAGE, EpisodeBatch.NEW)).app()).isEqualTo("okular");
        assertThat(EpisodeBatches.digest(batch("editor", "notes.md  todo.txt", PAGE, EpisodeBatch.NEW)).app()).as("a tab strip of files")
                .isEqualTo("editor");
    }

    private static EpisodeBatch batch(String app, String title, List<String> lines, String relation) {
        return new EpisodeBatch("desk", 0, 3, SourceKind.SCREEN, 0, 4000, 0, 4000, 4, "s", "c", app, title, lines, List.of(), List.of(), null, relation,
                EpisodeBatch.RETURN.equals(relation) ? 1 : -1, 0.5, List.of(), List.of(), "rules");
    }
}
