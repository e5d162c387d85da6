package io.videoworld.bench;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.testkit.DesktopSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The stack bench's sources, made once and kept in the temp folder: a generated desktop session
 * (held-out seed 9001, rendered by headless Chromium at 1280x800, one JPEG a second) and the sample
 * video (640x360, 25 fps, with the demo's cuts) as JPEGs the producer would send.
 */
record StackSources(List<byte[]> screen, List<SourceFrame> camera) {
    static StackSources prepare(int seconds) throws Exception {
        int screenSeconds = Math.min(seconds, 240);
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "vw-stack-bench");
        Path desktop = dir.resolve("desktop-9001-" + screenSeconds);
        if (!Files.isDirectory(desktop) || count(desktop) < screenSeconds) {
            DesktopSession.write(desktop, 9001, screenSeconds, 1_700_000_000_000L);
        }
        List<byte[]> screen = new ArrayList<>();
        try (Stream<Path> files = Files.list(desktop)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".jpg")).sorted().toList()) {
                screen.add(Files.readAllBytes(p));
            }
        }
        double videoSeconds = Math.min(seconds, 120);
        Path video = dir.resolve("camera-" + (int) videoSeconds + ".mp4");
        if (!Files.exists(video)) {
            Files.createDirectories(dir);
            SampleVideo.write(video, 640, 360, 25, videoSeconds, SampleVideo.DEMO_CUTS.stream().filter(c -> c < videoSeconds).toList());
        }
        List<SourceFrame> camera = new ArrayList<>();
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 0, new JpegEncoder(640, 85))) {
            SourceFrame f;
            while ((f = src.next()) != null) {
                camera.add(f);
            }
        }
        return new StackSources(screen, camera);
    }

    private static long count(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".jpg")).count();
        }
    }
}
