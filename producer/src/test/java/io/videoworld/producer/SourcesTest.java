package io.videoworld.producer;

import io.videoworld.media.video.AudioOnlySource;
import io.videoworld.media.video.FrameSource;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.ScreenshotFolderSource;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.core.JpegInfo;
import io.videoworld.core.SourceKind;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesTest {
    @TempDir
    Path tmp;

    private static List<SourceFrame> drain(FrameSource s) throws IOException {
        List<SourceFrame> out = new ArrayList<>();
        SourceFrame f;
        while ((f = s.next()) != null) {
            out.add(f);
        }
        return out;
    }

    @Test
    void aVideoIsSampledAtTheRequestedRateAndResized() throws Exception {
        Path video = tmp.resolve("clip.mp4");
        SampleVideo.write(video, 640, 360, 25, 2.0, List.of(1.0));
        try (VideoFrameSource s = new VideoFrameSource(video.toString(), 5, new JpegEncoder(320, 80))) {
            assertThat(s.kind()).isEqualTo(SourceKind.VIDEO);
            assertThat(s.info().fps()).isEqualTo(25.0);
            assertThat(s.info().durationMs()).isEqualTo(2000);
            assertThat(s.info().codec()).isEqualTo("mpeg4");
            assertThat(s.info().width()).isEqualTo(640);
            assertThat(s.expectedFrames()).isEqualTo(10);
            List<SourceFrame> frames = drain(s);
            assertThat(frames).extracting(SourceFrame::ptsMs)
                    .containsExactly(0L, 200L, 400L, 600L, 800L, 1000L, 1200L, 1400L, 1600L, 1800L);
            assertThat(JpegInfo.parse(frames.get(0).jpeg())).isEqualTo(new JpegInfo(320, 180));
        }
    }

    @Test
    void withoutARateEveryFrameIsKept() throws Exception {
        Path video = tmp.resolve("clip.mp4");
        SampleVideo.write(video, 320, 180, 25, 1.0, List.of());
        try (VideoFrameSource s = new VideoFrameSource(video.toString(), 0, new JpegEncoder(0, 80))) {
            assertThat(drain(s)).hasSize(25);
        }
    }

    @Test
    void encodingOnWorkerThreadsDeliversTheSameFramesInOrder() throws Exception {
        Path video = tmp.resolve("clip.mp4");
        SampleVideo.write(video, 640, 360, 25, 3.0, List.of(1.0, 2.0));
        List<SourceFrame> inline;
        try (VideoFrameSource s = new VideoFrameSource(video.toString(), 10, new JpegEncoder(320, 85), 0)) {
            inline = drain(s);
        }
        // 10 of 25 frames a second: each within half a source frame of its 100 ms slot.
        assertThat(inline).hasSize(30);
        for (int i = 0; i < inline.size(); i++) {
            assertThat(inline.get(i).ptsMs()).isBetween(i * 100L - 20, i * 100L + 20);
        }
        for (int threads : new int[] {1, 3}) {
            try (VideoFrameSource s = new VideoFrameSource(video.toString(), 10, new JpegEncoder(320, 85), threads)) {
                List<SourceFrame> pooled = drain(s);
                assertThat(pooled).hasSize(30).hasSameSizeAs(inline);
                for (int i = 0; i < inline.size(); i++) {
                    // Same bytes in the same order: the thumbnail feeds shot detection, the JPEG everything else.
                    assertThat(pooled.get(i).ptsMs()).isEqualTo(inline.get(i).ptsMs());
                    assertThat(pooled.get(i).jpeg()).isEqualTo(inline.get(i).jpeg());
                    assertThat(pooled.get(i).thumb()).isEqualTo(inline.get(i).thumb());
                }
                assertThat(s.next()).isNull();
            }
        }
    }

    @Test
    void aLargerVideoScaledInTheDecoderLooksLikeOneResizedAfterwards() throws Exception {
        Path video = tmp.resolve("hd.mp4");
        SampleVideo.write(video, 1280, 720, 25, 1.0, List.of(0.5));
        List<SourceFrame> resized;
        List<SourceFrame> scaled;
        try (VideoFrameSource s = new VideoFrameSource(video.toString(), 5, new JpegEncoder(640, 85), 0, false)) {
            resized = drain(s);
        }
        try (VideoFrameSource s = new VideoFrameSource(video.toString(), 5, new JpegEncoder(640, 85), 2, true)) {
            assertThat(s.info().width()).isEqualTo(1280);
            assertThat(s.info().height()).isEqualTo(720);
            scaled = drain(s);
        }
        assertThat(scaled).hasSameSizeAs(resized).hasSize(5);
        for (int i = 0; i < scaled.size(); i++) {
            assertThat(JpegInfo.parse(scaled.get(i).jpeg())).isEqualTo(new JpegInfo(640, 360));
            assertThat(JpegInfo.parse(scaled.get(i).thumb())).isEqualTo(JpegInfo.parse(resized.get(i).thumb()));
            // Both are area filters: the pictures differ by rounding, far below what tells shots apart.
            assertThat(meanAbsDiff(scaled.get(i).jpeg(), resized.get(i).jpeg())).isLessThan(2.0);
            assertThat(meanAbsDiff(scaled.get(i).thumb(), resized.get(i).thumb())).isLessThan(2.0);
        }
    }

    private static double meanAbsDiff(byte[] jpegA, byte[] jpegB) throws IOException {
        BufferedImage a = ImageIO.read(new java.io.ByteArrayInputStream(jpegA));
        BufferedImage b = ImageIO.read(new java.io.ByteArrayInputStream(jpegB));
        long sum = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                int p = a.getRGB(x, y);
                int q = b.getRGB(x, y);
                for (int shift = 0; shift < 24; shift += 8) {
                    sum += Math.abs(((p >> shift) & 0xFF) - ((q >> shift) & 0xFF));
                }
            }
        }
        return sum / (3.0 * a.getWidth() * a.getHeight());
    }

    @Test
    void aVideoClosedMidwayReleasesItsEncoders() throws Exception {
        Path video = tmp.resolve("clip.mp4");
        SampleVideo.write(video, 320, 180, 25, 2.0, List.of());
        long before = encoderThreads();
        for (int i = 0; i < 3; i++) {
            try (VideoFrameSource s = new VideoFrameSource(video.toString(), 0, new JpegEncoder(0, 80), 2)) {
                assertThat(s.next().ptsMs()).isZero();
                assertThat(s.next().ptsMs()).isEqualTo(40);
            }
        }
        // Worker threads end once their pool is shut down and idle.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (encoderThreads() > before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(encoderThreads()).isEqualTo(before);
        assertThatThrownBy(() -> new VideoFrameSource(video.toString(), 0, new JpegEncoder(0, 80), -1))
                .hasMessageContaining("encode threads");
    }

    private static long encoderThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("vw-push-encode-")).count();
    }

    @Test
    void aMissingOrUnreadableVideoIsAClearError() throws Exception {
        assertThatThrownBy(() -> new VideoFrameSource(tmp.resolve("nope.mp4").toString(), 0, new JpegEncoder(0, 80)))
                .hasMessageContaining("no such video file");
        Path junk = Files.writeString(tmp.resolve("junk.mp4"), "not a video");
        assertThatThrownBy(() -> new VideoFrameSource(junk.toString(), 0, new JpegEncoder(0, 80)))
                .hasMessageContaining("cannot open video");
    }

    private void png(Path file, Color c, long mtime) throws IOException {
        BufferedImage img = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(c);
        g.fillRect(0, 0, 200, 100);
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
        Files.setLastModifiedTime(file, FileTime.fromMillis(mtime));
    }

    @Test
    void screenshotsSortedByModificationTimeKeepTheirCaptureTimes() throws Exception {
        png(tmp.resolve("b.png"), Color.RED, 1_700_000_000_000L);
        png(tmp.resolve("a.png"), Color.BLUE, 1_700_000_002_500L);
        Files.writeString(tmp.resolve("notes.txt"), "ignored");
        try (ScreenshotFolderSource s = new ScreenshotFolderSource(tmp, ScreenshotFolderSource.Order.MTIME, 1, 0, new JpegEncoder(100, 80))) {
            List<SourceFrame> frames = drain(s);
            assertThat(frames).extracting(SourceFrame::captureTimeMs).containsExactly(1_700_000_000_000L, 1_700_000_002_500L);
            assertThat(frames).extracting(SourceFrame::ptsMs).containsExactly(0L, 2500L);
            assertThat(frames.get(0).width()).isEqualTo(100);
            assertThat(s.info().codec()).isEqualTo("png");
        }
    }

    @Test
    void screenshotsSortedByNameAreSpacedAtTheRate() throws Exception {
        png(tmp.resolve("002.png"), Color.RED, 5);
        png(tmp.resolve("001.png"), Color.BLUE, 9);
        try (ScreenshotFolderSource s = new ScreenshotFolderSource(tmp, ScreenshotFolderSource.Order.NAME, 2, 1000, new JpegEncoder(0, 80))) {
            assertThat(drain(s)).extracting(SourceFrame::ptsMs, SourceFrame::captureTimeMs)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 1000L), org.assertj.core.groups.Tuple.tuple(500L, 1500L));
        }
    }

    @Test
    void anEmptyFolderIsAClearError() {
        assertThatThrownBy(() -> new ScreenshotFolderSource(tmp, ScreenshotFolderSource.Order.NAME, 1, 0, new JpegEncoder(0, 80)))
                .hasMessageContaining("no .png/.jpg/.jpeg files");
    }

    @Test
    void theCliExitsNonZeroWithOneLineForABadPath() {
        StringWriter err = new StringWriter();
        int code = VideoWorldCli.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true),
                "push", tmp.resolve("missing.mp4").toString(), "--bootstrap", "127.0.0.1:1");
        assertThat(code).isNotZero();
        assertThat(err.toString()).startsWith("videoworld: no such video file").doesNotContain("\tat ");
    }

    /** Two and a half seconds of a 440 Hz tone as a 16 kHz mono WAV file: sound with no pictures. */
    private Path tone() throws IOException {
        int rate = 16_000;
        byte[] pcm = new byte[rate * 5 / 2 * 2];
        for (int i = 0; i < pcm.length / 2; i++) {
            short v = (short) (8000 * Math.sin(2 * Math.PI * 440 * i / rate));
            pcm[2 * i] = (byte) v;
            pcm[2 * i + 1] = (byte) (v >> 8);
        }
        Path wav = tmp.resolve("tone.wav");
        javax.sound.sampled.AudioFormat format = new javax.sound.sampled.AudioFormat(rate, 16, 1, true, false);
        javax.sound.sampled.AudioSystem.write(new javax.sound.sampled.AudioInputStream(new java.io.ByteArrayInputStream(pcm), format,
                pcm.length / 2), javax.sound.sampled.AudioFileFormat.Type.WAVE, wav.toFile());
        return wav;
    }

    @Test
    void aFileWithSoundOnlyGivesOneBlackFrameASecondForItsLength() throws Exception {
        Path wav = tone();
        assertThat(AudioOnlySource.isSoundOnly(wav.toString())).isTrue();
        Path video = tmp.resolve("v.mp4");
        SampleVideo.write(video, 160, 90, 10, 1.0, List.of());
        assertThat(AudioOnlySource.isSoundOnly(video.toString())).as("a video has pictures").isFalse();
        assertThat(AudioOnlySource.isSoundOnly(Files.writeString(tmp.resolve("junk.wav"), "not sound").toString())).isFalse();
        try (AudioOnlySource s = new AudioOnlySource(wav.toString())) {
            List<SourceFrame> frames = drain(s);
            assertThat(frames).extracting(SourceFrame::ptsMs).containsExactly(0L, 1000L, 2000L);
            assertThat(s.expectedFrames()).isEqualTo(3);
            assertThat(s.info().durationMs()).isBetween(2400L, 2600L);
            assertThat(s.info().hasAudio()).isTrue();
            assertThat(s.info().codec()).contains("audio only");
            assertThat(JpegInfo.parse(frames.get(0).jpeg()).width()).isEqualTo(frames.get(0).width());
        }
        assertThatThrownBy(() -> new AudioOnlySource(video.toString())).hasMessageContaining("no audio stream");
    }

    @Test
    void theCliAsksForAudioWhenAFileHasSoundOnly() throws Exception {
        StringWriter err = new StringWriter();
        int code = VideoWorldCli.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "push", tone().toString(),
                "--bootstrap", "127.0.0.1:1");
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("has sound but no pictures: push it with --audio");
    }

    @Test
    void theCliRejectsABadOption() {
        StringWriter err = new StringWriter();
        int code = VideoWorldCli.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "push", "x", "--jpeg-quality", "0");
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("--jpeg-quality");
    }

    @Test
    void streamIdsAreDerivedFromNamesIntoTheSafeAlphabet() {
        assertThat(PushCommand.defaultStreamId("/videos/My Holiday (2024).mp4")).isEqualTo("My-Holiday--2024-");
        assertThat(PushCommand.defaultStreamId("/shots/desk/")).isEqualTo("desk");
        assertThat(PushCommand.defaultStreamId("rtsp://cam.local:554/live.sdp")).isEqualTo("live");
    }
}
