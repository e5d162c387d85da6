package io.videoworld.bench;

import io.videoworld.core.Redactions;
import io.videoworld.core.TextLine;
import io.videoworld.engines.privacy.RedactionKind;
import io.videoworld.engines.privacy.Redactor;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import io.videoworld.testkit.MachineText;
import io.videoworld.testkit.Screens;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Precision and recall of each redaction kind: screens of this machine's own text (manual pages,
 * licences, changelogs) with secrets planted on some lines, drawn for held-out seeds, rendered and
 * read by the real OCR model, then redacted. A planted secret counts when OCR read it (its value is
 * in the raw text); it is redacted when no 8 characters of it in a row are left. Markers of a kind on
 * a screen beyond the secrets of that kind planted and read there are false, except e-mail markers
 * for the addresses the machine's text holds itself (a word with an {@code @} and a dotted domain).
 * {@code bin/videoworld bench privacy [screens]} (default 60).
 */
public final class PrivacyBench {
    /** Seeds from here on are used by this bench only, and were not looked at while the redactor was written. */
    static final long FIRST_SEED = 37_000;

    private record Planted(RedactionKind kind, String value) {}

    /** Counts of one kind. */
    private static final class Tally {
        int planted;
        int read;
        int redacted;
        int markers;
        int falseMarkers;
        int textRedacted;
        int textMarkers;
        int textFalse;
    }

