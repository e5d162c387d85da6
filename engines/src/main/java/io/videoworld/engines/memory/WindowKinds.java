package io.videoworld.engines.memory;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The kind of application a window is when its title names none (no title bar, a full-screen
 * window, a title without "- App"), from conventions every desktop shares and that survive OCR
 * noise: a shell prompt or a manual page's status line is a terminal, an address bar a browser,
 * "page 3 of 12" a document viewer, "5 members" or a channel list a chat, a "Places" sidebar or a
 * "Home / Documents" path with folder sizes a file manager, a tab strip of file names an editor.
 * These are the names a person gives such a window ("the terminal", "the browser").
 */
final class WindowKinds {
    static final String TERMINAL = "terminal";
    static final String BROWSER = "browser";
    static final String PDF = "pdf";
    static final String CHAT = "chat";
    static final String FILES = "files";
    static final String EDITOR = "editor";
    /**
     * A pager's status line ("... (press h for help or q to quit)", read whole or in part, "hforhelp", "qtoquit)", "git-fetch（1)line18")
     * or a manual page's header row ("TAR(1)  User Commands", "User Comimands").
     */
    private static final Pattern MAN = Pattern.compile("manual\\s?page \\S+ line \\d+|press\\s?h\\s?for\\s?help|h\\s?for\\s?help|or\\s?q\\s?to\\s?quit\\W*$"
            + "|q\\s?to\\s?qu[il1]t|to\\s?qu[il1]t[l1)\\]}\uff09]\\W*$|[(\uff08]\\s?\\d\\s?[)\uff09]?\\s?line\\s?\\d+"
            + "|^\\S+\\(\\d\\)\\s?User\\s?Com+an+ds|^User\\s?Co[mn]\\w{0,3}ands$", Pattern.CASE_INSENSITIVE);
    /** What a pager's status line says, as pieces of one row may read it: at least two of these make it one. */
    private static final List<Pattern> STATUS_WORDS = List.of(Pattern.compile("press"), Pattern.compile("help"), Pattern.compile("qu[il1]t"),
            Pattern.compile("\\dline\\d"));
    /** The share of the frame's height at the bottom where a pager's status line is. */
    static final double STATUS_BAND = 0.12;
    /** A pager's status line as OCR reads it ("Manual page tar(1) line 40", "Hanualpae ucfr(1line 1"): the page's name. */
    private static final Pattern MAN_STATUS = Pattern.compile("([A-Za-z0-9][\\w.+/-]*)\\s?\\(\\d+\\)?\\s?line\\s?\\d+", Pattern.CASE_INSENSITIVE);
    /** user@host:~/dir$ as OCR reads it at 640 px: '@' may come out as 'g' or 'e', '$' as 's'. */
    private static final Pattern PROMPT = Pattern.compile("\\b\\w{3,}[@:]?\\w*:[~\\-]?/[\\w./-]*[$#s]\\s");
    private static final Pattern URL = Pattern.compile("(https?:|www\\.|\\.(org|com|net|io|dev)/)", Pattern.CASE_INSENSITIVE);
    /** "page 3 of 12": the zoom after the count ("8 100%") is left out, also where OCR joined the two ("8100%"). */
    private static final Pattern PAGES = Pattern.compile("\\bpage\\s?(\\d+)\\s?of\\s?(\\d+?)(?:\\s?\\d{2,3}%|\\b)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern MEMBERS = Pattern.compile("\\d+\\s?members\\b|^#?\\s?chan+els$", Pattern.CASE_INSENSITIVE);
    private static final Pattern PLACES = Pattern.compile("^(places|home\\s?/\\s?\\S.*)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern FOLDER_ROW = Pattern.compile("\\d+\\s?[kKM]B\\s+Folder");
    private static final Pattern FILE_TAB = Pattern.compile("\\w[\\w.+-]*\\.(txt|md|java|py|c|h|js|ts|json|xml|yml|yaml|sh|conf|cfg|ini|rs|go|rb|html|css|csv)\\b",
            Pattern.CASE_INSENSITIVE);
    /**
     * A tab strip of file names as OCR reads it: a tab cut short by its width ("notes.t" at the end
     * of the strip) or two tabs read as one word ("notes.txtplan.md").
     */
    private static final Pattern FILE_TABS_READ = Pattern.compile("\\w\\.(tx?$|xt$|txt\\w|md\\w)", Pattern.CASE_INSENSITIVE);

    /**
     * Spread (standard deviation over mean) of width per letter under which lines are monospaced:
     * measured on OCR of rendered screens at 640 px, monospaced text gives a median of 0.025,
     * proportional fonts 0.045 to 0.07.
     */
    static final double MONO_SPREAD = 0.03;
    /** Letters a line needs to say anything about its font. */
    private static final int MONO_LINE = 20;

    private WindowKinds() {}

    /** The kind the window's chrome ({@code title}: its chrome rows, may be null) and its lines (top first) show, or null. */
    static String of(String title, List<String> lines) {
        List<String> head = lines.subList(0, Math.min(lines.size(), 40));
        String chrome = title == null ? "" : title;
        if (URL.matcher(chrome).find()) {
            return BROWSER;
        }
        // The window's own chrome outranks the text it shows: a licence in a viewer quotes an address on a line of its own.
        if (PAGES.matcher(chrome).find()) {
            return PDF;
        }
        if (MEMBERS.matcher(chrome).find()) {
            return CHAT;
        }
        if (head.stream().limit(8).anyMatch(l -> URL.matcher(l).find() && !l.strip().contains(" "))) {
            return BROWSER;
        }
        if (head.stream().anyMatch(l -> MAN.matcher(l).find()) || count(head, PROMPT) >= 1 && !URL.matcher(chrome).find()) {
            return TERMINAL;
        }
        if (PAGES.matcher(chrome).find() || head.stream().limit(8).anyMatch(l -> PAGES.matcher(l).find())) {
            return PDF;
        }
        if (MEMBERS.matcher(chrome).find() || head.stream().limit(12).anyMatch(l -> MEMBERS.matcher(l.strip()).find())) {
            return CHAT;
        }
        if (head.stream().limit(12).anyMatch(l -> PLACES.matcher(l.strip()).find()) || count(head, FOLDER_ROW) >= 3) {
            return FILES;
        }
        String strip = chrome.split(TitleText.PARTS)[0].strip();
        if (FILE_TAB.matcher(strip).find() || FILE_TABS_READ.matcher(strip).find()) {
            return EDITOR;
        }
        return null;
    }

    /**
     * Whether the window's text is set in a monospaced font, from the OCR boxes alone: every line
     * read whole (spaces kept) is as wide per letter as the next, where a proportional font's
     * width per letter varies with the words ("ill" against "mom"). The spread of width per letter
     * over the lines of each keyframe, its median over the keyframes, under {@link #MONO_SPREAD}.
     * A monospaced window that shows no prompt is what a person calls a text editor.
     */
    static boolean monospaced(List<io.videoworld.core.Perception> in) {
        List<Double> spreads = new java.util.ArrayList<>();
        for (io.videoworld.core.Perception p : in) {
            List<Double> perLetter = new java.util.ArrayList<>();
            for (io.videoworld.core.TextLine l : p.lines()) {
                String t = l.text().strip();
                if (t.length() >= MONO_LINE && t.chars().filter(c -> c == ' ').count() >= 3) {
                    perLetter.add((double) l.width() / t.length());
                }
            }
            if (perLetter.size() >= 4) {
                double mean = perLetter.stream().mapToDouble(Double::doubleValue).average().orElse(0);
                double var = perLetter.stream().mapToDouble(w -> (w - mean) * (w - mean)).average().orElse(0);
                spreads.add(Math.sqrt(var) / mean);
            }
        }
        if (spreads.isEmpty()) {
            return false;
        }
        spreads.sort(null);
        return spreads.get(spreads.size() / 2) < MONO_SPREAD;
    }

    /** Words an address bar may show beside the address. */
    static final int BAR_WORDS = 2;

    /**
     * Whether a row is an address bar: an address, with at most {@value #BAR_WORDS} words beside it (buttons
     * read as text); a sentence that quotes an address ("Copyright (C) 2007 Free Software Foundation, Inc. https://fsf.org/")
     * is a line of the page, however long it stays on screen.
     */
    static boolean addressBar(String row) {
        if (!URL.matcher(row).find()) {
            return false;
        }
        long words = java.util.Arrays.stream(row.split("\\s+")).filter(w -> !URL.matcher(w).find() && w.replaceAll("[^\\p{L}]", "").length() >= 3).count();
        return words <= BAR_WORDS;
    }

    /** Whether a pager's status line or a manual page's header is among a window's lines (top first): a terminal's. */
    static boolean pager(List<String> lines) {
        return lines.stream().limit(40).anyMatch(l -> MAN.matcher(l.strip()).find());
    }

    /**
     * Whether a keyframe's bottom row is a pager's status line, from its pieces put together left to
     * right: OCR reads that small row in pieces ("17(press", "forhelp", "quit") that no pattern of
     * a whole line finds, but two of its words in the bottom {@value #STATUS_BAND} of the frame do.
     */
    static boolean pagerRow(List<io.videoworld.core.Perception> in) {
        for (io.videoworld.core.Perception p : in) {
            String row = TitleText.norm(String.join(" ", p.lines().stream().filter(l -> l.y() >= p.height() * (1 - STATUS_BAND))
                    .sorted(java.util.Comparator.comparingDouble(io.videoworld.core.TextLine::x)).map(io.videoworld.core.TextLine::text).toList()));
            if (STATUS_WORDS.stream().filter(w -> w.matcher(row).find()).count() >= 2) {
                return true;
            }
        }
        return false;
    }

    /** At most this share of the lines of one keyframe on the next: the page was turned (or the window changed), not scrolled. */
    static final double TURNED = 0.15;
    /** The share of lines that stay where they were while one is typed into. */
    static final double STILL = 0.6;
    /** Letters a line needs before it can be seen to grow. */
    private static final int GROWN_FROM = 6;
    /** Letters a line needs to be told apart from the lines around it. */
    private static final int MOTION_LINE = 12;

    /**
     * A guess at the kind of a window nothing names (no chrome, no convention, not monospaced: a
     * full-screen page of prose), from how its text moves between keyframes: a document viewer
     * turns pages (no line kept from one keyframe to the next), a web page scrolls (most lines kept,
     * higher up). {@link #PDF} when a page was turned, else {@link #BROWSER} when the text
     * scrolled, else null (it did not move). A guess: only for naming, never for telling tasks apart
     * ({@link EpisodeBatches#digest} leaves it out).
     */
    static String byMotion(List<io.videoworld.core.Perception> in) {
        boolean scrolled = false;
        for (int i = 0; i + 1 < in.size(); i++) {
            java.util.Map<String, io.videoworld.core.TextLine> a = distinct(in.get(i));
            java.util.Map<String, io.videoworld.core.TextLine> b = distinct(in.get(i + 1));
            if (a.size() < 4 || b.size() < 4) {
                continue;
            }
            int common = 0;
            int moved = 0;
            for (var e : a.entrySet()) {
                io.videoworld.core.TextLine later = b.get(e.getKey());
                if (later != null) {
                    common++;
                    moved += e.getValue().y() - later.y() > e.getValue().height() / 4.0 ? 1 : 0;
                }
            }
            if (common <= TURNED * Math.min(a.size(), b.size())) {
                return PDF;
            }
            scrolled |= moved >= Math.max(2, common / 2);
        }
        return scrolled ? BROWSER : null;
    }

    /**
     * Whether text is being typed into the window: from one keyframe to the next, a line grows
     * where it stands (its start kept, three letters or more added) while most of the others stay
     * where they were. Scrolling moves every line, a turned page or another window replaces them,
     * new chat lines or shell output come as new lines; only an editor lengthens a line in place.
     */
    static boolean typed(List<io.videoworld.core.Perception> in) {
        for (int i = 0; i + 1 < in.size(); i++) {
            java.util.Map<String, io.videoworld.core.TextLine> a = distinct(in.get(i));
            java.util.Map<String, io.videoworld.core.TextLine> b = distinct(in.get(i + 1));
            if (a.size() < 4 || b.size() < 4) {
                continue;
            }
            long still = a.entrySet().stream().filter(e -> b.containsKey(e.getKey())
                    && Math.abs(b.get(e.getKey()).y() - e.getValue().y()) <= e.getValue().height() / 4.0).count();
            if (still < STILL * Math.min(a.size(), b.size())) {
                continue;
            }
            for (io.videoworld.core.TextLine l : in.get(i).lines()) {
                String before = TitleText.norm(l.text());
                if (before.length() < GROWN_FROM) {
                    continue;
                }
                String start = before.substring(0, Math.max(GROWN_FROM, before.length() - 2)); // OCR misreads a line's last letters
                for (io.videoworld.core.TextLine m : in.get(i + 1).lines()) {
                    String after = TitleText.norm(m.text());
                    if (Math.abs(m.y() - l.y()) < l.height() / 2.0 && after.length() >= before.length() + 3 && after.startsWith(start)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A keyframe's lines long enough to be told apart, by their letters; a line read twice is left out. */
    private static java.util.Map<String, io.videoworld.core.TextLine> distinct(io.videoworld.core.Perception p) {
        java.util.Map<String, io.videoworld.core.TextLine> out = new java.util.HashMap<>();
        java.util.Set<String> twice = new java.util.HashSet<>();
        for (io.videoworld.core.TextLine l : p.lines()) {
            String k = TitleText.norm(l.text());
            if (k.length() >= MOTION_LINE && out.put(k, l) != null) {
                twice.add(k);
            }
        }
        out.keySet().removeAll(twice);
        return out;
    }

    /** The manual page a terminal's status line names (lower case), or null when it shows none (a shell, another app). */
    static String manual(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            java.util.regex.Matcher m = MAN_STATUS.matcher(lines.get(i));
            if (m.find()) {
                return TitleText.norm(m.group(1));
            }
        }
        return null;
    }

    /**
     * The page a document viewer shows and the number of its pages ("page 3 of 12" in the top
     * lines: {3, 12}), or null. The number of pages is a property of the document, and one page
     * of a document always shows the same lines: two documents of one name (three
     * {@code changelog.Debian.pdf}) differ in one or the other.
     */
    static int[] pages(List<String> lines) {
        for (String l : lines.subList(0, Math.min(lines.size(), 8))) {
            java.util.regex.Matcher m = PAGES.matcher(l);
            if (m.find() && m.group(1).length() <= 4 && m.group(2).length() <= 4) {
                int[] pages = {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
                // "page 8 of 1" is a misread count ("11" read "1"), no other document: say nothing rather than cut.
                return pages[0] <= pages[1] ? pages : null;
            }
        }
        return null;
    }

    private static int count(List<String> lines, Pattern p) {
        int n = 0;
        for (String l : lines) {
            n += p.matcher(l).find() && !l.contains("http") ? 1 : 0;
        }
        return n;
    }
}
