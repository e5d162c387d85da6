package io.videoworld.engines.privacy;

import io.videoworld.core.Redactions;
import io.videoworld.core.TextLine;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces secrets and personal data in read text with a marker ({@code [redacted:email]}) before the
 * text is embedded, indexed or remembered; each {@link RedactionKind} is applied only when turned on.
 * Stateless and thread-safe.
 */
public final class Redactor implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Redacts nothing. */
    public static final Redactor NONE = new Redactor(EnumSet.noneOf(RedactionKind.class));
    /** Redacts every kind. */
    public static final Redactor ALL = new Redactor(EnumSet.allOf(RedactionKind.class));

    /** Text after redaction and the kinds that were found in it. */
    public record Redacted(String text, Set<RedactionKind> kinds) {}

    private final EnumSet<RedactionKind> on;

    /** A redactor for the kinds in {@code on}. */
    public Redactor(Collection<RedactionKind> on) {
        this.on = on.isEmpty() ? EnumSet.noneOf(RedactionKind.class) : EnumSet.copyOf(on);
    }

    /** The kinds this redactor removes. */
    public Set<RedactionKind> kinds() {
        return EnumSet.copyOf(on);
    }

    /** Whether this redactor removes nothing. */
    public boolean isOff() {
        return on.isEmpty();
    }

    private static final String LABEL = "(?:password|passwort|passwd|passphrase|passcode|pwd|pin|mot de passe|kennwort|contraseña|secret)";
    private static final Pattern PASSWORD = Pattern.compile("(?i)(\\b" + LABEL + "\\s*[:=]\\s*)(\\S+)");
    private static final Pattern LABEL_ONLY = Pattern.compile("(?i)^\\s*" + LABEL + "\\s*[:=]?\\s*$");
    private static final Pattern KNOWN_KEY = Pattern.compile(String.join("|",
            "-----BEGIN [A-Z ]*PRIVATE KEY-----",
            "\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}",
            "\\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}",
            "\\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
            "\\bgithub_pat_[A-Za-z0-9_]{20,}",
            "\\bglpat-[A-Za-z0-9_-]{16,}",
            "\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b",
            "\\bxox[abposr]-[A-Za-z0-9-]{10,}",
            "\\bAIza[0-9A-Za-z_-]{30,}",
            "\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
            "\\bhf_[A-Za-z0-9]{20,}",
            "\\bnpm_[A-Za-z0-9]{30,}"));
    private static final Pattern TOKEN = Pattern.compile("(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{20,}(?![A-Za-z0-9+/_=-])");
    private static final Pattern EMAIL = Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+ ?@ ?[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}\\b");
    private static final Pattern IBAN = Pattern.compile("\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]){11,30}");
    private static final Pattern CARD = Pattern.compile("(?<![\\d-])\\d(?:[ -]?\\d){12,}(?![\\d-])");
    private static final Pattern PHONE = Pattern.compile(String.join("|",
            "(?<![\\w+])\\+\\d{1,3}[ -]?(?:\\(\\d{1,4}\\)[ -]?)?\\d{1,4}(?:[ -]?\\d{2,4}){1,4}(?![\\w-])",
            "(?<![\\w(-])\\(0?\\d{2,4}\\) ?\\d{3,4}[ -]?\\d{3,4}(?![\\w-])",
            "(?<![\\w(.-])\\d{3}([-.])\\d{3}\\1\\d{4}(?![\\w-])"));

    /** Redacts one text; null stays null. */
    public Redacted redact(String text) {
        EnumSet<RedactionKind> found = EnumSet.noneOf(RedactionKind.class);
        return new Redacted(text == null ? null : apply(text, found), found);
    }

    /**
     * Redacts lines read from one picture, in reading order: each line alone, and a value alone on the
     * line after a bare password label. Boxes are kept; only the text changes.
     */
    public List<TextLine> redactLines(List<TextLine> lines) {
        if (on.isEmpty() || lines == null) {
            return lines;
        }
        List<TextLine> out = new ArrayList<>(lines.size());
        boolean afterLabel = false;
        for (TextLine l : lines) {
            String t = l.text();
            EnumSet<RedactionKind> found = EnumSet.noneOf(RedactionKind.class);
            if (afterLabel && t != null && !t.isBlank() && !t.trim().contains(" ")) {
                t = Redactions.marker(RedactionKind.PASSWORD.label());
            } else if (t != null) {
                t = apply(t, found);
            }
            afterLabel = on.contains(RedactionKind.PASSWORD) && l.text() != null && LABEL_ONLY.matcher(l.text()).matches();
            out.add(t == l.text() || t.equals(l.text()) ? l : new TextLine(t, l.x(), l.y(), l.width(), l.height(), l.score()));
        }
        return out;
    }

    private String apply(String text, Set<RedactionKind> found) {
        String t = text;
        if (on.contains(RedactionKind.PASSWORD)) {
            t = replaceGroup(t, PASSWORD, 2, RedactionKind.PASSWORD, found);
        }
        if (on.contains(RedactionKind.KEY)) {
            t = replace(t, KNOWN_KEY, s -> true, RedactionKind.KEY, found);
        }
        if (on.contains(RedactionKind.EMAIL)) {
            t = replace(t, EMAIL, s -> true, RedactionKind.EMAIL, found);
        }
        if (on.contains(RedactionKind.IBAN)) {
            t = iban(t, found);
        }
        if (on.contains(RedactionKind.CARD)) {
            t = card(t, found);
        }
        if (on.contains(RedactionKind.PHONE)) {
            t = replace(t, PHONE, Redactor::phoneDigits, RedactionKind.PHONE, found);
        }
        if (on.contains(RedactionKind.KEY)) {
            t = replace(t, TOKEN, Redactor::highEntropy, RedactionKind.KEY, found);
        }
        return t;
    }

    private static String replace(String text, Pattern p, Predicate<String> check, RedactionKind kind, Set<RedactionKind> found) {
        Matcher m = p.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        while (m.find()) {
            if (!check.test(m.group())) {
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(text.length());
            }
            sb.append(text, last, m.start()).append(Redactions.marker(kind.label()));
            last = m.end();
            found.add(kind);
        }
        return sb == null ? text : sb.append(text, last, text.length()).toString();
    }

    private static String replaceGroup(String text, Pattern p, int group, RedactionKind kind, Set<RedactionKind> found) {
        Matcher m = p.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        while (m.find()) {
            if (m.group(group).startsWith("[redacted:")) {
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(text.length());
            }
            sb.append(text, last, m.start(group)).append(Redactions.marker(kind.label()));
            last = m.end(group);
            found.add(kind);
        }
        return sb == null ? text : sb.append(text, last, text.length()).toString();
    }

    /** IBANs: the longest run from a match's start, in whole characters, whose compact form passes mod-97. */
    private static String iban(String text, Set<RedactionKind> found) {
        Matcher m = IBAN.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        int from = 0;
        while (from < text.length() && m.find(from)) {
            int end = -1;
            String run = m.group();
            for (int cut = run.length(); cut >= 15; cut--) {
                if (cut < run.length() && run.charAt(cut) != ' ' && run.charAt(cut - 1) != ' '
                        && Character.isDigit(run.charAt(cut)) == Character.isDigit(run.charAt(cut - 1))) {
                    continue;
                }
                String compact = run.substring(0, cut).replace(" ", "");
                if (compact.length() >= 15 && compact.length() <= 34 && mod97(compact)) {
                    end = m.start() + run.substring(0, cut).stripTrailing().length();
                    break;
                }
            }
            if (end < 0) {
                from = m.start() + 1;
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(text.length());
            }
            sb.append(text, last, m.start()).append(Redactions.marker(RedactionKind.IBAN.label()));
            last = end;
            from = end;
            found.add(RedactionKind.IBAN);
        }
        return sb == null ? text : sb.append(text, last, text.length()).toString();
    }

    /** Card numbers: within each run of digit groups, the longest spans of whole groups, written as cards are, that pass the Luhn check. */
    private static String card(String text, Set<RedactionKind> found) {
        Matcher m = CARD.matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            List<int[]> groups = new ArrayList<>();
            Matcher g = DIGITS.matcher(m.group());
            while (g.find()) {
                groups.add(new int[] {m.start() + g.start(), m.start() + g.end()});
            }
            luhnSpans(text, groups, 0, groups.size(), spans);
        }
        if (spans.isEmpty()) {
            return text;
        }
        spans.sort(java.util.Comparator.comparingInt(a -> a[0]));
        StringBuilder sb = new StringBuilder(text.length());
        int last = 0;
        for (int[] span : spans) {
            sb.append(text, last, span[0]).append(Redactions.marker(RedactionKind.CARD.label()));
            last = span[1];
        }
        found.add(RedactionKind.CARD);
        return sb.append(text, last, text.length()).toString();
    }

    /** The longest (then leftmost) Luhn-valid span of groups {@code [from, to)}, then those left and right of it. */
    private static void luhnSpans(String text, List<int[]> groups, int from, int to, List<int[]> out) {
        for (int size = to - from; size >= 1; size--) {
            for (int i = from; i + size <= to; i++) {
                int s = groups.get(i)[0];
                int e = groups.get(i + size - 1)[1];
                if (cardShaped(groups.subList(i, i + size)) && luhn(text.substring(s, e))) {
                    out.add(new int[] {s, e});
                    luhnSpans(text, groups, from, i, out);
                    luhnSpans(text, groups, i + size, to, out);
                    return;
                }
            }
        }
    }

    /**
     * How card numbers are written: one run of 13 to 19 digits, groups of four (the last of one to four), or the
     * 4-6-5 and 4-6-4 groups of American Express and Diners; numbers of prose next to each other are not.
     */
    private static boolean cardShaped(List<int[]> groups) {
        int n = groups.size();
        if (n == 1) {
            return true;
        }
        int[] len = new int[n];
        for (int i = 0; i < n; i++) {
            len[i] = groups.get(i)[1] - groups.get(i)[0];
        }
        if (n == 3 && len[0] == 4 && len[1] == 6 && (len[2] == 5 || len[2] == 4)) {
            return true;
        }
        for (int i = 0; i < n - 1; i++) {
            if (len[i] != 4) {
                return false;
            }
        }
        return len[n - 1] >= 1 && len[n - 1] <= 4;
    }

    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** ISO 13616: the first four characters moved to the end, letters as 10-35, the number mod 97 is 1. */
    static boolean mod97(String iban) {
        String moved = iban.substring(4) + iban.substring(0, 4);
        StringBuilder digits = new StringBuilder(moved.length() * 2);
        for (char c : moved.toCharArray()) {
            if (Character.isDigit(c)) {
                digits.append(c);
            } else if (c >= 'A' && c <= 'Z') {
                digits.append(c - 'A' + 10);
            } else {
                return false;
            }
        }
        return new BigInteger(digits.toString()).mod(BigInteger.valueOf(97)).intValue() == 1;
    }

    /** The Luhn check over the digits of {@code s} (13 to 19 of them). */
    static boolean luhn(String s) {
        String d = s.replaceAll("\\D", "");
        if (d.length() < 13 || d.length() > 19 || d.chars().distinct().count() == 1) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < d.length(); i++) {
            int v = d.charAt(d.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                v *= 2;
                if (v > 9) {
                    v -= 9;
                }
            }
            sum += v;
        }
        return sum % 10 == 0;
    }

    private static boolean phoneDigits(String s) {
        long n = s.chars().filter(Character::isDigit).count();
        return n >= 9 && n <= 15;
    }

    /**
     * A token that reads as random: 20 characters or more, with upper case, lower case and digits (two of each),
     * and a Shannon entropy of at least 3.7 bits a character.
     */
    static boolean highEntropy(String s) {
        int upper = 0;
        int lower = 0;
        int digit = 0;
        int[] counts = new int[128];
        for (char c : s.toCharArray()) {
            if (Character.isUpperCase(c)) {
                upper++;
            } else if (Character.isLowerCase(c)) {
                lower++;
            } else if (Character.isDigit(c)) {
                digit++;
            }
            counts[c & 127]++;
        }
        if (upper < 2 || lower < 2 || digit < 2) {
            return false;
        }
        double h = 0;
        for (int c : counts) {
            if (c > 0) {
                double p = (double) c / s.length();
                h -= p * Math.log(p) / Math.log(2);
            }
        }
        return h >= 3.7;
    }
}
