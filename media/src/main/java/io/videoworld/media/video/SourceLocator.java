package io.videoworld.media.video;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where this process opens a stream's source, from the URI the producer recorded: {@code file://}
 * URIs (and the plain paths older producers recorded) as local files, {@code http(s)://} URLs through
 * FFmpeg. On a cluster the producer's disk is not the query service's, so source roots map a recorded
 * prefix to where the same files are here ({@code file:///home/ana/videos/=/mnt/videos/}, or to an
 * {@code http://} file server). Live sources (rtsp, udp, ...) cannot be sought into and are never located.
 */
public final class SourceLocator {
    /** One source root: recorded URIs starting with {@code from} are opened under {@code to}. */
    public record Root(String from, String to) {}

    private static final long URL_CHECK_MS = 30_000;

    private final List<Root> roots;
    /** http(s) URL -> when its last reachability check expires, and whether it answered. */
    private final Map<String, long[]> checked = new ConcurrentHashMap<>();

    private SourceLocator(List<Root> roots) {
        this.roots = List.copyOf(roots);
    }

    /** Sources opened where they were recorded. */
    public static SourceLocator direct() {
        return new SourceLocator(List.of());
    }

    /** Sources under the given roots, each {@code FROM=TO} (a path or URI prefix each); the first matching root wins. */
    public static SourceLocator withRoots(List<String> specs) {
        List<Root> roots = new ArrayList<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("a source root is FROM=TO (a path or URI prefix each), got '" + spec + "'");
            }
            roots.add(new Root(directory(asUri(spec.substring(0, eq))), directory(asUri(spec.substring(eq + 1)))));
        }
        return new SourceLocator(roots);
    }

    public List<Root> roots() {
        return roots;
    }

    /** The URI a producer records for a source it was given: {@code file:///abs/path} for a local file or folder, else the URL. */
    public static String recordedUri(String source) {
        return hasScheme(source) ? source : Path.of(source).toAbsolutePath().normalize().toUri().toString();
    }

    /**
     * Where FFmpeg opens the recorded source here: a readable local file's path or an http(s) URL that
     * answers; empty when neither (moved, another machine's disk without a root, a live protocol).
     */
    public Optional<String> locate(String recorded) {
        if (recorded == null || recorded.isBlank()) {
            return Optional.empty();
        }
        String uri = mapped(asUri(recorded));
        String scheme = URI.create(uri).getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("file")) {
            Path p = Path.of(URI.create(uri));
            return Files.isRegularFile(p) && Files.isReadable(p) ? Optional.of(p.toString()) : Optional.empty();
        }
        if (scheme.equals("http") || scheme.equals("https")) {
            return answers(uri) ? Optional.of(uri) : Optional.empty();
        }
        return Optional.empty();
    }

    /** The recorded source as a local file here, if it is one (subtitles beside it are read from the same folder). */
    public Optional<Path> localFile(String recorded) {
        return locate(recorded).filter(l -> !hasScheme(l)).map(Path::of);
    }

    private String mapped(String uri) {
        for (Root r : roots) {
            if (uri.startsWith(r.from())) {
                return r.to() + uri.substring(r.from().length());
            }
        }
        return uri;
    }

    private boolean answers(String url) {
        long now = System.currentTimeMillis();
        long[] known = checked.get(url);
        if (known != null && known[0] > now) {
            return known[1] == 1;
        }
        boolean ok;
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setRequestMethod("HEAD");
            c.setConnectTimeout(2000);
            c.setReadTimeout(2000);
            ok = c.getResponseCode() / 100 == 2;
            c.disconnect();
        } catch (Exception e) {
            ok = false;
        }
        checked.put(url, new long[] {now + URL_CHECK_MS, ok ? 1 : 0});
        return ok;
    }

    private static boolean hasScheme(String s) {
        return s.matches("^[A-Za-z][A-Za-z0-9+.-]+:/.*");
    }

    private static String asUri(String s) {
        if (hasScheme(s)) {
            return s;
        }
        String uri = Path.of(s).toAbsolutePath().normalize().toUri().toString();
        return s.endsWith("/") && !uri.endsWith("/") ? uri + "/" : uri;
    }

    /** A root names a folder: with a trailing slash, /videos never matches /videos2/a.mp4. */
    private static String directory(String uri) {
        return uri.endsWith("/") ? uri : uri + "/";
    }
}
