package io.videoworld.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a stream's frames come from: a video (file or live URL) or a series of screenshots. */
public enum SourceKind {
    VIDEO,
    SCREEN;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static SourceKind fromWire(String name) {
        for (SourceKind kind : values()) {
            if (kind.wireName().equalsIgnoreCase(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown source kind '" + name + "' (expected video or screen)");
    }
}
