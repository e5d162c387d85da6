package io.videoworld.engines.memory;

import java.util.Locale;

/** How titles are joined and compared as text: the lowest layer of the memory engine's title rules, calling none of them. */
final class TitleText {
    /** Between the title and the chrome row under it in a title. */
    static final String PARTS = " \u00a6 ";

    private TitleText() {}

    /** Letters and digits, lower case. */
    static String norm(String s) {
        return s == null ? "" : s.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
    }
}
