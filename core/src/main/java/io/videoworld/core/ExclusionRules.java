package io.videoworld.core;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Rules that exclude a screen's window from perception, matched against the text of the window's
 * chrome (the rows of the frame's top band: title bar, tab strip, address bar). Written as
 * {@code app:NAME} (the application a title names, as {@link ScreenTitles#app} reads it),
 * {@code title:REGEX} (case-insensitive, found in a chrome row), {@code domain:HOST} (the host or
 * one of its subdomains in an address), {@code url:REGEX} (found in the chrome's text) or
 * {@code private} (a private or incognito browsing window). The spec is the rule's name.
 */
public final class ExclusionRules implements Serializable {
    private static final long serialVersionUID = 1L;
    /** No rules: nothing is excluded. */
    public static final ExclusionRules NONE = new ExclusionRules(List.of());
    private static final Pattern PRIVATE = Pattern.compile(
            "(?i)private\\s*brows|incognito|inprivate|private\\s*window|private\\s*tab|\\bprivate\\s*-\\s*(?:mozilla|firefox|safari)");

    /** One rule: its spec, its field and its compiled pattern (null for {@code private}). */
    private record Rule(String spec, String field, Pattern pattern, String app) implements Serializable {}

    private final List<Rule> rules;

    private ExclusionRules(List<Rule> rules) {
        this.rules = rules;
    }

    /** The rules of these specs; throws IllegalArgumentException naming a spec that is not one. */
    public static ExclusionRules parse(List<String> specs) {
        List<Rule> out = new ArrayList<>();
        for (String raw : specs) {
            String spec = raw.strip();
            if (spec.isEmpty()) {
                continue;
            }
            int colon = spec.indexOf(':');
            String field = (colon < 0 ? spec : spec.substring(0, colon)).toLowerCase(Locale.ROOT);
            String arg = colon < 0 ? "" : spec.substring(colon + 1).strip();
            switch (field) {
                case "private" -> out.add(new Rule(spec, field, PRIVATE, null));
                case "app" -> out.add(new Rule(spec, field, null, require(spec, norm(arg))));
                case "title", "url" -> out.add(new Rule(spec, field, Pattern.compile(require(spec, arg),
                        Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE), null));
                case "domain" -> out.add(new Rule(spec, field, Pattern.compile("(?i)(?<![\\w.-])(?:[\\w-]+\\.)*"
                        + Pattern.quote(require(spec, arg.toLowerCase(Locale.ROOT))) + "(?![\\w-])"), null));
                default -> throw new IllegalArgumentException("not an exclusion rule: '" + spec
                        + "' (app:NAME, title:REGEX, domain:HOST, url:REGEX or private)");
            }
        }
        return new ExclusionRules(List.copyOf(out));
    }

    private static String require(String spec, String arg) {
        if (arg.isEmpty()) {
            throw new IllegalArgumentException("exclusion rule '" + spec + "' names nothing to match");
        }
        return arg;
    }

    private static String norm(String s) {
        return s.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
    }

    /** These rules followed by {@code more}'s. */
    public ExclusionRules and(ExclusionRules more) {
        if (more.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return more;
        }
        List<Rule> all = new ArrayList<>(rules);
        all.addAll(more.rules);
        return new ExclusionRules(List.copyOf(all));
    }

    /** Whether there are no rules. */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The rules' specs, in order. */
    public List<String> specs() {
        return rules.stream().map(Rule::spec).toList();
    }

    /**
     * The first rule the chrome rows match (its spec), or null. {@code rows}: the text of the rows
     * read in the frame's top band, top first.
     */
    public String match(List<String> rows) {
        String all = String.join("\n", rows);
        for (Rule r : rules) {
            boolean hit = switch (r.field()) {
                case "app" -> rows.stream().anyMatch(row -> r.app().equals(ScreenTitles.app(row)) || r.app().equals(norm(row)));
                case "title" -> rows.stream().anyMatch(row -> r.pattern().matcher(row).find());
                default -> r.pattern().matcher(all).find();
            };
            if (hit) {
                return r.spec();
            }
        }
        return null;
    }
}
