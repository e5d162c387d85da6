package io.videoworld.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Reads {@code deploy/versions.env}, the one place server versions are written down. */
final class Versions {
    private Versions() {}

    /** The repository root: the nearest parent of the working directory holding {@code deploy/}. */
    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("deploy/versions.env"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find deploy/versions.env above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    static String get(String key) {
        Properties props = new Properties();
        try (var in = Files.newInputStream(repoRoot().resolve("deploy/versions.env"))) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props.getProperty(key);
    }
}
