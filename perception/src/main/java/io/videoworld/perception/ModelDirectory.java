package io.videoworld.perception;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code deploy/models.sh} put the models ({@code $VW_MODELS}) and {@code deploy/samples.sh}
 * the sample media ({@code $VW_SAMPLES}) when nobody says, else the nearest {@code .vw/models} or
 * {@code .vw/samples} above the working directory.
 */
public final class ModelDirectory {
    private ModelDirectory() {}

    public static Path locate() {
        return find("VW_MODELS", ".vw/models");
    }

    public static Path samples() {
        return find("VW_SAMPLES", ".vw/samples");
    }

    private static Path find(String variable, String relative) {
        String env = System.getenv(variable);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve(relative))) {
            p = p.getParent();
        }
        return p == null ? Path.of(relative) : p.resolve(relative);
    }
}
