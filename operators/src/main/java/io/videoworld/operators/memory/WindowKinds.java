package io.videoworld.operators.memory;

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
    /** A pager's status line ("... (press h for help or q to quit)", read whole or in part) or a manual page's header row ("TAR(1)  User Commands"). */
    private static final Pattern MAN = Pattern.compile("manual\\s?page \\S+ line \\d+|press\\s?h\\s?for\\s?help|or\\s?q\\s?to\\s?quit\\W*$|^\\S+\\(\\d\\)\\s?User\\s?Com+an+ds|^User\\s?Com+an+ds$",
            Pattern.CASE_INSENSITIVE);
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
        if (URL.matcher(chrome).find() || head.stream().limit(8).anyMatch(l -> URL.matcher(l).find() && !l.strip().contains(" "))) {
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
        String strip = chrome.split(WindowChrome.PARTS)[0].strip();
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

    /** The manual page a terminal's status line names (lower case), or null when it shows none (a shell, another app). */
    static String manual(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            java.util.regex.Matcher m = MAN_STATUS.matcher(lines.get(i));
            if (m.find()) {
                return WindowChrome.norm(m.group(1));
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
