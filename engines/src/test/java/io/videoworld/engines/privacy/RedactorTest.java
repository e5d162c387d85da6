package io.videoworld.engines.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Redactions;
import io.videoworld.core.TextLine;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class RedactorTest {
    private static final Redactor ALL = Redactor.ALL;

    private static String text(String s) {
        return ALL.redact(s).text();
    }

    @Test
    void eachKindIsMarkedWhereItStood() {
        assertThat(text("mail alice.smith@example.org today")).isEqualTo("mail [redacted:email] today");
        assertThat(text("call +44 20 7946 0958 or (555) 867-5309")).isEqualTo("call [redacted:phone] or [redacted:phone]");
        assertThat(text("card 4111 1111 1111 1111 exp 12/29")).isEqualTo("card [redacted:card] exp 12/29");
        assertThat(text("Amex 3782 822463 10005.")).isEqualTo("Amex [redacted:card].");
        assertThat(text("IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX")).isEqualTo("IBAN [redacted:iban] BIC COBADEFFXXX");
        assertThat(text("export OPENAI_API_KEY=sk-proj-Xa81kPq2mZr7TtY4vBn0")).isEqualTo("export OPENAI_API_KEY=[redacted:key]");
        assertThat(text("token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")).isEqualTo("token [redacted:key]");
        assertThat(text("AWS AKIAIOSFODNN7EXAMPLE")).isEqualTo("AWS [redacted:key]");
        assertThat(text("slack xoxb-123456789012-abcdefghij")).isEqualTo("slack [redacted:key]");
        assertThat(text("Password: hunter2!")).isEqualTo("Password: [redacted:password]");
        assertThat(text("secret value q8Zr2LmX7vPa3NkW9cTy5HbE")).isEqualTo("secret value [redacted:key]");
    }

    @Test
    void theKindsFoundAreReportedAndNamedByTheMarkers() {
        Redactor.Redacted r = ALL.redact("to bob@corp.io card 5500 0000 0000 0004");
        assertThat(r.kinds()).containsExactlyInAnyOrder(RedactionKind.EMAIL, RedactionKind.CARD);
        assertThat(Redactions.kinds(r.text())).containsExactly("card", "email");
    }

    @Test
    void numbersThatFailTheirChecksStay() {
        // Not Luhn-valid, a bad IBAN check, a date, a time, a version, an amount, a git hash.
        for (String s : List.of("order 4111 1111 1111 1112", "IBAN DE88 3704 0044 0532 0130 00", "2024-05-17 12:30:59",
                "version 1.24.3", "total 1,234,567.89 EUR", "commit 3f786850e387550fdab836ed7e6dc881de23001b",
                "Quarterly report due Friday", "def total_invoice(items): return sum(items)",
                // Numbers of prose side by side can pass the Luhn check, but are not grouped as a card is.
                "100 100 155 1479", "Invoice 8955 1572 251 8854")) {
            assertThat(text(s)).as(s).isEqualTo(s);
        }
    }

    @Test
    void aValueAloneUnderAPasswordLabelIsRedacted() {
        List<TextLine> lines = List.of(new TextLine("Password", 10, 10, 80, 20, 0.9), new TextLine("Tr0ub4dor&3", 10, 40, 120, 20, 0.9),
                new TextLine("Sign in", 10, 70, 60, 20, 0.9));
        List<TextLine> out = ALL.redactLines(lines);
        assertThat(out).extracting(TextLine::text).containsExactly("Password", "[redacted:password]", "Sign in");
        assertThat(out.get(1).y()).isEqualTo(40);
        assertThat(new Redactor(EnumSet.complementOf(EnumSet.of(RedactionKind.PASSWORD))).redactLines(lines)).isEqualTo(lines);
    }

    @Test
    void aKindTurnedOffIsLeft() {
        Redactor noEmail = new Redactor(EnumSet.complementOf(EnumSet.of(RedactionKind.EMAIL)));
        assertThat(noEmail.redact("alice@example.org 4111111111111111").text()).isEqualTo("alice@example.org [redacted:card]");
        assertThat(Redactor.NONE.redact("alice@example.org 4111111111111111").text()).isEqualTo("alice@example.org 4111111111111111");
    }

    @Property(tries = 300)
    void luhnValidCardsAreRedactedWherever(@ForAll("cards") String card, @ForAll("prose") String before, @ForAll("prose") String after) {
        String out = text(before + " " + card + " " + after);
        // A number written right next to the card may join it (a leading zero keeps the check): the card never stays.
        assertThat(out).contains("[redacted:card]").doesNotContain(card);
    }

    @Property(tries = 300)
    void validIbansAreRedacted(@ForAll("ibans") String iban, @ForAll("prose") String before) {
        assertThat(text(before + " " + iban + ".")).isEqualTo(before + " [redacted:iban].");
    }

    @Property(tries = 300)
    void keysWithKnownPrefixesAreRedacted(@ForAll("keys") String key, @ForAll("prose") String before) {
        assertThat(text(before + " " + key)).isEqualTo(before + " [redacted:key]");
    }

    @Property(tries = 300)
    void emailsAreRedacted(@ForAll("emails") String email, @ForAll("prose") String before) {
        assertThat(text(before + " <" + email + ">")).isEqualTo(before + " <[redacted:email]>");
    }

    @Property(tries = 500)
    void plainProseIsLeftAlone(@ForAll("prose") String prose) {
        assertThat(text(prose)).isEqualTo(prose);
    }

    @Property(tries = 300)
    void redactingTwiceChangesNothingMore(@ForAll("mixed") String s) {
        String once = text(s);
        assertThat(text(once)).isEqualTo(once);
    }

    @Provide
    Arbitrary<String> prose() {
        Arbitrary<String> word = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(10);
        Arbitrary<String> number = Arbitraries.integers().between(0, 9999).map(String::valueOf);
        // Four or more numbers in a row can be a card written in groups (4-4-4-1 passes Luhn one time in ten): that is not plain prose.
        return Arbitraries.oneOf(word, word, word, number, Arbitraries.of("Invoice", "Meeting", "at", "12:30", "v2.1", "README.md"))
                .list().ofMinSize(1).ofMaxSize(8).filter(l -> !numbersInARow(l, 4)).map(l -> String.join(" ", l));
    }

    private static boolean numbersInARow(java.util.List<String> words, int n) {
        int run = 0;
        for (String w : words) {
            run = w.matches("\\d+") ? run + 1 : 0;
            if (run >= n) {
                return true;
            }
        }
        return false;
    }

    @Provide
    Arbitrary<String> cards() {
        return Combinators.combine(Arbitraries.of("4", "51", "37", "6011"), Arbitraries.integers().between(13, 16),
                Arbitraries.strings().numeric().ofLength(18), Arbitraries.of("", " ", "-")).as((prefix, len, body, sep) -> {
                    String raw = (prefix + body).substring(0, len - 1);
                    String digits = raw + luhnDigit(raw);
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < digits.length(); i++) {
                        if (i > 0 && i % 4 == 0) {
                            sb.append(sep);
                        }
                        sb.append(digits.charAt(i));
                    }
                    return sb.toString();
                }).filter(c -> c.replaceAll("\\D", "").chars().distinct().count() > 1);
    }

    static int luhnDigit(String payload) {
        for (int d = 0; d < 10; d++) {
            if (Redactor.luhn(payload + d)) {
                return d;
            }
        }
        throw new IllegalStateException();
    }

    @Provide
    Arbitrary<String> ibans() {
        return Combinators.combine(Arbitraries.of("DE", "FR", "GB", "NL", "ES", "IT"), Arbitraries.strings().numeric().ofLength(18),
                Arbitraries.of(true, false)).as((country, bban, spaced) -> {
                    String check = checkDigits(country, bban);
                    String compact = country + check + bban;
                    return spaced ? compact.replaceAll("(.{4})(?!$)", "$1 ") : compact;
                });
    }

    static String checkDigits(String country, String bban) {
        StringBuilder d = new StringBuilder(bban);
        for (char c : (country + "00").toCharArray()) {
            d.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        int check = 98 - new BigInteger(d.toString()).mod(BigInteger.valueOf(97)).intValue();
        return String.format("%02d", check);
    }

    @Provide
    Arbitrary<String> keys() {
        Arbitrary<String> alnum = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9').ofLength(36);
        Arbitrary<String> upper = Arbitraries.strings().withCharRange('A', 'Z').withCharRange('0', '9').ofLength(16);
        return Arbitraries.oneOf(alnum.map(s -> "sk-" + s), alnum.map(s -> "ghp_" + s), upper.map(s -> "AKIA" + s),
                alnum.map(s -> "xoxp-" + s.substring(0, 12) + "-" + s.substring(12)));
    }

    @Provide
    Arbitrary<String> emails() {
        Arbitrary<String> part = Arbitraries.strings().withCharRange('a', 'z').withChars('.', '_', '1').ofMinLength(1).ofMaxLength(12)
                .filter(s -> Character.isLetter(s.charAt(0)) && Character.isLetter(s.charAt(s.length() - 1)));
        return Combinators.combine(part, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(2).ofMaxLength(10),
                Arbitraries.of("com", "org", "io", "de", "co.uk")).as((u, d, tld) -> u + "@" + d + "." + tld);
    }

    @Provide
    Arbitrary<String> mixed() {
        return Arbitraries.oneOf(prose(), cards(), ibans(), keys(), emails()).list().ofMinSize(1).ofMaxSize(6).map(l -> String.join(" ", l));
    }
}
