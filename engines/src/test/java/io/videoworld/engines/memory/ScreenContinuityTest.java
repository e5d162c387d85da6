package io.videoworld.engines.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keyframe to keyframe: scrolling, a notification or an idle screen continue the activity, another
 * tab, file or manual page under the same chrome does not; and windows without a title are named
 * by the conventions of their kind.
 */
class ScreenContinuityTest {
    private static final List<String> MAN = List.of("tar - an archiving utility", "tar [-] A --catenate --concatenate | c --create",
            "tar {A|--catenate|--concatenate} [OPTIONS] ARCHIVE ARCHIVE", "GNU tar is an archiving program designed to store",
            "multiple files in a single file (an archive), and to", "manipulate such archives. The archive can be either",
            "a regular file or a device (e.g. a tape drive, hence", "the name of the program, which stands for tape archiver)");
    private static final List<String> SHELL = List.of("user@debian:~/work/project$ make test", "-rw-r--r-- 1 user user 48213 Nov 3 make0",
            "-rw-r--r-- 1 user user 1203 Nov 12 make1", "user@debian:~/work/project$ git status", "-rw-r--r-- 1 user user 771 Nov 8 git0",
            "user@debian:~/work/project$ df -h", "-rw-r--r-- 1 user user 90021 Nov 21 df0");

    /** A 1280x800 keyframe: a row at the top (null for none), then the lines from y = 100. */
    private static Perception frame(String top, List<String> lines) {
        List<TextLine> out = new ArrayList<>();
        if (top != null) {
            out.add(new TextLine(top, 500, 8, 10 * top.length(), 18, 0.95));
        }
        for (int i = 0; i < lines.size(); i++) {
            out.add(new TextLine(lines.get(i), 20, 100 + 22 * i, 10 * lines.get(i).length(), 18, 0.95));
        }
        return new Perception("desk", 0, 1, 1000, "periodic", out, String.join("\n", lines), null, null, "cpu", 1280, 800, List.of(), 1000);
    }

    @Test
    void aScrolledPageANotificationAndAnIdleScreenContinueAnotherTabOrManualPageCuts() {
        Perception a = frame("tar.1 - Chromium", MAN.subList(0, 6));
        assertThat(ScreenContinuity.continues(a, frame("tar.1 - Chromium", MAN.subList(2, 8)))).as("scrolled").isTrue();
        assertThat(ScreenContinuity.continues(a, a)).as("idle").isTrue();
        Perception noted = frame("tar.1 - Chromium", MAN.subList(0, 6));
        List<TextLine> withNote = new ArrayList<>(noted.lines());
        withNote.add(new TextLine("New message from bob", 920, 30, 200, 16, 0.9));
        assertThat(ScreenContinuity.continues(a, new Perception("desk", 0, 2, 2000, "periodic", withNote, "", null, null, "cpu", 1280, 800,
                List.of(), 2000))).as("a notification in the corner").isTrue();
        assertThat(ScreenContinuity.continues(a, frame("gzip.1 - Chromium", SHELL))).as("another tab").isFalse();
        // No chrome at all: the top line scrolls away, the lines stay.
        assertThat(ScreenContinuity.continues(frame(null, SHELL.subList(0, 6)), frame(null, SHELL.subList(1, 7)))).isTrue();
        assertThat(ScreenContinuity.continues(frame(null, SHELL), frame(null, MAN))).as("man opened in the terminal").isFalse();
    }

    @Test
    void aViewerCountingOtherPagesOrShowingOtherLinesOnOnePageShowsAnotherDocument() {
        String title = "changelog.Debian.pdf - Document Viewer";
        List<String> first = lines("changelog.Debian.pdf page 2 of 5 100%", MAN.subList(0, 6));
        List<String> paged = lines("changelog.Debian.pdf page 3 of 5 100%", MAN.subList(2, 8));
        assertThat(ScreenContinuity.continues(frame(title, first), frame(title, paged))).as("the next page of one document").isTrue();
        List<String> other = lines("changelog.Debian.pdf page 3 of 6 100%", MAN.subList(2, 8));
        assertThat(ScreenContinuity.continues(frame(title, first), frame(title, other))).as("a document of another length").isFalse();
        List<String> samePage = lines("changelog.Debian.pdf page 2 of 5 100%", SHELL);
        assertThat(ScreenContinuity.continues(frame(title, first), frame(title, samePage))).as("other lines on the same page").isFalse();
        assertThat(WindowKinds.pages(List.of(title, "changelog.Debian.pdf page3of 12 100%"))).containsExactly(3, 12);
        assertThat(WindowKinds.pages(List.of("changelog.Debian,p page 2 of 8100%"))).as("the zoom read joined to the count").containsExactly(2, 8);
        assertThat(WindowKinds.pages(List.of("LGPL-3.pdf page 1 of 16100%"))).containsExactly(1, 16);
        assertThat(WindowKinds.pages(MAN)).isNull();
    }

