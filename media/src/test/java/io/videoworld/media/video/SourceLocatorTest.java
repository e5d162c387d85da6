package io.videoworld.media.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.videoworld.core.JpegInfo;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceLocatorTest {
    @TempDir
    Path dir;

    @Test
    void localSourcesAreRecordedAsFileUrisAndOpenedFromThem() throws Exception {
        Path video = Files.createDirectories(dir.resolve("my videos")).resolve("harbour walk.mp4");
        Files.write(video, new byte[] {1});
        String recorded = SourceLocator.recordedUri(dir + "/my videos/../my videos/harbour walk.mp4");
        assertThat(recorded).isEqualTo("file://" + dir + "/my%20videos/harbour%20walk.mp4");
        assertThat(SourceLocator.direct().locate(recorded)).contains(video.toString());
        assertThat(SourceLocator.direct().locate(video.toString())).as("a plain path, as older producers recorded").contains(video.toString());
        assertThat(SourceLocator.recordedUri("https://cdn.example/a.mp4")).isEqualTo("https://cdn.example/a.mp4");
        assertThat(SourceLocator.direct().locate("file://" + dir + "/gone.mp4")).isEmpty();
        assertThat(SourceLocator.direct().locate("rtsp://cam/live")).as("live sources cannot be sought").isEmpty();
        assertThat(SourceLocator.direct().locate(null)).isEmpty();
    }

    @Test
    void sourceRootsMapAnotherMachinesPathsHere() throws Exception {
        Path here = Files.createDirectories(dir.resolve("mnt/videos/day 1"));
        Files.write(here.resolve("a.mp4"), new byte[] {1});
        Files.createDirectories(dir.resolve("mnt/videos2"));
        Files.write(dir.resolve("mnt/videos2/a.mp4"), new byte[] {1});
        SourceLocator byUri = SourceLocator.withRoots(List.of("file:///home/ana/videos=" + dir.resolve("mnt/videos")));
        assertThat(byUri.locate("file:///home/ana/videos/day%201/a.mp4")).contains(here.resolve("a.mp4").toString());
        assertThat(byUri.locate("/home/ana/videos/day 1/a.mp4")).as("a plain recorded path maps the same").contains(here.resolve("a.mp4").toString());
        assertThat(byUri.locate("file:///home/ana/videos2/a.mp4")).as("a root is a folder, not a string prefix").isEmpty();
        SourceLocator byPath = SourceLocator.withRoots(List.of("/home/ana/=" + dir.resolve("mnt") + "/"));
        assertThat(byPath.locate("file:///home/ana/videos2/a.mp4")).contains(dir.resolve("mnt/videos2/a.mp4").toString());
        assertThatThrownBy(() -> SourceLocator.withRoots(List.of("/home/ana"))).hasMessageContaining("FROM=TO");
    }

    @Test
    void httpSourcesAreDecodedThroughFfmpegWhenTheyAnswer() throws Exception {
        Path video = dir.resolve("ferry.mp4");
        SampleVideo.write(video, 320, 180, 10, 3.0, List.of(1.5));
        HttpServer http = rangeServer(video);
        try {
            String base = "http://127.0.0.1:" + http.getAddress().getPort();
            SourceLocator sources = SourceLocator.withRoots(List.of("file:///recorded/elsewhere=" + base + "/media"));
            Optional<String> located = sources.locate("file:///recorded/elsewhere/ferry.mp4");
            assertThat(located).contains(base + "/media/ferry.mp4");
            assertThat(sources.locate(base + "/media/missing.mp4")).isEmpty();
            assertThat(sources.localFile(located.get())).as("a URL is no local file").isEmpty();
            try (VideoSeeker seeker = new VideoSeeker()) {
                List<VideoSeeker.Decoded> frames = seeker.grab(located.get(), List.of(0.5, 2.0), 0);
                assertThat(frames).extracting(VideoSeeker.Decoded::ptsMs).containsExactly(500L, 2000L);
                assertThat(JpegInfo.parse(frames.get(1).frame().jpeg())).isEqualTo(new JpegInfo(320, 180));
            }
        } finally {
            http.stop(0);
        }
    }

    /** Serves one file at /media/NAME with HEAD and byte ranges, as a file server does (FFmpeg seeks with ranges). */
    private static HttpServer rangeServer(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/media/", ex -> {
            if (!ex.getRequestURI().getPath().equals("/media/" + file.getFileName())) {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
            int from = 0;
            int to = bytes.length - 1;
            String range = ex.getRequestHeaders().getFirst("Range");
            Matcher m = range == null ? null : Pattern.compile("bytes=(\\d+)-(\\d*)").matcher(range);
            boolean partial = m != null && m.matches();
            if (partial) {
                from = Integer.parseInt(m.group(1));
                to = m.group(2).isEmpty() ? to : Math.min(to, Integer.parseInt(m.group(2)));
                ex.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + bytes.length);
            }
            ex.getResponseHeaders().set("Accept-Ranges", "bytes");
            ex.getResponseHeaders().set("Content-Type", "video/mp4");
            boolean head = ex.getRequestMethod().equals("HEAD");
            ex.sendResponseHeaders(partial ? 206 : 200, head ? -1 : to - from + 1);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes, from, to - from + 1);
                } catch (java.io.IOException closedEarly) {
                    // FFmpeg drops a connection when it seeks elsewhere
                }
            }
            ex.close();
        });
        http.start();
        return http;
    }
}
