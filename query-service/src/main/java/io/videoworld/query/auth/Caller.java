package io.videoworld.query.auth;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Who is calling: a named token that may read the streams matching its patterns ({@code *}
 * matches any run of characters), or an admin that may read everything.
 */
public record Caller(String name, boolean admin, List<String> streams) {
    /** The caller when authentication is off. */
    public static final Caller ANYONE = new Caller("anonymous", true, List.of());

    public boolean canRead(String streamId) {
        if (admin) {
            return true;
        }
        for (String pattern : streams) {
            String regex = Pattern.quote(pattern).replace("*", "\\E.*\\Q");
            if (streamId.matches(regex)) {
                return true;
            }
        }
        return false;
    }
}