    @Test
    void aPageNumberAboveTheCountIsAMisreadCountAndCutsNothing() {
        String title = "changelog.Debian.pdf - Document Viewer";
        List<String> seventh = lines("changelog.Debian.pdf page 7 of 11 100%", MAN.subList(0, 6));
        // The next page, its count "11" read "1": no page 8 of 1 exists, so no document of another length either.
        List<String> eighth = lines("changelog.Debian.pdf page 8 of 1 100%", MAN.subList(2, 8));
        assertThat(WindowKinds.pages(eighth)).isNull();
        assertThat(ScreenContinuity.continues(frame(title, seventh), frame(title, eighth))).isTrue();
        // A count read right that differs still tells another document.
        List<String> other = lines("changelog.Debian.pdf page 8 of 9 100%", MAN.subList(2, 8));
        assertThat(ScreenContinuity.continues(frame(title, seventh), frame(title, other))).isFalse();
    }

    @Test
    void underATerminalTitleThatNeverChangesTheManualPageItShowsDecides() {
        String title = "user@debian: ~/work";
        List<String> tar = new ArrayList<>(MAN.subList(0, 4));
        tar.add("Manual page tar(1) line 1 (press h for help or q to quit)");
        List<String> tarLater = new ArrayList<>(MAN.subList(5, 8));
        tarLater.add("Hanualpae tar(1line 41 (presshfor help or q to quit)");
        List<String> gzip = new ArrayList<>(MAN.subList(0, 4));
        gzip.add("Manual page gzip(1) line 1 (press h for help or q to quit)");
        assertThat(ScreenContinuity.continues(frame(title, tar), frame(title, tarLater))).as("scrolled far, read badly").isTrue();
        assertThat(ScreenContinuity.continues(frame(title, tar), frame(title, gzip))).as("another manual page").isFalse();
        assertThat(ScreenContinuity.continues(frame(title, SHELL), frame(title, tar))).as("man opened from the shell").isFalse();
        assertThat(WindowKinds.manual(tarLater)).isEqualTo("tar");
        // Pages named by a path share most letters ("changelog.Debian"): the piece that differs tells them apart.
        List<String> tk = new ArrayList<>(MAN.subList(0, 4));
        tk.add("Manual page tk8.6/changelog.Debian(1) line 1 (press h for help or q to quit)");
        List<String> xi = new ArrayList<>(MAN.subList(0, 4));
        xi.add("Manual page libxi6/changelog.Debian(1) line 1 (press h for help or q to quit)");
        assertThat(WindowKinds.manual(tk)).isEqualTo("tk86changelogdebian");
        assertThat(ScreenContinuity.continues(frame(title, tk), frame(title, xi))).as("another changelog page").isFalse();
        assertThat(WindowChrome.same(title + TitleText.PARTS + WindowChrome.MANUAL + "tk86changelogdebian",
                title + TitleText.PARTS + WindowChrome.MANUAL + "libxi6changelogdebian")).isFalse();
        assertThat(WindowChrome.same(title + TitleText.PARTS + WindowChrome.MANUAL + "tk86changelogdebian",
                title + TitleText.PARTS + WindowChrome.MANUAL + "t86changelogdebian")).as("a letter misread").isTrue();
    }

    @Test
    void pagesOfADocumentReadFullScreenContinueWhileTheLookAndTheTopicStay() {
        List<String> page1 = List.of("binutils (2.40-2) unstable; urgency=high", "Fix a potential illegal memory access in the library",
                "Remove the workaround for the assembler problem", "Update translations from the release branch",
                "Build-depend on the compression library again", "Refresh the symbols of the shared library");
        List<String> page2 = List.of("Avoid unaligned pointer reads in the image section", "Update attributes in the control file",
                "New upstream snapshot taken from the trunk", "Only install the profiler settings when available",
                "Matthias Klose, Mon, 10 Oct 2022 12:12:53 +0200", "Fix an internal error of the gold linker");
        float[] topic = {1, 0, 0};
        float[] sameTopic = {0.8f, 0.6f, 0};
        float[] otherTopic = {0.2f, 0, 0.98f};
        float[] light = {1, 0.02f, 0};
        float[] dark = {0.1f, 1, 0};
        // No title bar and no convention names the window: each page's top line reads as another title, no line stays.
        assertThat(ScreenContinuity.continues(page(page1, topic, light), page(page2, sameTopic, light))).as("a page turned").isTrue();
        assertThat(ScreenContinuity.continues(page(page1, topic, light), page(page2, otherTopic, light))).as("another document, same look").isFalse();
        assertThat(ScreenContinuity.continues(page(page1, topic, light), page(page2, sameTopic, dark))).as("another window, same topic").isFalse();
        assertThat(ScreenContinuity.continues(page(page1, topic, null), page(page2, sameTopic, null))).as("look unknown").isFalse();
    }

