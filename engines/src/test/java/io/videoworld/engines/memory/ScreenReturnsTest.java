package io.videoworld.engines.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A task is returned to as it was left: the batch whose first screen shows most of the lines an
 * earlier activity's last screen showed returns to it, whatever the rules found by title and gist;
 * a return by title alone to a screen that shared no line is dropped; the activity just left is
 * never a return.
 */
class ScreenReturnsTest {
    private static final List<String> TAR = List.of("tar - an archiving utility for tape archives", "GNU tar is an archiving program designed to store",
            "multiple files in a single file (an archive), and to", "manipulate such archives. The archive can be either",
            "a regular file or a device (e.g. a tape drive, hence", "the name of the program, which stands for tape archiver)");
    private static final List<String> GZIP = List.of("gzip reduces the size of the named files using Lempel-Ziv", "coding (LZ77). Whenever possible, each file is",
            "replaced by one with the extension .gz, while keeping", "the same ownership modes, access and modification times",
            "If no files are specified, or if a file name is - the", "standard input is compressed to the standard output");
    private static final List<String> NOTES = List.of("Meeting notes for the release planning session", "Decide the freeze date and the branch name",
            "Collect the open bugs that block the release candidate", "Ask the documentation team for the changelog draft",
            "Check that the installer images build on every arch", "Plan the announcement with the press contacts");

