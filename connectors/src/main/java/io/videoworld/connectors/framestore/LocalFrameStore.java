package io.videoworld.connectors.framestore;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** Keyframes as files under a root directory; writes go through a temp file and a rename, so readers never see half a JPEG. */
public final class LocalFrameStore implements FrameStore {
    private final Path root;

    public LocalFrameStore(Path root) {
        this.root = root.toAbsolutePath();
    }

    private Path resolve(String key) {
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root) || key.contains("..")) {
            throw new IllegalArgumentException("frame store key escapes the store: " + key);
        }
        return p;
    }

    @Override
    public void put(String key, byte[] jpeg) throws IOException {
        Path target = resolve(key);
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), ".put-", ".tmp");
        Files.write(tmp, jpeg);
        try {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(resolve(key));
    }

    @Override
    public void deleteStream(String streamId) throws IOException {
        Path dir = resolve(streamId);
        if (!Files.isDirectory(dir) || dir.equals(root)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(resolve(key)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }
}
