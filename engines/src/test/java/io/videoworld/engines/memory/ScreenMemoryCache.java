package io.videoworld.engines.memory;

import com.fasterxml.jackson.core.type.TypeReference;
import io.videoworld.core.Json;
import io.videoworld.testkit.DesktopSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Tuning aid: what {@link ScreenMemoryRun#perceive} saw of a session, kept as JSON under
 * {@code vw.eval.cache} so that changes to the batcher, the policy or the writer can be measured
 * in seconds instead of re-reading every keyframe. Only for runs that change nothing upstream of
 * the memory (shot detection, OCR); the held-out run in CI never uses it.
 */
final class ScreenMemoryCache {
    private final Path dir;

    ScreenMemoryCache(String dir) {
        this.dir = dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /** The cached ticks of {@code key}, else perceives them (and keeps them when a cache is set). */
    List<ScreenMemoryRun.Tick> ticks(String key, Perceive perceive) throws IOException {
        Path file = dir == null ? null : dir.resolve(key + ".json");
        if (file != null && Files.exists(file)) {
            return Json.MAPPER.readValue(file.toFile(), new TypeReference<List<ScreenMemoryRun.Tick>>() {});
        }
        List<ScreenMemoryRun.Tick> ticks = perceive.get();
        if (file != null) {
            Files.createDirectories(dir);
            Json.MAPPER.writeValue(file.toFile(), ticks);
        }
        return ticks;
    }

    /** The cached session (its truth; the frames stay beside it), else writes it (and keeps it when a cache is set). */
    DesktopSession.Session session(String key, Render render) throws IOException {
        Path file = dir == null ? null : dir.resolve(key + "-truth.json");
        if (file != null && Files.exists(file)) {
            return Json.MAPPER.readValue(file.toFile(), DesktopSession.Session.class);
        }
        DesktopSession.Session s = render.get(dir == null ? null : dir.resolve(key));
        if (file != null) {
            Json.MAPPER.writeValue(file.toFile(), s);
        }
        return s;
    }

    /** The slow half, run when nothing is cached. */
    interface Perceive {
        List<ScreenMemoryRun.Tick> get() throws IOException;
    }

    /** Renders a session into {@code folder} (null: a folder of the caller's). */
    interface Render {
        DesktopSession.Session get(Path folder) throws IOException;
    }
}