    private static Perception frame(long seq, List<String> lines) {
        List<TextLine> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            out.add(new TextLine(lines.get(i), 20, 200 + 22 * i, 10 * lines.get(i).length(), 18, 0.95));
        }
        return new Perception("desk", 0, seq, seq * 1000, "periodic", out, String.join("\n", lines), null, null, "cpu", 1280, 800, List.of(), seq * 1000);
    }

    private static EpisodeBatch batch(long seq, String relation) {
        return batch(seq, relation, -1);
    }

    private static EpisodeBatch batch(long seq, String relation, long related) {
        return new EpisodeBatch("desk", 0, seq, io.videoworld.core.SourceKind.SCREEN, seq * 1000, seq * 1000 + 1000, seq * 1000, seq * 1000 + 1000, 1,
                null, null, "terminal", "t", List.of(), List.of(), List.of(), null, relation, related, 0, List.of(), List.of(), "rules");
    }

    /** A full-screen keyframe: no chrome, its lines from the top of the frame (in the band kept out for chrome). */
    private static Perception full(long seq, List<String> lines) {
        List<TextLine> top = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            top.add(new TextLine(lines.get(i), 20, 10 + 28 * i, 10 * lines.get(i).length(), 18, 0.95));
        }
        return new Perception("desk", 0, seq, seq * 1000, "periodic", top, String.join("\n", lines), null, null, "cpu", 1280, 800, List.of(), seq * 1000);
    }

    private static List<BatcherState.View> views() {
        // Batches 0 (tar), 1 (gzip), 2 (notes, continued by 3): the notes were on screen last.
        return List.of(new BatcherState.View(0, 0, ScreenReturns.lines(frame(0, TAR))), new BatcherState.View(1, 1, ScreenReturns.lines(frame(1, GZIP))),
                new BatcherState.View(2, 2, ScreenReturns.lines(frame(2, NOTES))), new BatcherState.View(3, 2, ScreenReturns.lines(frame(3, NOTES))));
    }

    @Test
    void aScreenShowingWhatAnEarlierTaskShowedReturnsToItWhateverTheRulesSaid() {
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.7);
        // gzip's page as it was left, one line scrolled: a return to batch 1 (not to tar, which the gist alone could not tell apart).
        List<String> back = new ArrayList<>(GZIP.subList(1, 6));
        back.add("Compressed files can be restored to their original form");
        EpisodePolicy.Relation r = ScreenReturns.relate(rules, frame(9, back), views(), 3);
        assertThat(r.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(r.relatedBatch()).isEqualTo(1);
        // The rules linked it to tar by title: the screens share no line, so it is a new task.
        EpisodePolicy.Relation byTitle = new EpisodePolicy.Relation(EpisodeBatch.RETURN, 0, 0.7);
        List<String> other = List.of("xz is a general-purpose data compression tool with", "command line syntax similar to gzip and bzip2",
                "The native file format is the .xz format, but the", "legacy .lzma format used by LZMA Utils and raw", "compressed streams with no container are supported",
                "Decompression of concatenated files is supported too");
        assertThat(ScreenReturns.relate(byTitle, frame(9, other), views(), 3).kind()).isEqualTo(EpisodeBatch.NEW);
    }

    @Test
    void aDocumentReturnedToFullScreenShowsAtTheTopWhatItShowedUnderItsChrome() {
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.4);
        // gzip's page as it was left under the window's chrome, now full screen: its lines start at the top of the frame.
        List<TextLine> top = new ArrayList<>();
        for (int i = 0; i < GZIP.size(); i++) {
            top.add(new TextLine(GZIP.get(i), 20, 10 + 28 * i, 10 * GZIP.get(i).length(), 18, 0.95));
        }
        Perception full = new Perception("desk", 0, 9, 9000, "first", top, String.join("\n", GZIP), null, null, "cpu", 1280, 800, List.of(), 9000);
        assertThat(ScreenContinuity.norms(full)).as("the content band alone holds too few lines").hasSizeLessThan(ScreenContinuity.MIN_LINES);
        EpisodePolicy.Relation r = ScreenReturns.relate(rules, full, null, views(), 3, seq -> null);
        assertThat(r.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(r.relatedBatch()).isEqualTo(1);
        // Another document full screen shares no line with any view: the rules stand.
        List<String> xz = List.of("xz is a general-purpose data compression tool with", "command line syntax similar to gzip and bzip2",
                "The native file format is the .xz format, but the", "legacy .lzma format used by LZMA Utils and raw", "compressed streams with no container are supported",
                "Decompression of concatenated files is supported too");
        List<TextLine> other = new ArrayList<>();
        for (int i = 0; i < xz.size(); i++) {
            other.add(new TextLine(xz.get(i), 20, 10 + 28 * i, 10 * xz.get(i).length(), 18, 0.95));
        }
        Perception fresh = new Perception("desk", 0, 9, 9000, "first", other, String.join("\n", xz), null, null, "cpu", 1280, 800, List.of(), 9000);
        assertThat(ScreenReturns.relate(rules, fresh, null, views(), 3, seq -> null).kind()).isEqualTo(EpisodeBatch.NEW);
    }

    @Test
    void aWindowOfAnotherAppShowingTheSameTextIsNoReturn() {
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.7);
        // gzip's manual read in the terminal (batch 1), then the same text in the browser: a new task.
        java.util.function.LongFunction<String> apps = seq -> seq == 1 ? "terminal" : "editor";
        assertThat(ScreenReturns.relate(rules, frame(9, GZIP), "browser", views(), 3, apps)).isEqualTo(rules);
        assertThat(ScreenReturns.relate(rules, frame(9, GZIP), "terminal", views(), 3, apps).relatedBatch()).isEqualTo(1);
        assertThat(ScreenReturns.relate(rules, frame(9, GZIP), null, views(), 3, apps).relatedBatch()).as("a window that names no app").isEqualTo(1);
    }

    @Test
    void theActivityJustLeftIsNoReturnAndTooLittleTextLeavesTheRulesAlone() {
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.2);
        // Batch 2 and 3 are one activity (the notes), left just now: showing the notes again is not a return to batch 2.
        assertThat(ScreenReturns.relate(rules, frame(9, NOTES), views(), 3).kind()).isEqualTo(EpisodeBatch.NEW);
        assertThat(ScreenReturns.relate(rules, frame(9, GZIP.subList(0, 2)), views(), 3)).isEqualTo(rules);
    }

    @Test
    void viewsAreKeptOnlyForBatchesStillRememberedAndContinuedBatchesShareTheirActivity() {
        List<BatcherState.View> views = new ArrayList<>();
        EpisodeBatch.Digest d0 = new EpisodeBatch.Digest(0, 0, 1000, "terminal", "t", "", null, null);
        EpisodeBatch.Digest d1 = new EpisodeBatch.Digest(1, 1000, 2000, "terminal", "t", "", null, null);
        ScreenReturns.remember(views, batch(0, EpisodeBatch.NEW), frame(0, TAR), List.of(d0), List.of());
        ScreenReturns.remember(views, batch(1, EpisodeBatch.CONTINUE), frame(1, TAR), List.of(d0, d1), List.of());
        assertThat(views).extracting(BatcherState.View::activity).containsExactly(0L, 0L);
        EpisodeBatch.Digest d2 = new EpisodeBatch.Digest(2, 2000, 3000, "terminal", "t", "", null, null);
        // Batch 0 left the recent batches and is no remembered task: its view goes.
        ScreenReturns.remember(views, batch(2, EpisodeBatch.NEW), frame(2, GZIP), List.of(d1, d2), List.of());
        assertThat(views).extracting(BatcherState.View::batchSeq).containsExactly(1L, 2L);
        assertThat(views).extracting(BatcherState.View::activity).containsExactly(0L, 2L);
    }

    @Test
    void aDocumentReturnedToFullScreenAtAnotherPageIsFoundByTheWordsOnlyItShowed() {
        List<String> secret1 = List.of("libsecret (0.20.5-3) unstable; urgency=medium", "Update list of architectures that can run tests",
                "Jeremy Bicha <jeremy.bicha@canonical.com> Mon, 21 Feb 2022", "libsecret (0.20.4-2) unstable; urgency=medium",
                "Build-Depend on gi-docgen for the secret service documentation", "Laurent Bigonville <bigon@debian.org> Mon, 07 Dec 2020");
        List<String> dbus = List.of("dbus (1.14.10-1~deb12u1) bookworm; urgency=medium", "Rebuild for bookworm point release",
                "Simon McVittie <smcv@debian.org> Sat, 14 Oct 2023", "dbus (1.13.20-1) experimental; urgency=medium",
                "New upstream development release", "Prevent use-after-free if two usernames share a uid");
        // Activities: 0 the libsecret changelog, 1 the dbus changelog, 2 the notes (left just now).
        List<BatcherState.View> views = List.of(view(0, 0, secret1), view(1, 1, dbus), view(2, 2, NOTES));
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.35);
        // A later page of the libsecret changelog, full screen: no line of it was on screen before, its gist is every changelog's.
        List<String> secret3 = List.of("libsecret (0.20.3-1) unstable; urgency=medium", "New upstream release, built with meson",
                "Jeremy Bicha <jbicha@debian.org> Thu, 18 Jun 2020", "libsecret (0.20.2-1) unstable; urgency=medium",
                "Laurent Bigonville drops the obsolete patches", "Use canonical secret service names in the tests");
        EpisodePolicy.Relation r = ScreenReturns.relate(rules, frame(9, secret3), null, views, 2, seq -> null);
        assertThat(r.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(r.relatedBatch()).isEqualTo(0);
        // Another changelog shares the words every changelog has, not the document's own.
        List<String> gnupg = List.of("gnupg2 (2.2.40-1.1) unstable; urgency=medium", "Non-maintainer upload to fix a regression",
                "Daniel Kahn Gillmor <dkg@fifthhorseman.net> Thu, 01 Jan 2026", "gnupg2 (2.2.40-1) unstable; urgency=medium",
                "New upstream release with keyring fixes", "Avoid a potential downgrade to SHA1 in third-party key signatures");
        assertThat(ScreenReturns.relate(rules, frame(9, gnupg), null, views, 2, seq -> null)).isEqualTo(rules);
        // A window that names its app is left to the rules and its lines where the earlier activities named theirs (the title finds its task)...
        assertThat(ScreenReturns.relate(rules, frame(9, secret3), "okular", views, 2, seq -> "okular")).isEqualTo(rules);
        // ...but the document read full screen named none: the window that names it now finds it by its words.
        EpisodePolicy.Relation named = ScreenReturns.relate(rules, frame(9, secret3), "okular", views, 2, seq -> seq == 0 ? null : "okular");
        assertThat(named.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(named.relatedBatch()).isEqualTo(0);
        assertThat(ScreenReturns.relate(rules, frame(9, gnupg), "okular", views, 2, seq -> null)).as("another changelog").isEqualTo(rules);
    }

    @Test
    void aShellThatShowedLittleFullScreenIsReturnedToWhenAllItShowedIsThereAgain() {
        List<String> shell = List.of("user@debian:~/work$ cd project", "user@debian:~/work/project$ git status",
                "-rw-r--r-- 1 user user 55665 Nov 28 git0", "-rw-r--r-- 1 user user 48301 Nov 18 git1");
        List<BatcherState.View> views = new ArrayList<>();
        List<EpisodeBatch.Digest> digests = new ArrayList<>();
        List<Perception> shown = List.of(full(0, shell), frame(1, GZIP), frame(2, NOTES));
        for (int i = 0; i < shown.size(); i++) {
            digests.add(new EpisodeBatch.Digest(i, i * 1000L, i * 1000L + 1000, "terminal", "t", "", null, null));
            ScreenReturns.remember(views, batch(i, EpisodeBatch.NEW), shown.get(i), digests, List.of());
        }
        // Full screen, every line sat in the band kept out for chrome: the view keeps the whole frame's.
        assertThat(ScreenContinuity.norms(shown.get(0))).isEmpty();
        assertThat(views.get(0).lines()).hasSize(4);
        // Back in its window under the terminal's title, with a command more: all four lines are there again.
        List<String> back = new ArrayList<>(List.of("user@debian: ~/work"));
        back.addAll(shell);
        back.add("user@debian:~/work/project$ make test");
        EpisodePolicy.Relation rules = new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.2);
        EpisodePolicy.Relation r = ScreenReturns.relate(rules, frame(9, back), "terminal", views, 2, seq -> "terminal");
        assertThat(r.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(r.relatedBatch()).isEqualTo(0);
        // Half of them (the prompt every shell shows, one listing) is too little for a screen that showed four lines.
        List<String> half = new ArrayList<>(List.of("user@debian: ~/work"));
        half.addAll(shell.subList(0, 2));
        half.addAll(List.of("user@debian:~/work/project$ df -h", "Filesystem Size Used Avail Use% Mounted on", "/dev/sda1 98G 41G 52G 45% /"));
        assertThat(ScreenReturns.relate(rules, frame(9, half), "terminal", views, 2, seq -> "terminal")).isEqualTo(rules);
    }

    @Test
    void aReturnIsRememberedAsTheTaskItReturnsToSoThatTaskKeepsItsOwnWords() {
        List<BatcherState.View> views = new ArrayList<>();
        List<EpisodeBatch.Digest> digests = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            digests.add(new EpisodeBatch.Digest(i, i * 1000L, i * 1000L + 1000, "terminal", "t", "", null, null));
        }
        ScreenReturns.remember(views, batch(0, EpisodeBatch.NEW), frame(0, TAR), digests, List.of());
        ScreenReturns.remember(views, batch(1, EpisodeBatch.NEW), frame(1, GZIP), digests, List.of());
        ScreenReturns.remember(views, batch(2, EpisodeBatch.RETURN, 0), frame(2, TAR.subList(1, 6)), digests, List.of());
        assertThat(views).extracting(BatcherState.View::activity).containsExactly(0L, 1L, 0L);
        // The tar words the two visits showed are tar's own: a later page of tar, full screen, finds it.
        List<String> tarLater = List.of("GNU tar archiving program options for tape archives", "tar --create --file archive.tar multiple",
                "archive members extracted from the archive tape", "archiving utility stands for tape archiver", "manipulate archives created by tar",
                "archive program designed for tape drives");
        EpisodePolicy.Relation r = ScreenReturns.relate(new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, 0.3), frame(9, tarLater), null, views, 1,
                seq -> null);
        assertThat(r.kind()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(r.relatedBatch()).isEqualTo(2);
    }

    private static BatcherState.View view(long seq, long activity, List<String> lines) {
        Perception p = frame(seq, lines);
        return new BatcherState.View(seq, activity, ScreenReturns.lines(p), ScreenReturns.words(List.of(p), WindowChrome.TOP_BAND));
    }

    @Test
    void documentsOfOneNameAndOtherLengthsAreRememberedApart() {
        float[] gist = {1, 0, 0};
        String title = "changelog.Debian.pdf - Okular";
        EpisodeBatch.Digest long29 = new EpisodeBatch.Digest(1, 0, 4000, "okular", title, title + " | changelog.Debian.pdf page 6 of 29 100% | ocl-icd", gist, null);
        EpisodeBatch.Digest short3 = new EpisodeBatch.Digest(2, 4000, 8000, "okular", title, title + " | changelog.Debian.pdf page 1 of 3 100% | zlib", gist, null);
        EpisodeBatch.Digest laterPage = new EpisodeBatch.Digest(3, 8000, 9000, "okular", title, title + " | changelog.Debian.pdf page 2 of 3 100% | zlib", gist, null);
        List<EpisodeBatch.Digest> tasks = new ArrayList<>();
        EpisodePolicy.remember(tasks, long29);
        EpisodePolicy.remember(tasks, short3);
        assertThat(tasks).as("alike in name and gist, not in length: both kept").containsExactly(long29, short3);
        EpisodePolicy.remember(tasks, laterPage);
        assertThat(tasks).as("another page of the short one replaces it").containsExactly(long29, laterPage);
        assertThat(EpisodePolicy.otherLength(long29, short3)).isTrue();
        assertThat(EpisodePolicy.otherLength(short3, laterPage)).isFalse();
    }
}
