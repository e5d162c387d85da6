package io.videoworld.connectors.framestore;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Keyframes under a root URI through Flink's {@link FileSystem}: {@code s3://bucket/frames},
 * {@code hdfs://nn/frames}, {@code file:///shared/frames}, or any scheme a Flink filesystem plugin
 * serves. Object stores write a whole object at once; file systems that are not object stores write
 * a temporary file and rename it, so a reader never sees half a JPEG.
 */
public final class FlinkFileSystemFrameStore implements FrameStore {
    private final URI root;
    private transient FileSystem fs;

    public FlinkFileSystemFrameStore(URI root) {
        String s = root.toString();
        this.root = URI.create(s.endsWith("/") ? s : s + "/");
    }

    private static boolean configured;

    /**
     * Outside Flink (the query service), filesystems such as S3 need their settings: when
     * {@code $VW_FS_CONF_DIR} names a folder, its {@code config.yaml} configures Flink's FileSystem
     * once. Inside a task manager the variable is unset and Flink's own configuration and plugins apply.
     */
    private static synchronized void configureOutsideFlink() {
        String dir = System.getenv("VW_FS_CONF_DIR");
        if (configured || dir == null || dir.isBlank()) {
            return;
        }
        FileSystem.initialize(org.apache.flink.configuration.GlobalConfiguration.loadConfiguration(dir), null);
        configured = true;
    }

    private FileSystem fs() throws IOException {
        if (fs == null) {
            configureOutsideFlink();
            fs = FileSystem.get(root);
        }
        return fs;
    }

    private Path resolve(String key) {
        if (key.contains("..") || key.startsWith("/")) {
            throw new IllegalArgumentException("frame store key escapes the store: " + key);
        }
        return new Path(root.resolve(key));
    }

    @Override
    public void put(String key, byte[] jpeg) throws IOException {
        Path target = resolve(key);
        FileSystem fs = fs();
        if (fs.isDistributedFS() && !"hdfs".equals(root.getScheme())) { // object store: one PUT is atomic
            try (FSDataOutputStream out = fs.create(target, FileSystem.WriteMode.OVERWRITE)) {
                out.write(jpeg);
            }
            return;
        }
        Path tmp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        try (FSDataOutputStream out = fs.create(tmp, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(jpeg);
        }
        if (fs.exists(target)) {
            fs.delete(target, false); // replays write the same bytes
        }
        if (!fs.rename(tmp, target)) {
            fs.delete(tmp, false);
            if (!fs.exists(target)) {
                throw new IOException("could not move " + tmp + " to " + target);
            }
        }
    }

    @Override
    public void delete(String key) throws IOException {
        fs().delete(resolve(key), false);
    }

    @Override
    public void deleteStream(String streamId) throws IOException {
        Path dir = resolve(streamId);
        if (fs().exists(dir)) {
            fs().delete(dir, true);
        }
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        Path p = resolve(key);
        try (InputStream in = fs().open(p)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return Optional.of(out.toByteArray());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
