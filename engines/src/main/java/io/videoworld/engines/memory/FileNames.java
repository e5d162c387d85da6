package io.videoworld.engines.memory;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * File names in window titles ("changelog.Debian.md - gedit"). Two titles of one app that name
 * files of another type are two files, however alike their letters: {@code changelog.Debian},
 * {@code changelog.Debian.md} and {@code changelog.Debian.txt} differ by a few letters, which
 * the similarity of whole titles reads as OCR noise, but a person reads as three files.
 */
final class FileNames {
    /** "name.ext - App": the file name (with at least one dot) before the last dash, and the app's plain name after it. */
    private static final Pattern NAMED = Pattern.compile("^(.*\\.[\\p{L}\\p{N}]+)\\s*[-\u2013\u2014]\\s*(\\p{L}[\\p{L} ]{2,24})$");

    private FileNames() {}

    /**
     * Whether two titles of the same app name two files: their names differ (letters and digits)
     * and so do their last dotted parts ("md", "txt", or "Debian" for a name without a type). A
     * dot OCR dropped or a misread letter in the name leave the type alike; titles that are not
     * "file - App" say nothing here.
     */
    static boolean otherFile(String a, String b) {
        Matcher x = NAMED.matcher(a.strip());
        Matcher y = NAMED.matcher(b.strip());
        if (!x.matches() || !y.matches() || !TitleText.norm(x.group(2)).equals(TitleText.norm(y.group(2)))) {
            return false;
        }
        String nx = x.group(1).strip();
        String ny = y.group(1).strip();
        return !TitleText.norm(nx).equals(TitleText.norm(ny)) && !type(nx).equals(type(ny));
    }

    /**
     * Whether a window edits a file: its title names one ("notes.md - gedit"), or its tab strip
     * of file names made it an editor ({@link WindowKinds#EDITOR}).
     */
    static boolean editing(String title, String app) {
        return WindowKinds.EDITOR.equals(app) || title != null && NAMED.matcher(title.split(TitleText.PARTS)[0].strip()).matches();
    }

    /** The part after the name's last dot, letters and digits, lower case. */
    private static String type(String name) {
        return TitleText.norm(name.substring(name.lastIndexOf('.') + 1)).toLowerCase(Locale.ROOT);
    }
}
