package io.videoworld.core;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The marker that stands in stored text where a secret or personal datum was redacted, and the kinds a text's markers name. */
public final class Redactions {
    /** What a redaction of kind {@code k} leaves in the text: {@code [redacted:k]}. */
    public static String marker(String kind) {
        return "[redacted:" + kind + "]";
    }

    private static final Pattern MARKER = Pattern.compile("\\[redacted:([a-z]+)]");

    /** The kinds whose markers {@code text} holds, sorted; empty for null. */
    public static Set<String> kinds(String text) {
        Set<String> out = new TreeSet<>();
        if (text != null) {
            Matcher m = MARKER.matcher(text);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private Redactions() {}
}
