package io.videoworld.engines.memory;

import io.videoworld.core.Perception;
import io.videoworld.core.TextLine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The window's title (or tab strip) on screens, found by layout rather than taken from the first
 * line read: the OCR lines of each keyframe are grouped into rows; rows in the top fifth of the
 * frame are candidates, except a desktop's panel ({@link #panel}: a row with a clock, dated or
 * not, or a thin row at the very top with a top bar's words; its other items share the clock's
 * row) and fragments too short to be words (window-control glyphs read as "x" or
 * "口"); of the candidates, the rows that stay the same across the batch's keyframes are chrome
 * (content scrolls, a notification comes and goes), and the topmost of them is the title. The
 * application is the part after the title's last spaced dash ("Inbox - Mail"), else a convention
 * of the title or the window (a {@code user@host:} terminal title, a URL bar, a man page's
 * status line), else unknown.
 */
final class WindowChrome {
    static final double TOP_BAND = 0.2;
    static final double BOTTOM_BAND = 0.08;
    /** Horizontal gap, as a share of the width, that separates two pieces of one row. */
    static final double GAP = 0.12;
    /** Text that starts right of this share of the width, in the top band, is a notification or a tray (titles are centred or left). */
    static final double CORNER = 0.68;
    /** Before the name of the manual page a terminal shows, as the last part of its title. */
    static final String MANUAL = "man ";
    /** Two names of a document read alike at least this much are one (OCR misreads a letter of a short name). */
    static final double SAME_NAME = 0.7;
    /** Normalised edit similarity at which two rows (or titles) are the same text read twice. */
    static final double SAME_TEXT = 0.8;
    /** Letters two readings of one address may differ by (OCR drops or misreads a few). */
    static final int ADDRESS_NOISE = 3;
    private static final Pattern CLOCK = Pattern.compile("(^|\\D)([01]?\\d|2[0-3])[:.][0-5]\\d(\\D|$)");
    /** A time as OCR reads a small clock, its spaces dropped ("MonMar1514:56"): a digit, a colon, two digits. */
    private static final Pattern SMALL_CLOCK = Pattern.compile("\\d[:.][0-5]\\d(?!\\d)");
    /**
     * A day or a month named at the start of a word beside a clock ("Sun Feb 14  12:19", "Thu 14:05", "14 Nov 09:30",
     * read as "MonMar1514:56"): a desktop's clock, dated.
     */
    private static final Pattern DAY_OR_MONTH = Pattern.compile("(?i)(^|[^a-z])(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep"
            + "|oct|nov|dec)");
    /** What a top bar holds beside its clock: GNOME's overview button, a workspace's or a menu's name. */
    private static final Pattern PANEL_WORD = Pattern.compile("(?i)^\\s*(activities|applications|places|aktivit\u00e4ten|activit\u00e9s)\\s*$");
    /** A dated clock is at most this long (a title that happens to hold a time and a day is longer). */
    static final int DATED_CLOCK = 28;
    /** Share of the height from the top within which a row is the desktop's top bar when it holds its words or a clock. */
    static final double TOP_BAR = 0.045;
    private static final Pattern PROMPT = Pattern.compile("[\\w.-]+@[\\w.-]+\\s*:");
    private static final Pattern URL = Pattern.compile("(https?:|www\\.|\\.(org|com|net|io|dev)/)", Pattern.CASE_INSENSITIVE);
    private static final Pattern MAN = Pattern.compile("manual page \\S+ line \\d+", Pattern.CASE_INSENSITIVE);
    /** OCR drops the spaces around a title's dash: then only a plain name after the last one, capitalised ("Pictures-Files") or one lower-case word ("notes.md-gedit"), is an app: "front-matter section of" is a hyphenated word, "-glrxExtact" a misread one. */
    private static final Pattern NAME_AFTER_DASH = Pattern.compile("(?<=[\\p{L}\\p{N}|)\\]. ])[-\u2013\u2014]\\s*(\\p{Lu}[\\p{L} ]{2,24}|\\p{Ll}{3,24})$");
    private static final Pattern HYPHENATED = Pattern.compile("[\\p{L}\\p{N}][-\u2013]\\p{L}+[-\u2013]\\s*\\p{L}[\\p{L} ]{2,24}$");
    /** A line that starts with a dash or a bullet is a command's option or a list item ("-[no]auto-maintenance ...", "* Version the -dev packages"), never a window's title. */
    private static final Pattern OPTION = Pattern.compile("^[-\u2013\u2014*+\u2022\u25aa\u00b7]");
    /** An app's name starts with a letter: digits after a dash are a time zone ("-0500") or a count ("- 5 members"). */
    private static final Pattern NAME_START = Pattern.compile("^\\p{L}");
    private static final Pattern SPACED_DASH = Pattern.compile("\\s[-\u2013\u2014]\\s?|\\s?[-\u2013\u2014]\\s");

