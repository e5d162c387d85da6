package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bytedeco.opencv.global.opencv_core.CV_8UC3;
import static org.bytedeco.opencv.global.opencv_imgproc.putText;
import static org.bytedeco.opencv.global.opencv_imgproc.rectangle;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Point;
import org.bytedeco.opencv.opencv_core.Rect;
import org.bytedeco.opencv.opencv_core.Scalar;
import org.junit.jupiter.api.Test;

/**
 * Screens cut where the application or task changes, not on pixel statistics: two applications
 * with the same white page and only a different title bar are two shots; scrolling a long page,
 * typing, an idle screen and a video playing inside a player are not boundaries.
 */
class ScreenShotsTest {
    private static final SourceInfo INFO = new SourceInfo(1, null, null, "png", false, 0, 0, null, null, 1280, 800, 1);

    /** An application window: title bar colour, page colour and ink, what the page shows. */
    record App(String name, Scalar bar, Scalar page, Scalar ink, String kind) {}

    static final App DOC = new App("Report draft.odt - Writer", new Scalar(151, 87, 43, 0), new Scalar(255, 255, 255, 0),
            new Scalar(34, 34, 34, 0), "text");
    static final App SHEET = new App("Sales Q3.xlsx - Spreadsheet", new Scalar(70, 115, 33, 0), new Scalar(255, 255, 255, 0),
            new Scalar(17, 17, 17, 0), "grid");
    static final App MAIL = new App("Inbox - Mail", new Scalar(189, 108, 15, 0), new Scalar(251, 247, 245, 0),
            new Scalar(27, 27, 27, 0), "text");
    static final App VIDEO = new App("Keynote - Video Player", new Scalar(43, 48, 196, 0), new Scalar(15, 15, 15, 0),
            new Scalar(238, 238, 238, 0), "player");
    /** A browser: the same tab strip whichever page it shows. */
    static final App BROWSER_DOC = new App("Browser", new Scalar(60, 60, 60, 0), new Scalar(255, 255, 255, 0), new Scalar(30, 30, 30, 0),
            "text");
    static final App BROWSER_VIDEO = new App("Browser", new Scalar(60, 60, 60, 0), new Scalar(255, 255, 255, 0), new Scalar(30, 30, 30, 0),
            "player");

    /** One screenshot of {@code app} scrolled by {@code scroll} pixels with {@code typed} words at the top, at second {@code s}. */
    static Frame screen(long index, App app, int scroll, int typed, int s) {
        try (Mat img = new Mat(800, 1280, CV_8UC3, app.page())) {
            int y0 = 56 + 30 - scroll;
            switch (app.kind()) {
                case "text" -> {
                    for (int line = 0; line < 60; line++) {
                        int y = y0 + line * 34;
                        if (y > 60 && y < 800) {
                            putText(img, "Section " + line + ". The quarterly plan covers hiring, budget and item " + line * 7, new Point(48, y),
                                    0, 0.7, app.ink(), 1, 8, false);
                        }
                    }
                }
                case "grid" -> {
                    for (int r = 0; r < 40; r++) {
                        for (int c = 0; c < 8; c++) {
                            int y = y0 + r * 30;
                            if (y > 56 && y < 800) {
                                rectangle(img, new Rect(48 + c * 140, y - 22, 140, 30), new Scalar(200, 200, 200, 0), 1, 8, 0);
                                putText(img, Integer.toString((r * 137 + c * 59) % 1000), new Point(58 + c * 140, y), 0, 0.6, app.ink(), 1, 8,
                                        false);
                            }
                        }
                    }
                }
                default -> {
                    double hue = (s * 7) % 180;
                    rectangle(img, new Rect(200, 90, 880, 440), hsv(hue), -1, 8, 0);
                    putText(img, "Product launch keynote", new Point(480, 580), 0, 0.8, app.ink(), 1, 8, false);
                }
            }
            for (int w = 0; w < typed; w++) {
                putText(img, "note", new Point(48 + (w % 12) * 90, 80 + (w / 12) * 24), 0, 0.6, app.ink(), 2, 8, false);
            }
            rectangle(img, new Rect(0, 0, 1280, 56), app.bar(), -1, 8, 0);
            putText(img, app.name(), new Point(24, 38), 0, 0.9, new Scalar(255, 255, 255, 0), 2, 8, false);
            SourceFrame f = new JpegEncoder(1280, 85).encode(img, s * 1000L, 1_700_000_000_000L + s * 1000L);
            return new Frame(index, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), f.jpeg(), f.thumb());
        }
    }

    private static Scalar hsv(double hue) {
        try (Mat one = new Mat(1, 1, CV_8UC3, new Scalar(hue, 200, 160, 0)); Mat bgr = new Mat()) {
            org.bytedeco.opencv.global.opencv_imgproc.cvtColor(one, bgr, org.bytedeco.opencv.global.opencv_imgproc.COLOR_HSV2BGR);
            byte[] px = new byte[3];
            bgr.data().get(px);
            return new Scalar(px[0] & 0xFF, px[1] & 0xFF, px[2] & 0xFF, 0);
        }
    }

    /** Runs a screen stream through the engine and returns the seconds at which shots start. */
    static List<Long> shotStarts(List<Frame> frames) {
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 1);
        List<Long> starts = new ArrayList<>();
        ShotTracker.Output out = ShotTracker.Output.shots(s -> starts.add(s.startPtsMs() / 1000));
        for (Frame f : frames) {
            FrameBatch b = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 1_700_000_000_000L, INFO, List.of(f));
            tracker.accept(FeatureExtractor.extract(b, f), out);
        }
        tracker.finish(out);
        return starts;
    }

    @Test
    void anApplicationSwitchCutsEvenBetweenTwoWhitePagesAndScrollingTypingAndPlayingDoNot() {
        List<Frame> frames = new ArrayList<>();
        int s = 0;
        // 0-11 s: a document scrolled a little every second.
        for (int i = 0; i < 12; i++, s++) {
            frames.add(screen(s, DOC, i * (40 + (i * 37) % 80), 0, s));
        }
        // 12-23 s: a spreadsheet (the same white page, another title bar), typed into.
        for (int i = 0; i < 12; i++, s++) {
            frames.add(screen(s, SHEET, 0, i * 3, s));
        }
        // 24-35 s: mail, idle (every screenshot the same).
        for (int i = 0; i < 12; i++, s++) {
            frames.add(screen(s, MAIL, 0, 0, s));
        }
        // 36-47 s: a video playing: a large region changes colour every second.
        for (int i = 0; i < 12; i++, s++) {
            frames.add(screen(s, VIDEO, 0, 0, s));
        }
        // 48-59 s: back to the document, scrolled fast.
        for (int i = 0; i < 12; i++, s++) {
            frames.add(screen(s, DOC, 300 + i * 110, 0, s));
        }
        assertThat(shotStarts(frames)).containsExactly(0L, 12L, 24L, 36L, 48L);
    }

    @Test
    void theSameChromeWithAnotherLayoutIsAnotherTask() {
        List<Frame> frames = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            frames.add(screen(s, s < 10 ? BROWSER_DOC : BROWSER_VIDEO, s < 10 ? s * 60 : 0, 0, s));
        }
        assertThat(shotStarts(frames)).containsExactly(0L, 10L);
    }
}
