package io.videoworld.operators.inference;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where {@code deploy/models.sh} put the models when nobody says: {@code $VW_MODELS}, else the nearest {@code .vw/models} above the working directory. */
public final class ModelDirectory {
    private ModelDirectory() {}

    public static Path locate() {
        String env = System.getenv("VW_MODELS");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve(".vw/models"))) {
            p = p.getParent();
        }
        return p == null ? Path.of(".vw/models") : p.resolve(".vw/models");
    }
}
