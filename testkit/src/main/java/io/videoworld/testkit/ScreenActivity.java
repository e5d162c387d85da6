package io.videoworld.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Realistic screen-activity streams for episodic-memory evaluation: six kinds of application
 * pages (document, mail, code editor, spreadsheet, video player, chat) rendered by Debian's
 * headless Chromium into 1280x800 screenshots at 1 fps, with scrolling, typing, idle stretches,
 * app switches and returns to an earlier app, plus the ground-truth activity intervals.
 * File names are the frame numbers; modification times are the capture times.
 */
public final class ScreenActivity {
    /** One activity in the truth: an app used from {@code start} (inclusive) to {@code end} (exclusive), in seconds. */
    public record Activity(String app, int start, int end) {}

    /** The written folder and its truth. */
    public record Stream(Path folder, List<Activity> truth, int frames) {}

    static final List<String> APPS = List.of("doc", "mail", "code", "sheet", "video", "chat");

    private ScreenActivity() {}

    /** Writes {@code seconds} screenshots; the same seed gives the same activities. */
    public static Stream write(Path folder, long seed, int seconds, long epochMs) throws IOException {
        Files.createDirectories(folder);
        Random rnd = new Random(seed);
        List<Activity> truth = new ArrayList<>();
        List<String> used = new ArrayList<>();
        int t = 0;
        while (t < seconds) {
            String app;
            if (used.size() >= 3 && rnd.nextInt(3) == 0) {
                String current = used.get(used.size() - 1);
                do {
                    app = used.get(rnd.nextInt(used.size() - 1)); // back to an earlier app, never the current one
                } while (app.equals(current));
            } else {
                String previous = used.isEmpty() ? null : used.get(used.size() - 1);
                do {
                    app = APPS.get(rnd.nextInt(APPS.size()));
                } while (app.equals(previous));
            }
            int length = Math.min(seconds - t, 8 + rnd.nextInt(13));
            truth.add(new Activity(app, t, t + length));
            used.add(app);
            t += length;
        }
        Path html = Files.createTempFile("vw-apps", ".html");
        try (InputStream in = ScreenActivity.class.getResourceAsStream("/screens/apps.html")) {
            Files.writeString(html, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        ChromeDriver browser = browser(Files.createTempDirectory("vw-chromium"));
        try {
            browser.manage().window().setSize(new Dimension(1280, 800));
            browser.get(html.toUri().toString());
            int frame = 0;
            for (Activity a : truth) {
                int scroll = 0;
                StringBuilder typed = new StringBuilder();
                String mode = List.of("scroll", "type", "idle").get(rnd.nextInt(3));
                for (int s = a.start(); s < a.end(); s++, frame++) {
                    if ("scroll".equals(mode)) {
                        scroll += 40 + rnd.nextInt(80);
                    } else if ("type".equals(mode)) {
                        typed.append("note ").append(s).append(' ');
                    }
                    ((JavascriptExecutor) browser).executeScript("show(arguments[0], arguments[1], arguments[2], arguments[3])",
                            a.app(), scroll, typed.toString(), s);
                    Path png = folder.resolve(String.format("%05d.png", frame));
                    Files.write(png, browser.getScreenshotAs(OutputType.BYTES));
                    Files.setLastModifiedTime(png, FileTime.fromMillis(epochMs + s * 1000L));
                }
            }
            return new Stream(folder, List.copyOf(truth), frame);
        } finally {
            browser.quit();
            Files.deleteIfExists(html);
        }
    }

    static ChromeDriver browser(Path profile) {
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
