package io.videoworld.engines.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window title is found by layout and stability, not taken from the first line read. */
class WindowChromeTest {
    private static int frame;

    /** A 1280x800 keyframe with these lines (text, x, y). */
    private static Perception shot(Object... lines) {
        List<TextLine> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i += 3) {
            String text = (String) lines[i];
            out.add(new TextLine(text, (int) lines[i + 1], (int) lines[i + 2], 10 * text.length(), 18, 0.95));
        }
        frame++;
        return new Perception("desk", 0, frame, frame * 1000L, "periodic", out, "", null, null, "cpu", 1280, 800, List.of(), frame * 1000L);
    }

    @Test
    void aPanelWithAClockAndWindowControlsAreNotTheTitle() {
        Perception a = shot("Activities", 10, 5, "14:02", 600, 5, "en 90%", 1180, 5, "report.txt - gedit", 540, 40, "x", 1250, 40,
                "first line of the text", 30, 120);
        Perception b = shot("Activities", 10, 5, "14:03", 600, 5, "en 90%", 1180, 5, "report.txt - gedit", 540, 40, "x", 1250, 40,
                "another line further down", 30, 120);
        String title = WindowChrome.title(List.of(a, b));
        assertThat(title).isEqualTo("report.txt - gedit");
        assertThat(WindowChrome.app(title, List.of())).isEqualTo("gedit");
    }

    @Test
    void aGnomeTopBarWithADatedClockAboveTheTitleBarIsNotTheTitle() {
        // A thin bar at the very top: Activities, the day and date beside the clock, menus; the window's title bar under it.
        Perception a = shot("Activities", 12, 7, "Sun Feb 14  12:19", 560, 7, "en 85 %", 1150, 7, "report.txt - gedit", 540, 38,
                "first line of the text", 30, 120);
        Perception b = shot("Activities", 12, 7, "Sun Feb 14  12:19", 560, 7, "en 85 %", 1150, 7, "report.txt - gedit", 540, 38,
                "another line further down", 30, 120);
        String title = WindowChrome.title(List.of(a, b));
        assertThat(title).isEqualTo("report.txt - gedit");
        assertThat(WindowChrome.app(title, List.of())).isEqualTo("gedit");
        // Only Activities read of the bar (the clock too small for OCR), or only the dated clock: still the bar.
        assertThat(WindowChrome.title(List.of(shot("Activities", 12, 7, "Pictures - Files", 560, 38),
                shot("Activities", 12, 7, "Pictures - Files", 560, 38)))).isEqualTo("Pictures - Files");
        assertThat(WindowChrome.title(List.of(shot("Thursday 14 November 09:30", 500, 7, "Pictures - Files", 560, 38),
                shot("Thursday 14 November 09:30", 500, 7, "Pictures - Files", 560, 38)))).isEqualTo("Pictures - Files");
        // Read small, its spaces dropped, the dated clock is one word; lower down the screen too (under another bar).
        assertThat(WindowChrome.title(List.of(shot("MonMar1514:56", 280, 60, "Pictures - Files", 560, 90),
                shot("MonMar1514:57", 280, 60, "Pictures - Files", 560, 90)))).isEqualTo("Pictures - Files");
        // A maximised window's own title at the very top is still its title, a time in it or not.
        assertThat(WindowChrome.title(List.of(shot("report.txt - gedit", 540, 8, "body text", 30, 120),
                shot("report.txt - gedit", 540, 8, "more body text", 30, 160)))).isEqualTo("report.txt - gedit");
        assertThat(WindowChrome.title(List.of(shot("Minutes of the meeting at 14:05 - gedit", 400, 8, "body", 30, 120),
                shot("Minutes of the meeting at 14:05 - gedit", 400, 8, "body", 30, 160)))).isEqualTo("Minutes of the meeting at 14:05 - gedit");
        // A taskbar at the bottom with the apps' buttons and a dated clock is no status line.
        assertThat(WindowChrome.status(List.of(shot("Firefox   Terminal   Files", 60, 780, "Sun Feb 14 12:19", 1100, 780),
                shot("Firefox   Terminal   Files", 60, 780, "Sun Feb 14 12:20", 1100, 780)))).isNull();
    }

    @Test
    void aNotificationBesideTheTitleOnSomeKeyframesIsLeftOut() {
        Perception a = shot("Pictures - Files", 560, 10, "Home / Pictures", 20, 50, "Updates", 1000, 12, "3 updates are available", 1000, 34);
        Perception b = shot("Pictures - Files", 560, 10, "Home / Pictures", 20, 50);
        Perception c = shot("Pictures - Files", 560, 10, "Home / Pictures", 20, 50);
        String title = WindowChrome.title(List.of(a, b, c));
        assertThat(title).startsWith("Pictures - Files").doesNotContain("Updates");
        assertThat(WindowChrome.app(title, List.of())).isEqualTo("files");
    }

    @Test
    void tabsBehindOneStripDifferByTheirUrlBar() {
        String one = WindowChrome.title(List.of(shot("gtk changelog", 20, 10, "tar changelog", 250, 10, "https://wiki.debian.org/gtk", 90, 50),
                shot("gtk changelog", 20, 10, "tar changelog", 250, 10, "https://wiki.debian.org/gtk", 90, 50)));
        String two = WindowChrome.title(List.of(shot("gtk changelog", 20, 10, "tar changelog", 250, 10, "https://www.gnu.org/licenses/tar", 90, 50),
                shot("gtk changelog", 20, 10, "tar changelog", 250, 10, "https://www.gnu.org/licenses/tar", 90, 50)));
        assertThat(WindowChrome.same(one, two)).isFalse();
        assertThat(WindowChrome.same(one, one + "x")).isTrue();
        String moreTabs = WindowChrome.title(List.of(shot("gtk changelog", 20, 10, "tar changelog   zlib changelog", 250, 10,
                "https://wiki.debian.org/gtk", 90, 50), shot("gtk changelog", 20, 10, "tar changelog   zlib changelog", 250, 10,
                "https://wiki.debian.org/gtk", 90, 50)));
        assertThat(WindowChrome.same(one, moreTabs)).as("the same page after another tab opened").isTrue();
        assertThat(WindowChrome.app("https://manpages.debian.org/zlib-changelog-www", List.of())).isEqualTo("browser");
        // Two readings of one address, misread at its start and in its middle; and another page of the site, read the same way.
        assertThat(WindowChrome.sameAddress("https:/ocs.example.org/guidetar-changelog-debian-docs", "https://docs.example.rg/guide/ta-changelog-debian-docs")).isTrue();
        assertThat(WindowChrome.sameAddress("https:/ocs.example.org/guidetar-changelog-debian-docs", "https://docs.example.org/guide/ibgdbm6-changelog-debian-docs"))
                .isFalse();
        assertThat(WindowChrome.app(one, List.of("https://wiki.debian.org/gtk"))).isEqualTo("browser");
    }

    @Test
    void scrollingTextWithNoChromeHasNoTitleAndTerminalsAreKnownByTheirPrompt() {
        Perception a = shot("line one of a manual", 10, 10, "line two of a manual", 10, 40);
        Perception b = shot("options are listed below", 10, 10, "see also the info pages", 10, 40);
        assertThat(WindowChrome.title(List.of(a, b))).isNull();
        assertThat(WindowChrome.app("user@debian: ~/work", List.of())).isEqualTo("terminal");
        assertThat(WindowChrome.app(null, List.of("Manual page tar(1) line 40 (press h for help or q to quit)"))).isEqualTo("terminal");
        assertThat(WindowChrome.app("changelog.Debian.md-gedit", List.of())).isEqualTo("gedit");
        assertThat(WindowChrome.app("gir1.2-gtk-3.0 changelog", List.of())).isNull();
        // A content line taken for a title (no title bar): a hyphenated word or a misread one names no app.
        assertThat(WindowChrome.app("A Secondary Section is a named appendix or a front-matter section of", List.of())).isNull();
        assertThat(WindowChrome.app("mltipetstxtrctltllstealialis-glrxExtactthli", List.of())).isNull();
        assertThat(WindowChrome.app("Music-Thunar", List.of())).isEqualTo("thunar");
    }

    @Test
    void digitsAfterADashALineOfOptionsAndAHyphenatedWordNameNoApp() {
        // Lines of text taken for a title where there is no title bar: a time zone, a count, an option, a package name.
        assertThat(WindowChrome.app("Sandro Tosi <morph@debian.org> Sun, 22 Jan 2023 00:00:46 -0500", List.of())).isNull();
        assertThat(WindowChrome.app("#random-  5members", List.of())).as("a count: the chat's header, not an app").isEqualTo("chat");
        assertThat(WindowChrome.app("-[n]atoaintenance,n]atgcRungitmaintenancerun-autattheendtpef", List.of())).isNull();
        assertThat(WindowChrome.app("GPL-1| docspython3-software-propetieschar", List.of())).isNull();
        assertThat(WindowChrome.app("GPL-1| docspython3-software-propetieschar \u00a6 https://docs.example.org/guide/x", List.of())).isEqualTo("browser");
        assertThat(WindowChrome.app("* Version the Provides of the transitional -dev packages", List.of())).as("a list item").isNull();
        // Titles that do name one still do.
        assertThat(WindowChrome.app("report.txt - gedit", List.of())).isEqualTo("gedit");
        assertThat(WindowChrome.app("tar-1.34.pdf \u2014 Okular", List.of())).isEqualTo("okular");
        assertThat(WindowChrome.app("Pictures-Files", List.of())).isEqualTo("files");
    }

    @Test
    void anAddressBarIsAnAddressNotASentenceQuotingOne() {
        assertThat(WindowKinds.addressBar("https:/dcs.examle.org/guide/pythn-software-roperties-changelog")).isTrue();
        assertThat(WindowKinds.addressBar("\u2190 \u2192 https://wiki.debian.org/gtk")).isTrue();
        assertThat(WindowKinds.addressBar("Copyright (C) 2007 Free Software Foundation, Inc. https://fsf.org/")).isFalse();
        // An editor's tab strip over a licence that quotes an address: the tabs are the title, and they name an editor.
        Perception a = shot("changelog.Debian   LGPL.md", 20, 10, "Copyright (C) 2007 Free Software Foundation, Inc. https://fsf.org/", 20, 60);
        Perception b = shot("changelog.Debian   LGPL.md", 20, 10, "Copyright (C) 2007 Free Software Foundation, Inc. https://fsf.org/", 20, 60);
        String title = WindowChrome.title(List.of(a, b));
        assertThat(title).isEqualTo("changelog.Debian   LGPL.md");
        assertThat(WindowChrome.app(title, List.of())).isEqualTo("editor");
    }

    @Test
    void filesOfAnotherTypeUnderAlikeTitlesAreTwoFiles() {
        assertThat(WindowChrome.same("changelog.Debian - gedit", "changelog.Debian.md - gedit")).as("a type added").isFalse();
        assertThat(WindowChrome.same("changelog.Debian.md-Mousepad", "changelog.Debian.txt-Mousepad")).as("another type").isFalse();
        // One file read twice: a dot dropped, a letter misread, a mark of modification.
        assertThat(WindowChrome.same("changelog.Debian.md-Mousepad", "changelog.Debianmd-Mousepad")).isTrue();
        assertThat(WindowChrome.same("changelog.Debian.md - gedit", "changelog.Debain.md - gedit")).isTrue();
        assertThat(WindowChrome.same("changelog.Debian.md - gedit", "*changelog.Debian.md - gedit")).isTrue();
        // Not "file - App" titles: the rule says nothing (a header line of a viewer read short).
        assertThat(FileNames.otherFile("changelog.Debian,p page 2 of 8", "changelog.Debian.pdf page 2 of 8")).isFalse();
    }
}
