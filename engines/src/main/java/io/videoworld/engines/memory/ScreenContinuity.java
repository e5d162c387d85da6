package io.videoworld.engines.memory;

import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import io.videoworld.core.Vectors;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether one screen keyframe continues the activity of the keyframe before it: the same window
 * (its title, or the kind its conventions show) with text that scrolled, grew or was typed into,
 * rather than another app, another tab, another file or another manual page. A window whose
 * title stays continues unless its text changed wholesale and its topic too (a manual page opened
 * in the terminal; a status line at the bottom that stays counts as a title that stays); a window
 * whose title changed continues only when most of its lines are still
 * there (the "title" of a window without chrome is its top line, which scrolls away). A
 * notification or an idle stretch changes neither, so they never cut.
 */
final class ScreenContinuity {
    /** Title changed: at least this share of the lines must still be on screen. */
    static final double SAME_LINES = 0.6;
    /** Screens with fewer content lines than this say too little to overrule the rules. */
    static final int MIN_LINES = 5;
    /** Title kept: this share of lines kept, or a similar topic, is enough (a page turned, a long scroll). */
    static final double SOME_LINES = 0.15;
    /**
     * Two keyframes whose colour-and-layout descriptors are at least this alike show one window
     * (pages of one document on the tuning seeds: 1 - cosine about 2e-4; another app or theme: 1e-2 and more).
     */
    static final double SAME_PICTURE = 0.999;
    /** Lines shorter than this (letters and digits) say too little to match. */
    private static final int MIN_LINE = 8;

    private ScreenContinuity() {}

    /** Whether {@code next} continues {@code before}; a keyframe with nothing read continues (no evidence of a change). */
    static boolean continues(Perception before, Perception next) {
        if (before == null || next == null || before.isFailed() || next.isFailed() || before.lines().isEmpty() || next.lines().isEmpty()) {
            return true;
        }
        String ta = WindowChrome.title(List.of(before));
        String tb = WindowChrome.title(List.of(next));
        String sa = WindowChrome.status(List.of(before));
        boolean sameStatus = sa != null && WindowChrome.same(sa, WindowChrome.status(List.of(next)));
        boolean sameTitle = ta != null && tb != null && WindowChrome.same(ta, tb) || sameStatus;
        String appA = WindowChrome.app(ta, texts(before));
        String appB = WindowChrome.app(tb, texts(next));
        // Apps read from one title twice can differ by OCR alone ("...-pehg" in a dark tab strip): the same title decides then.
        if (!sameTitle && appA != null && appB != null && !appA.equals(appB)) {
            return false;
        }
        double overlap = overlap(before, next);
        // The document a window shows where its title does not say (a terminal's title stays for every manual page and the shell).
        String ma = WindowKinds.manual(texts(before));
        String mb = WindowKinds.manual(texts(next));
        if (ma != null && mb != null && !WindowChrome.sameName(ma, mb)
                || (ma == null) != (mb == null) && !sameStatus && overlap < SAME_LINES) {
            return false;
        }
        int[] pa = WindowKinds.pages(texts(before));
        int[] pb = WindowKinds.pages(texts(next));
        if (pa != null && pb != null && (pa[1] != pb[1] || pa[0] == pb[0] && overlap < SAME_LINES)) {
            // A document viewer counting another number of pages, or showing on the same page lines mostly not there
            // before, shows another document (look-alike names under one title, where the title and the gist stay;
            // boilerplate such as "Team upload." recurs in every changelog, so some shared lines say nothing).
            return false;
        }
        if (sameTitle && pa == null && pb == null && overlap < SOME_LINES && FileNames.editing(ta, appA) && FileNames.editing(tb, appB)
                && Math.min(norms(before).size(), norms(next).size()) >= MIN_LINES) {
            // An editor under one title or tab strip: typing and new lines keep most lines, another tab (a file of
            // the same name, a strip that names every open file) shows others, however alike its topic (two changelogs).
            return false;
        }
        if (sameTitle) {
            return overlap >= SOME_LINES || Vectors.cosine(before.textEmbedding(), next.textEmbedding()) >= EpisodePolicy.TASK_CHANGE;
        }
        if (ma == null && mb == null && WindowKinds.TERMINAL.equals(appA) && WindowKinds.TERMINAL.equals(appB)) {
            // A shell without a title bar: its top line (taken for a title) scrolls away as commands run; some output stays.
            return overlap >= SOME_LINES;
        }
        if (appA == null && appB == null && overlap < SAME_LINES && samePicture(before, next)
                && Vectors.cosine(before.textEmbedding(), next.textEmbedding()) >= EpisodePolicy.TASK_CHANGE) {
            // No chrome and no convention names either window (a document paged full screen): the window's look
            // stays (layout and colours) and so does the topic of its text; another task of that look changes topic.
            return true;
        }
        return overlap >= SAME_LINES;
    }

    /** Whether two keyframes look alike as a whole (colour and layout descriptor): one window, its chrome and theme unchanged. */
    static boolean samePicture(Perception a, Perception b) {
        return a.imageDescriptor() != null && b.imageDescriptor() != null && Vectors.cosine(a.imageDescriptor(), b.imageDescriptor()) >= SAME_PICTURE;
    }

    /** The share of the lines of the keyframe with fewer of them that the other one shows too (read alike). */
    static double overlap(Perception a, Perception b) {
        return overlap(norms(a), norms(b));
    }

    /** The share of the shorter list of lines ({@link #norms}) that the other holds too, read alike. */
    static double overlap(List<String> x, List<String> y) {
        if (x.isEmpty() || y.isEmpty()) {
            return x.isEmpty() && y.isEmpty() ? 1 : 0;
        }
        List<String> fewer = x.size() <= y.size() ? x : y;
        List<String> more = fewer == x ? y : x;
        int matched = 0;
        for (String l : fewer) {
            for (String m : more) {
                if (l.equals(m) || Math.abs(l.length() - m.length()) <= Math.max(l.length(), m.length()) / 4
                        && WindowChrome.similarity(l, m) >= WindowChrome.SAME_TEXT) {
                    matched++;
                    break;
                }
            }
        }
        return (double) matched / fewer.size();
    }

    /** The lines of the window's content: the bands where titles, tab strips, panels and status lines are are left out. */
    static List<String> norms(Perception p) {
        return norms(p, WindowChrome.TOP_BAND);
    }

    /** As {@link #norms(Perception)}, leaving out only the top {@code top} of the frame (0: the top band is kept too). */
    static List<String> norms(Perception p, double top) {
        List<String> out = new ArrayList<>();
        for (TextLine l : p.lines()) {
            if (l.y() < p.height() * top || l.y() > p.height() * (1 - WindowChrome.BOTTOM_BAND)) {
                continue;
            }
            String n = TitleText.norm(l.text());
            if (n.length() >= MIN_LINE) {
                out.add(n.length() > 80 ? n.substring(0, 80) : n);
            }
        }
        return out;
    }

    static List<String> texts(Perception p) {
        return p.lines().stream().map(TextLine::text).toList();
    }
}