    private WindowChrome() {}

    /** A piece of a row of text: lines whose vertical extents overlap and that sit close together, left to right. */
    record Row(int row, double y, double x, String text) {}

    /**
     * The pieces of rows in a keyframe's top band (and, when {@code bottom}, its bottom band, where
     * status lines are) that can be chrome, top first. A row with a clock in it is a panel and
     * skipped whole; a row is cut where lines are far apart (a notification beside a title), and
     * short fragments at either end of the frame (window controls) are dropped.
     */
    static List<Row> candidates(Perception p, boolean bottom) {
        double limit = Math.max(40, p.height() * TOP_BAND);
        double floor = p.height() * (1 - BOTTOM_BAND);
        List<TextLine> band = p.lines().stream().filter(l -> bottom ? l.y() > floor : l.y() < limit)
                .filter(l -> words(l.text())).sorted(Comparator.comparingDouble(TextLine::y)).toList();
        List<List<TextLine>> rows = new ArrayList<>();
        for (TextLine l : band) {
            List<TextLine> row = rows.isEmpty() ? null : rows.get(rows.size() - 1);
            double mid = l.y() + l.height() / 2.0;
            if (row != null && mid >= row.get(0).y() && mid <= row.get(0).y() + row.get(0).height()) {
                row.add(l);
            } else {
                rows.add(new ArrayList<>(List.of(l)));
            }
        }
        List<Row> out = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            List<TextLine> row = rows.get(r);
            if (panel(row, p.height(), bottom)) {
                continue; // a panel: clock, workspace, tray
            }
            row.sort(Comparator.comparingDouble(TextLine::x));
            // A notification is a box in a top corner, over the window: a piece that starts that far right is not a title.
            row.removeIf(l -> l.x() >= p.width() * CORNER && TitleText.norm(l.text()).length() >= 3);
            List<TextLine> piece = new ArrayList<>();
            for (TextLine l : row) {
                boolean control = TitleText.norm(l.text()).length() <= 4 && (l.x() > p.width() * 0.88 || l.x() + l.width() < p.width() * 0.06);
                if (control) {
                    continue;
                }
                if (!piece.isEmpty()) {
                    TextLine last = piece.get(piece.size() - 1);
                    if (l.x() - (last.x() + last.width()) > p.width() * GAP) {
                        out.add(piece(r, piece));
                        piece = new ArrayList<>();
                    }
                }
                piece.add(l);
            }
            if (!piece.isEmpty()) {
                out.add(piece(r, piece));
            }
        }
        return out;
    }

    /**
     * Whether a row is a desktop's panel, not a window's chrome: it has a clock alone (a short line), or a
     * clock with a day or month named beside it ({@code Sun Feb 14  12:19}); or it is a thin row at the very
     * top of the frame (a top bar above the window's title bar) with a clock or a top bar's word in it
     * ({@code Activities}). A taskbar at the bottom is known by its clock the same way.
     */
    static boolean panel(List<TextLine> row, int height, boolean bottom) {
        for (TextLine l : row) {
            String t = l.text().strip();
            if (CLOCK.matcher(t).find() && t.length() <= 12
                    || SMALL_CLOCK.matcher(t).find() && t.length() <= DATED_CLOCK && DAY_OR_MONTH.matcher(t).find()) {
                return true;
            }
        }
        boolean atTop = !bottom && row.stream().allMatch(l -> l.y() <= Math.max(12, height * TOP_BAR) && l.height() <= height * 0.05);
        return atTop && row.stream().anyMatch(l -> PANEL_WORD.matcher(l.text()).matches()
                || SMALL_CLOCK.matcher(l.text()).find() && l.text().strip().length() <= DATED_CLOCK);
    }

    private static Row piece(int row, List<TextLine> lines) {
        TextLine first = lines.get(0);
        TextLine last = lines.get(lines.size() - 1);
        return new Row(row, first.y(), (first.x() + last.x() + last.width()) / 2.0,
                String.join("  ", lines.stream().map(l -> l.text().strip()).toList()));
    }

    /**
     * The batch's title: the chrome of the top band (else of the bottom band: a status line), the
     * piece seen on most of its keyframes, topmost, then nearest the middle (a popup sits in a
     * corner); null when nothing stays on at least half of them.
     */
    static String title(List<Perception> in) {
        List<Perception> known = in.stream().filter(p -> !p.isFailed() && !p.lines().isEmpty()).toList();
        String top = title(known, false);
        return top != null || known.size() < 2 ? top : title(known, true);
    }

    /** The chrome of the bottom band alone (a status line), or null. */
    static String status(List<Perception> in) {
        List<Perception> known = in.stream().filter(p -> !p.isFailed() && !p.lines().isEmpty()).toList();
        return title(known, true);
    }

    private static String title(List<Perception> known, boolean bottom) {
        List<List<Row>> frames = known.stream().map(p -> candidates(p, bottom)).toList();
        if (frames.isEmpty()) {
            return null;
        }
        double middle = known.get(0).width() / 2.0;
        Comparator<Row> order = Comparator.comparingInt(Row::row).thenComparingDouble(r -> Math.abs(r.x() - middle));
        List<Row> chrome = new ArrayList<>();
        for (List<Row> frame : frames) {
            for (Row r : frame) {
                int count = 0;
                for (List<Row> other : frames) {
                    count += other.stream().anyMatch(o -> same(o.text(), r.text())) ? 1 : 0;
                }
                // Chrome is on (nearly) every keyframe; text on fewer than half of them is content or a popup.
                if (count * 2 >= frames.size() && (frames.size() == 1 || count > 1) && chrome.stream().noneMatch(c -> same(c.text(), r.text()))) {
                    chrome.add(r);
                }
            }
        }
        chrome.sort(order);
        if (chrome.isEmpty()) {
            return null;
        }
        // The title, and a URL bar under it: tabs behind one strip (or one title) differ there.
        Row first = chrome.get(0);
        Row second = chrome.stream().filter(r -> r.row() > first.row() && WindowKinds.addressBar(r.text())).findFirst().orElse(null);
        return second == null ? first.text() : first.text() + TitleText.PARTS + second.text();
    }

    /** The application a title names, or a window convention shows; null when neither does. */
    static String app(String title, List<String> lines) {
        return app(title, lines, false);
    }

    /**
     * As {@link #app(String, List)}; {@code pager}: the window's bottom row is a pager's status line
     * ({@link WindowKinds#pagerRow}), which makes it a terminal unless its title says "X - App". A
     * pager is checked before a name run into a dash ("urgency-medium" of a changelog line taken
     * for the title of a window without one): that reading is the weakest of all.
     */
    static String app(String title, List<String> lines, boolean pager) {
        String t = title == null ? null : title.split(TitleText.PARTS)[0].strip();
        if (t != null) {
            Matcher m = SPACED_DASH.matcher(t);
            int cut = -1;
            while (m.find()) {
                cut = m.end();
            }
            if (URL.matcher(t).find()) {
                return "browser"; // an address, not a title: its dashes name no app
            }
            // An app's name is a word or two; more after a dash is a line of text taken for a title ("-h, --help Print a usage message").
            if (cut > 0 && cut < t.length() && t.substring(cut).strip().split("\\s+").length <= 3 && !OPTION.matcher(t).find()) {
                String app = TitleText.norm(t.substring(cut));
                if (app.length() >= 3 && NAME_START.matcher(t.substring(cut).strip()).find()) {
                    return app;
                }
            }
        }
        if (pager || lines.stream().limit(40).anyMatch(l -> MAN.matcher(l).find()) || WindowKinds.pager(lines)) {
            return "terminal";
        }
        if (t != null) {
            Matcher plain = NAME_AFTER_DASH.matcher(t);
            // "gsettings-desktop-schemas", "python3-software-properties": a hyphenated word (two dashes in one word) names no app.
            if (plain.find() && !HYPHENATED.matcher(t).find() && !OPTION.matcher(t).find()) {
                return TitleText.norm(plain.group(1));
            }
            if (PROMPT.matcher(t).find()) {
                return "terminal";
            }
        }
        for (int i = 0; i < Math.min(lines.size(), 40); i++) {
            String l = lines.get(i);
            if (PROMPT.matcher(l).find() && l.contains("$")) {
                return "terminal";
            }
        }
        return WindowKinds.of(title, lines);
    }

    /**
     * Whether two document names read by OCR are one: alike as a whole, and what differs once the
     * letters they share at both ends are taken off is a misread letter or two
     * ("tk8.6/changelog.Debian" and "libxi6/changelog.Debian" share most letters but are two pages).
     */
    static boolean sameName(String a, String b) {
        return similarity(a, b) >= SAME_NAME && sameAddress(a, b);
    }

    /** Whether two titles are the same words read twice (OCR noise, a modification mark aside; not two file types, {@link FileNames}), row by row where both have two. */
    static boolean same(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        String[] x = a.split(TitleText.PARTS);
        String[] y = b.split(TitleText.PARTS);
        if (x[x.length - 1].startsWith(MANUAL) != y[y.length - 1].startsWith(MANUAL)) {
            return false; // a manual page and the shell under one terminal title are two tasks
        }
        if (x[x.length - 1].startsWith(MANUAL) && y[y.length - 1].startsWith(MANUAL)
                && !sameName(x[x.length - 1].substring(MANUAL.length()), y[y.length - 1].substring(MANUAL.length()))) {
            return false; // two manual pages under one terminal title
        }
        String ux = url(x);
        String uy = url(y);
        if (ux != null && uy != null) {
            // A page is its address: the tab strip above it grows as tabs open.
            return sameAddress(ux, uy);
        }
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (similarity(x[i], y[i]) < SAME_TEXT || FileNames.otherFile(x[i], y[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether two addresses read by OCR are one page: alike as a whole, and nowhere a run of
     * differing letters. Two pages of one site differ in one piece of a long address ("tar-" and
     * "libgdbm6-changelog"), which the similarity of the whole would hide; two readings of one
     * address differ by letters misread or dropped here and there, even at its start ("ocs." for
     * "docs."), so the pieces are found on the alignment of the two, not only at their ends.
     */
    static boolean sameAddress(String a, String b) {
        String x = TitleText.norm(a);
        String y = TitleText.norm(b);
        int pre = 0;
        while (pre < x.length() && pre < y.length() && x.charAt(pre) == y.charAt(pre)) {
            pre++;
        }
        int suf = 0;
        while (suf < x.length() - pre && suf < y.length() - pre && x.charAt(x.length() - 1 - suf) == y.charAt(y.length() - 1 - suf)) {
            suf++;
        }
        if (Math.max(x.length() - pre - suf, y.length() - pre - suf) <= ADDRESS_NOISE) {
            return true;
        }
        return similarity(a, b) >= SAME_TEXT && densestEdits(x, y) <= ADDRESS_NOISE;
    }

    /** Columns of the alignment in which {@link #densestEdits} counts edits. */
    private static final int EDIT_WINDOW = 6;

    /** The most edits within {@value #EDIT_WINDOW} consecutive columns of a least-edit alignment of two normalised texts. */
    static int densestEdits(String x, String y) {
        x = x.length() > 160 ? x.substring(0, 160) : x;
        y = y.length() > 160 ? y.substring(0, 160) : y;
        int[][] d = new int[x.length() + 1][y.length() + 1];
        for (int i = 0; i <= x.length(); i++) {
            for (int j = 0; j <= y.length(); j++) {
                d[i][j] = i == 0 ? j : j == 0 ? i
                        : Math.min(Math.min(d[i - 1][j], d[i][j - 1]) + 1, d[i - 1][j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1));
            }
        }
        List<Boolean> edits = new ArrayList<>();
        int i = x.length();
        int j = y.length();
        while (i > 0 || j > 0) {
            if (i > 0 && j > 0 && d[i][j] == d[i - 1][j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1)) {
                edits.add(x.charAt(i - 1) != y.charAt(j - 1));
                i--;
                j--;
            } else if (i > 0 && d[i][j] == d[i - 1][j] + 1) {
                edits.add(true);
                i--;
            } else {
                edits.add(true);
                j--;
            }
        }
        int most = 0;
        int now = 0;
        for (int k = 0; k < edits.size(); k++) {
            now += edits.get(k) ? 1 : 0;
            now -= k >= EDIT_WINDOW && edits.get(k - EDIT_WINDOW) ? 1 : 0;
            most = Math.max(most, now);
        }
        return most;
    }

    private static String url(String[] parts) {
        for (String p : parts) {
            if (URL.matcher(p).find()) {
                return p;
            }
        }
        return null;
    }

    /** 1 - edit distance / longer length, over letters and digits. */
    static double similarity(String a, String b) {
        String x = TitleText.norm(a);
        String y = TitleText.norm(b);
        if (x.isEmpty() || y.isEmpty()) {
            return x.equals(y) ? 1 : 0;
        }
        if (x.length() > 160) {
            x = x.substring(0, 160);
        }
        if (y.length() > 160) {
            y = y.substring(0, 160);
        }
        int[] prev = new int[y.length() + 1];
        int[] cur = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return 1 - (double) prev[y.length()] / Math.max(x.length(), y.length());
    }

    /** Whether a fragment is words: at least three letters or digits (window controls read as "x", "口" are not). */
    private static boolean words(String text) {
        return TitleText.norm(text).length() >= 3;
    }
}
