package io.videoworld.core;

import java.util.List;
import java.util.Locale;

/**
 * What the text read on a screen says about where it is: the window title (the topmost line read
 * near the top edge, else the first line) and the application that title names. Episodes split on a
 * change of application, perception documents carry both, and screen searches filter on them, all
 * by these same rules.
 */
public final class ScreenTitles {
    private ScreenTitles() {}

    /** The window title of a frame {@code height} pixels high whose lines were read; null when nothing was read. */
    public static String title(List<TextLine> lines, int height) {
        TextLine top = null;
        for (TextLine l : lines) {
            if (l.y() < Math.max(40, height * 0.1) && (top == null || l.y() < top.y())) {
                top = l;
            }
        }
        if (top != null) {
            return top.text().trim();
        }
        return lines.isEmpty() ? null : lines.get(0).text().trim();
    }

    /**
     * The application a window title names: the part after the last dash ("Inbox - Mail" is
     * mail), or the whole title when it has none; letters and digits only, lower case, so OCR's
     * spacing does not matter ("Code Editor" and "CodeEditor" are one app).
     */
    public static String app(String title) {
        if (title == null || title.isBlank()) {
            return null;
        }
        String t = title.trim();
        int dash = Math.max(t.lastIndexOf('-'), Math.max(t.lastIndexOf('\u2013'), t.lastIndexOf('\u2014')));
        String app = (dash >= 0 && dash < t.length() - 1 ? t.substring(dash + 1) : t).replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
        return app.isEmpty() ? null : app;
    }
}