    @Test
    void anEditorWhoseLinesAllChangedUnderOneTitleShowsAnotherFileWhateverItsTopic() {
        List<String> one = List.of("binutils (2.40-2) unstable; urgency=high", "Fix a potential illegal memory access in the library",
                "Remove the workaround for the assembler problem", "Update translations from the release branch",
                "Build-depend on the compression library again", "Refresh the symbols of the shared library",
                "Matthias Klose, Sun, 02 Oct 2022 09:41:07 +0200", "binutils (2.40-1) unstable; urgency=medium");
        List<String> other = List.of("Avoid unaligned pointer reads in the image section", "Update attributes in the control file",
                "New upstream snapshot taken from the trunk", "Only install the profiler settings when available",
                "Matthias Klose, Mon, 10 Oct 2022 12:12:53 +0200", "Fix an internal error of the gold linker",
                "gcc-12 (12.2.0-14) unstable; urgency=medium", "Update the Ada cross compiler packages");
        float[] changelogs = {1, 0, 0};
        String title = "changelog.Debian.md - gedit";
        List<String> typed = new ArrayList<>(one);
        typed.add(3, "a line typed into the file just now");
        assertThat(ScreenContinuity.continues(titled(title, one, changelogs), titled(title, typed, changelogs))).as("typing").isTrue();
        // Two files of one name (or one tab strip over both), both changelogs: no line in common is another file.
        assertThat(ScreenContinuity.continues(titled(title, one, changelogs), titled(title, other, changelogs))).as("another file").isFalse();
        // Not an editor (a browser page scrolled far): the topic still carries it.
        assertThat(ScreenContinuity.continues(titled("binutils changelog - Chromium", one, changelogs),
                titled("binutils changelog - Chromium", other, changelogs))).as("a page scrolled far").isTrue();
    }

    private static Perception titled(String title, List<String> lines, float[] embedding) {
        Perception p = frame(title, lines);
        return new Perception(p.streamId(), p.epochMs(), p.frameIndex(), p.ptsMs(), p.role(), p.lines(), p.text(), embedding, null, p.device(),
                p.width(), p.height(), p.objects(), p.eventTimeMs());
    }

    private static Perception page(List<String> lines, float[] embedding, float[] descriptor) {
        Perception p = frame(null, lines);
        return new Perception(p.streamId(), p.epochMs(), p.frameIndex(), p.ptsMs(), p.role(), p.lines(), p.text(), embedding, descriptor, p.device(),
                p.width(), p.height(), p.objects(), p.eventTimeMs());
    }

    @Test
    void windowsWithoutATitleAreNamedByTheirKind() {
        assertThat(WindowKinds.of(null, List.of("usergdebian:~/work/projects git status"))).as("OCR's prompt").isEqualTo("terminal");
        assertThat(WindowKinds.of(null, List.of("see: /usr/share/docs for more"))).isNull();
        assertThat(WindowKinds.of("changelog.pdf  page 2 of 7  100%", List.of())).isEqualTo("pdf");
        assertThat(WindowKinds.of("#release - 5 members", List.of())).isEqualTo("chat");
        assertThat(WindowKinds.of("Home / Pictures", List.of("Places", "Home", "libbrotli-dev  792 kB Folder"))).isEqualTo("files");
        assertThat(WindowKinds.of("notes.md  todo.txt", List.of("some text"))).isEqualTo("editor");
        assertThat(WindowKinds.of("gtk changelog", List.of("https://wiki.debian.org/gtk"))).isEqualTo("browser");
        assertThat(WindowKinds.of("gtk changelog", List.of("plain words of a page"))).isNull();
    }

    @Test
    void textInAMonospacedFontIsToldFromProportionalTextByItsBoxes() {
        // frame() sets every letter 10 px wide, as a monospaced font does; a proportional one sets "il" narrow and "mw" wide.
        assertThat(WindowKinds.monospaced(List.of(frame(null, MAN), frame(null, MAN.subList(1, 6))))).isTrue();
        List<TextLine> out = new ArrayList<>();
        for (int i = 0; i < MAN.size(); i++) {
            int width = MAN.get(i).chars().map(c -> "ilIjtf.,'|!:;() ".indexOf(c) >= 0 ? 4 : "mwMW".indexOf(c) >= 0 ? 14 : Character.isUpperCase(c) ? 11 : 8).sum();
            out.add(new TextLine(MAN.get(i), 20, 100 + 22 * i, width, 18, 0.95));
        }
        Perception proportional = new Perception("desk", 0, 1, 1000, "periodic", out, "", null, null, "cpu", 1280, 800, List.of(), 1000);
        assertThat(WindowKinds.monospaced(List.of(proportional))).isFalse();
        assertThat(WindowKinds.monospaced(List.of(frame(null, List.of("too few lines", "to tell"))))).as("too little text").isFalse();
    }

    /** A viewer's header line over the given body lines. */
    private static List<String> lines(String header, List<String> body) {
        List<String> all = new ArrayList<>(List.of(header));
        all.addAll(body);
        return all;
    }
}