    public static void main(String[] args) throws Exception {
        BenchRecord.start("privacy", args);
        int screens = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        MachineText text = MachineText.load();
        Map<RedactionKind, Tally> tally = new EnumMap<>(RedactionKind.class);
        for (RedactionKind k : RedactionKind.values()) {
            tally.put(k, new Tally());
        }
        int negatives = 0;
        int natural = 0;
        List<String> falseLines = new ArrayList<>();
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            for (int s = 0; s < screens; s++) {
                Random rnd = new Random(FIRST_SEED + s);
                MachineText.Doc doc = rnd.nextBoolean() ? text.manPage(rnd) : text.prose(rnd);
                int from = doc.lines().size() > 14 ? rnd.nextInt(doc.lines().size() - 14) : 0;
                List<String> lines = new ArrayList<>(doc.lines().subList(from, Math.min(doc.lines().size(), from + 14)));
                List<Planted> planted = new ArrayList<>();
                java.util.Set<Integer> plantedAt = new java.util.HashSet<>();
                // A quarter of the screens hold no secret: only false markers can come of them.
                int n = rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(3);
                negatives += n == 0 ? 1 : 0;
                for (int i = 0; i < n && plantedAt.size() < lines.size(); i++) {
                    RedactionKind kind = RedactionKind.values()[rnd.nextInt(RedactionKind.values().length)];
                    String value = value(kind, rnd);
                    planted.add(new Planted(kind, value));
                    int at = rnd.nextInt(lines.size());
                    while (!plantedAt.add(at)) {
                        at = (at + 1) % lines.size();
                    }
                    lines.set(at, line(kind, value, rnd));
                }
                Screens.Screen screen = Screens.render(doc.name(), lines, 0);
                List<TextLine> read = ocr.readCrops(List.of(screen.image()),
                        List.of(new OcrEngine.Crop(0, 0, screen.image().width(), screen.image().height()))).get(0);
                String raw = join(read);
                String redacted = join(Redactor.ALL.redactLines(read));
                String textOnly = join(Redactor.ALL.redactLines(screen.truth()));
                Map<RedactionKind, Integer> readHere = new EnumMap<>(RedactionKind.class);
                Map<RedactionKind, Integer> plantedHere = new EnumMap<>(RedactionKind.class);
                // Addresses in the machine's own text (maintainers, authors) are e-mail addresses too, not false markers.
                StringBuilder unplanted = new StringBuilder();
                for (int i = 0; i < lines.size(); i++) {
                    unplanted.append(plantedAt.contains(i) ? "" : lines.get(i)).append('\n');
                }
                String base = doc.name() + "\n" + unplanted;
                java.util.regex.Matcher own = ADDRESS.matcher(unplanted);
                while (own.find()) {
                    natural++;
                    plantedHere.merge(RedactionKind.EMAIL, 1, Integer::sum);
                    if (norm(raw).contains(norm(own.group()))) {
                        readHere.merge(RedactionKind.EMAIL, 1, Integer::sum);
                    }
                }
                for (Planted p : planted) {
                    Tally t = tally.get(p.kind());
                    t.planted++;
                    plantedHere.merge(p.kind(), 1, Integer::sum);
                    t.textRedacted += leaks(p.value(), textOnly, base) ? 0 : 1;
                    if (norm(raw).contains(norm(p.value()))) {
                        t.read++;
                        readHere.merge(p.kind(), 1, Integer::sum);
                        t.redacted += leaks(p.value(), redacted, base) ? 0 : 1;
                    }
                }
                for (RedactionKind k : RedactionKind.values()) {
                    Tally t = tally.get(k);
                    int m = count(redacted, k);
                    t.markers += m;
                    int wrong = Math.max(0, m - readHere.getOrDefault(k, 0));
                    t.falseMarkers += wrong;
                    if (wrong > 0) {
                        for (TextLine l : Redactor.ALL.redactLines(read)) {
                            if (l.text().contains(Redactions.marker(k.label()))) {
                                falseLines.add(k.label() + " (seed " + (FIRST_SEED + s) + "): " + l.text());
                            }
                        }
                    }
                    int tm = count(textOnly, k);
                    t.textMarkers += tm;
                    t.textFalse += Math.max(0, tm - plantedHere.getOrDefault(k, 0));
                }
            }
        }
        System.out.println("redaction of secrets planted in " + screens + " screens of this machine's text (" + negatives
                + " with none planted; " + natural + " e-mail addresses of the text itself count as e-mail), seeds " + FIRST_SEED + "-" + (FIRST_SEED + screens - 1) + ", read by the OCR model, and on the same "
                + "text as drawn (no OCR)");
        System.out.println();
        System.out.println("| kind | planted | read by OCR | redacted of read (recall) | markers | false markers | precision | recall on drawn text | precision on drawn text |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (RedactionKind k : RedactionKind.values()) {
            Tally t = tally.get(k);
            System.out.printf(Locale.ROOT, "| %s | %d | %d | %d (%s) | %d | %d | %s | %s | %s |%n", k.label(), t.planted, t.read, t.redacted,
                    ratio(t.redacted, t.read), t.markers, t.falseMarkers, ratio(t.markers - t.falseMarkers, t.markers),
                    ratio(t.textRedacted, t.planted), ratio(t.textMarkers - t.textFalse, t.textMarkers));
        }
        System.out.println();
        System.out.println("the marked lines of screens with more markers of a kind than were planted (e-mail left out):");
        falseLines.stream().filter(l -> !l.startsWith("email")).limit(10).forEach(l -> System.out.println("- " + l));
        exclusion(screens, text);
    }

    /** Seeds of the exclusion windows, apart from the redaction screens'. */
    static final long FIRST_WINDOW_SEED = 37_500;
    private static final String[] RULES = {"app:KeePassXC", "title:\\bpayroll\\b", "domain:mybank.com", "private"};

    /**
     * Each rule on windows drawn for held-out seeds: a window it should exclude, or one of the others (whose content,
     * below the chrome, names the app, the word, the domain and private browsing); with and without a desktop panel
     * above, in fonts of 18 to 28 points.
     */
    private static void exclusion(int windows, MachineText text) throws Exception {
        io.videoworld.core.ExclusionRules rules = io.videoworld.core.ExclusionRules.parse(List.of(RULES));
        int[][] counts = new int[RULES.length + 1][3]; // per expected rule (last: none): excluded by it, by another, kept
        int[] byRule = new int[RULES.length + 1];
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            io.videoworld.engines.privacy.WindowExclusion ex = new io.videoworld.engines.privacy.WindowExclusion(ocr, rules);
            for (int s = 0; s < windows; s++) {
                Random rnd = new Random(FIRST_WINDOW_SEED + s);
                int expect = rnd.nextInt(RULES.length + 1);
                MachineText.Doc doc = text.prose(rnd);
                String name = doc.name().replaceAll("[^A-Za-z0-9._-]", "");
                String[] others = {"Mail", "Files", "Terminal", "Text Editor", "Firefox"};
                String title;
                String address = null;
                switch (expect) {
                    case 0 -> title = List.of("Passwords.kdbx", "Vault.kdbx", name + ".kdbx").get(rnd.nextInt(3)) + " - KeePassXC";
                    case 1 -> title = List.of("Q3 Payroll.xlsx", "payroll-2024.ods", "Payroll summary").get(rnd.nextInt(3)) + " - "
                            + List.of("Spreadsheet", "LibreOffice Calc", "Files").get(rnd.nextInt(3));
                    case 2 -> {
                        title = List.of("Accounts", "Online banking", "Transfers").get(rnd.nextInt(3)) + " - Firefox";
                        address = "https://" + List.of("online.", "www.", "").get(rnd.nextInt(3)) + "mybank.com/" + name.toLowerCase(Locale.ROOT);
                    }
                    case 3 -> title = List.of("New Private Tab - Mozilla Firefox Private Browsing", "New Incognito Tab - Chromium",
                            name + " - Mozilla Firefox Private Browsing").get(rnd.nextInt(3));
                    default -> {
                        title = name + " - " + others[rnd.nextInt(others.length)];
                        address = rnd.nextBoolean() ? null : "https://www.notmybank.community/" + name.toLowerCase(Locale.ROOT);
                    }
                }
                List<String> content = new ArrayList<>(doc.lines().subList(0, Math.min(6, doc.lines().size())));
                content.add("KeePassXC payroll mybank.com private browsing incognito");
                byte[] jpeg = window(rnd.nextBoolean(), title, address, 18 + rnd.nextInt(11), content);
                String by = ex.excludedBy(jpeg);
                int got = by == null ? RULES.length : List.of(RULES).indexOf(by);
                counts[expect][got == expect ? 0 : got == RULES.length ? 2 : 1]++;
                byRule[got]++;
            }
        }
        System.out.println();
        System.out.println("exclusion rules on " + windows + " windows drawn for seeds " + FIRST_WINDOW_SEED + "-" + (FIRST_WINDOW_SEED + windows - 1)
                + " (half under a desktop panel, title fonts 18-28 pt, the rules' words in the content of every window, below the chrome), "
                + "the top band read by the OCR model");
        System.out.println();
        System.out.println("| rule | windows it should exclude | excluded by it (recall) | by another rule | kept | windows it excluded | precision |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int r = 0; r <= RULES.length; r++) {
            int n = counts[r][0] + counts[r][1] + counts[r][2];
            if (r == RULES.length) {
                // An ordinary window is right when kept (counted as "by it") and wrong when any rule excluded it.
                System.out.printf(Locale.ROOT, "| (ordinary windows) | %d | - | %d | %d | - | - |%n", n, counts[r][1], counts[r][0]);
            } else {
                System.out.printf(Locale.ROOT, "| `%s` | %d | %d (%s) | %d | %d | %d | %s |%n", RULES[r], n, counts[r][0], ratio(counts[r][0], n),
                        counts[r][1], counts[r][2], byRule[r], ratio(counts[r][0], byRule[r]));
            }
        }
    }

    private static byte[] window(boolean panel, String title, String address, int font, List<String> content) throws Exception {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(1280, 720, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new java.awt.Color(248, 248, 248));
        g.fillRect(0, 0, 1280, 720);
        int y = 0;
        if (panel) {
            g.setColor(new java.awt.Color(20, 20, 20));
            g.fillRect(0, 0, 1280, 28);
            g.setFont(Screens.font().deriveFont(16f));
            g.setColor(java.awt.Color.WHITE);
            g.drawString("Activities", 12, 20);
            g.drawString("Thu 14:05", 590, 20);
            y = 28;
        }
        int bar = font + 20;
        g.setColor(new java.awt.Color(60, 60, 70));
        g.fillRect(0, y, 1280, bar);
        g.setFont(Screens.font().deriveFont((float) font));
        g.setColor(java.awt.Color.WHITE);
        g.drawString(title, 24, y + bar - 12);
        y += bar;
        if (address != null) {
            g.setColor(new java.awt.Color(225, 225, 230));
            g.fillRect(0, y, 1280, 40);
            g.setColor(java.awt.Color.BLACK);
            g.setFont(Screens.font().deriveFont(19f));
            g.drawString(address, 80, y + 27);
            y += 40;
        }
        g.setFont(Screens.font().deriveFont(24f));
        g.setColor(new java.awt.Color(30, 30, 30));
        // Content starts below the band the rules read, as a window's body does under its chrome.
        int top = Math.max(y + 60, 180);
        for (int i = 0; i < content.size(); i++) {
            g.drawString(content.get(i), 60, top + i * 52);
        }
        g.dispose();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static final java.util.regex.Pattern ADDRESS = java.util.regex.Pattern.compile("[^\\s<>()\"',;]+@[^\\s<>()\"',;]+\\.[A-Za-z]{2,}");

    private static String ratio(int a, int b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) a / b);
    }

    private static String join(List<TextLine> lines) {
        StringBuilder sb = new StringBuilder();
        lines.forEach(l -> sb.append(l.text()).append('\n'));
        return sb.toString();
    }

    private static int count(String text, RedactionKind k) {
        String marker = Redactions.marker(k.label());
        int n = 0;
        for (int i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) {
            n++;
        }
        return n;
    }

    static String norm(String s) {
        return s.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
    }

    /**
     * Whether 8 letters or digits of {@code value} in a row (all of it, when shorter) are still in {@code text}, other
     * than 8 that the screen's own text ({@code base}, without the planted lines) holds anyway ("GFDL-1.2 Examples" holds
     * "2example").
     */
    static boolean leaks(String value, String text, String base) {
        String v = norm(value);
        String t = norm(text);
        String own = norm(base);
        int w = Math.min(8, v.length());
        for (int i = 0; i + w <= v.length(); i++) {
            String piece = v.substring(i, i + w);
            if (t.contains(piece) && !own.contains(piece)) {
                return true;
            }
        }
        return false;
    }

    private static String line(RedactionKind kind, String value, Random rnd) {
        String[][] around = {
            {"Contact: ", "Reply to ", "From: Dana Keller <", "cc "},
            {"Call ", "Phone: ", "Mobile ", "Tel. "},
            {"Card number ", "Visa ", "Paid with ", "card: "},
            {"IBAN ", "Account IBAN: ", "Transfer to ", "Bank account "},
            {"export OPENAI_API_KEY=", "token: ", "Authorization: Bearer ", "api_key = "},
            {"Password: ", "password = ", "PIN: ", "passwd: "}};
        String[] after = {"", " for the invoice", " (do not share)", " until Friday"};
        String pre = around[kind.ordinal()][rnd.nextInt(4)];
        String post = kind == RedactionKind.EMAIL && pre.endsWith("<") ? ">" : after[rnd.nextInt(after.length)];
        return pre + value + post;
    }

    private static String value(RedactionKind kind, Random rnd) {
        return switch (kind) {
            case EMAIL -> List.of("dana", "j.smith", "ops-team", "m.keller", "sam_lee").get(rnd.nextInt(5)) + rnd.nextInt(100) + "@"
                    + List.of("example.org", "mail.example.com", "corp.io", "uni-hamburg.de").get(rnd.nextInt(4));
            case PHONE -> switch (rnd.nextInt(3)) {
                case 0 -> "+44 20 " + digits(rnd, 4) + " " + digits(rnd, 4);
                case 1 -> "(" + digits(rnd, 3) + ") " + digits(rnd, 3) + "-" + digits(rnd, 4);
                default -> "+49 30 " + digits(rnd, 8);
            };
            case CARD -> {
                String body = List.of("4", "51", "37", "6011").get(rnd.nextInt(4));
                body = body + digits(rnd, 15 - body.length());
                for (int d = 0; d < 10; d++) {
                    if (luhn(body + d)) {
                        body = body + d;
                        break;
                    }
                }
                yield rnd.nextBoolean() ? body.replaceAll("(.{4})(?!$)", "$1 ") : body;
            }
            case IBAN -> {
                String country = List.of("DE", "FR", "GB", "NL").get(rnd.nextInt(4));
                String bban = digits(rnd, 18);
                StringBuilder d = new StringBuilder(bban);
                for (char c : (country + "00").toCharArray()) {
                    d.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
                }
                String iban = country + String.format("%02d", 98 - new BigInteger(d.toString()).mod(BigInteger.valueOf(97)).intValue()) + bban;
                yield rnd.nextBoolean() ? iban.replaceAll("(.{4})(?!$)", "$1 ") : iban;
            }
            case KEY -> switch (rnd.nextInt(4)) {
                case 0 -> "sk-" + mixed(rnd, 32);
                case 1 -> "ghp_" + mixed(rnd, 36);
                case 2 -> "AKIA" + upper(rnd, 16);
                default -> mixed(rnd, 32);
            };
            case PASSWORD -> mixed(rnd, 6 + rnd.nextInt(6)) + List.of("!", "#", "", "?").get(rnd.nextInt(4));
        };
    }

    private static boolean luhn(String d) {
        int sum = 0;
        for (int i = 0; i < d.length(); i++) {
            int v = d.charAt(d.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                v = v * 2 > 9 ? v * 2 - 9 : v * 2;
            }
            sum += v;
        }
        return sum % 10 == 0;
    }

    private static String digits(Random rnd, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) ('0' + rnd.nextInt(10)));
        }
        return sb.toString();
    }

    private static String upper(Random rnd, int n) {
        String a = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(a.charAt(rnd.nextInt(a.length())));
        }
        return sb.toString();
    }

    private static String mixed(Random rnd, int n) {
        String a = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        StringBuilder sb = new StringBuilder();
        while (sb.length() < n) {
            sb.append(a.charAt(rnd.nextInt(a.length())));
            // Two of each class at least, as a generated key has.
            if (sb.length() == n && !(sb.chars().filter(Character::isDigit).count() >= 2 && sb.chars().filter(Character::isUpperCase).count() >= 2
                    && sb.chars().filter(Character::isLowerCase).count() >= 2)) {
                sb.setLength(0);
            }
        }
        return sb.toString();
    }

    private PrivacyBench() {}
}
