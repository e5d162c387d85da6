package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.core.Names;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The timeline page in Debian's headless Chromium over the kitchen camera (three shots, two
 * episodes, four tracks, detections every 5 frames): the stream list, the time axis, every lane's
 * content, episode details, a track's frame with its boxes, a search result jumping to its time, a
 * track indexed while the page is open appearing (live events), and a question showing the evidence. Screenshots go to {@code target/screenshots/}.
 * Chromium and chromedriver come from the packages `chromium` and `chromium-driver`, which
 * deploy/setup.sh installs.
 */
class TimelinePageTest {
    private static final String STREAM = "porch-cam";
    private static final long EPOCH = 1_700_000_900_000L;
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static WebDriver browser;
    private static WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        assertThat(Path.of("/usr/bin/chromium")).as("Debian's chromium package (apt-get install chromium chromium-driver)").exists();
        SnapshotStreams.indexCam(TestInfra.get().elasticsearchUrl(), tmp, STREAM, EPOCH, null);
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0);
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--disable-sync", "--window-size=1280,860", "--user-data-dir=" + Files.createTempDirectory(tmp, "chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1280, 860));
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theLanesShowTheStreamAndClicksSearchesAndQuestionsLeadToTheirFrames() throws Exception {
        browser.get("http://127.0.0.1:" + server.port() + "/timeline?stream=" + STREAM);
        wait.until(b -> b.findElements(By.cssSelector("#shots .seg img")).size() == 3 && b.findElements(By.cssSelector("#tracks .bar")).size() == 4);
        wait.until(b -> (Boolean) js("return [...document.querySelectorAll('#shots img')].every(i => i.complete && i.naturalWidth > 0)"));
        assertThat(browser.findElements(By.cssSelector("#shots .seg"))).extracting(s -> s.getDomAttribute("data-start")).containsExactly("0", "2", "4");
        assertThat(text("info")).contains(STREAM).contains("6 s");

        // The stream list, with what each stream holds.
        WebElement listed = wait.until(b -> b.findElements(By.cssSelector(".stream-item[data-id='" + STREAM + "']")).stream().findFirst().orElse(null));
        assertThat(listed.getText()).contains("3 shots · 2 episodes · 4 tracks").contains("video · ended · 150 frames");
        assertThat(listed.getDomAttribute("class")).contains("active");
        wait.until(b -> text("live").equals("● live"));

        // A time axis with ticks from 0 to the end, and scenes labelled without "shot(s)".
        List<WebElement> ticks = browser.findElements(By.cssSelector("#axis .tick"));
        assertThat(ticks).hasSizeGreaterThanOrEqualTo(5);
        assertThat(ticks.get(0).getText()).isEqualTo("0 s");
        assertThat(ticks.get(ticks.size() - 1).getText()).isEqualTo("6 s");
        assertThat(browser.findElements(By.cssSelector("#scenes .seg"))).extracting(WebElement::getText)
                .containsExactly("Scene 1 · 1 shot", "Scene 2 · 1 shot", "Scene 3 · 1 shot");
        assertThat(browser.getPageSource()).doesNotContain("shot(s)").doesNotContain("not indexed yet");

        // Episodes: their summaries in the lane, on hover, and the details on click.
        List<WebElement> episodes = browser.findElements(By.cssSelector("#episodes .seg.episode"));
        assertThat(episodes).extracting(WebElement::getText)
                .containsExactly("Someone walks across the porch towards the door", "A cup of tea is made at the kitchen counter");
        assertThat(episodes.get(1).getDomAttribute("title")).isEqualTo("2 s – 6 s: A cup of tea is made at the kitchen counter");
        episodes.get(1).click();
        wait.until(b -> text("caption").startsWith("2 s ·"));
        assertThat(text("episode-details")).isEqualTo("[details] A cup of tea is made at the kitchen counter");

        // Tracks: category and lifespan; overlapping tracks on separate rows.
        List<WebElement> tracks = browser.findElements(By.cssSelector("#tracks .bar"));
        assertThat(tracks).extracting(t -> t.getDomAttribute("data-category")).containsExactly("person", "person", "cup", "person");
        assertThat(tracks).extracting(t -> t.getDomAttribute("data-start") + "-" + t.getDomAttribute("data-end"))
                .containsExactly("0-1.8", "2-3.8", "2-3.8", "4-5.8");
        assertThat(tracks.get(2).getCssValue("top")).isNotEqualTo(tracks.get(1).getCssValue("top"));
        assertThat(tracks.get(0).getCssValue("top")).isEqualTo(tracks.get(1).getCssValue("top"));

        // A track opens the frame in its middle with the detected boxes and the track's own box.
        tracks.get(2).click();
        wait.until(b -> text("caption").contains("track " + STREAM + ":t:000003"));
        wait.until(b -> (Boolean) js("const i = document.getElementById('frame'); return i.complete && i.naturalWidth > 0"));
        assertThat(text("caption")).startsWith("2.9 s ·").contains("2 objects (precomputed)");
        assertThat(browser.findElements(By.cssSelector("#viewer .box:not(.track) span"))).extracting(WebElement::getText)
                .containsExactlyInAnyOrder("person 0.88", "cup 0.64");
        WebElement trackBox = browser.findElement(By.cssSelector("#viewer .box.track"));
        assertThat(trackBox.getText()).isEqualTo("cup #3");
        screenshot("timeline");

        // A search result jumps the playhead and the viewer to its time.
        browser.findElement(By.id("search-text")).sendKeys("cup of tea");
        browser.findElement(By.id("search")).click();
        WebElement first = wait.until(b -> b.findElements(By.cssSelector("#results .result")).stream().findFirst().orElse(null));
        assertThat(first.getText()).contains("A cup of tea is made at the kitchen counter");
        String start = first.getDomAttribute("data-start");
        assertThat(start).isEqualTo("2");
        browser.findElement(By.cssSelector("#episodes .seg.episode")).click();
        wait.until(b -> "0".equals(b.findElement(By.id("playhead")).getDomAttribute("data-time")));
        first.click();
        wait.until(b -> start.equals(b.findElement(By.id("playhead")).getDomAttribute("data-time")) && text("caption").startsWith("2 s ·"));
        // Only the frame jumped to has its boxes drawn, not those of the click before it.
        assertThat(browser.findElements(By.cssSelector("#viewer .box span"))).extracting(WebElement::getText)
                .containsExactlyInAnyOrder("person 0.88", "cup 0.64");
        screenshot("timeline-search");

        // A track indexed while the page is open arrives as a live event and the lanes are redrawn.
        try (RestClientTransport t = EsClients.transport(TestInfra.get().elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(t);
            TrackPoint a = new TrackPoint(110, 4400, 400, 200, 480, 300, 0.7);
            TrackPoint b = new TrackPoint(140, 5600, 500, 200, 580, 300, 0.7);
            TrackDoc dog = new TrackDoc(STREAM, EPOCH, 9, "dog", 640, 360, a, b, 2, 0.7, false, 0, List.of(a, b), null);
            SnapshotStreams.write(es, EsDocuments.track(dog));
            try {
                wait.until(x -> x.findElements(By.cssSelector("#tracks .bar[data-category='dog']")).size() == 1);
                assertThat(browser.findElement(By.cssSelector("#tracks .bar[data-category='dog']")).getText()).isEqualTo("dog #9");
            } finally {
                es.delete(d -> d.index(Names.TRACKS_INDEX).id(dog.id()).refresh(co.elastic.clients.elasticsearch._types.Refresh.True));
            }
        }

        browser.findElement(By.id("question")).sendKeys("When does the porch light come on?");
        browser.findElement(By.id("ask")).click();
        wait.until(b -> !b.findElements(By.cssSelector("#answer .evidence")).isEmpty());
        assertThat(text("answer-text")).contains("No LLM is configured");
        List<WebElement> rows = browser.findElements(By.cssSelector("#answer .evidence"));
        assertThat(rows).isNotEmpty();
        assertThat(rows).extracting(WebElement::getText).anyMatch(r -> r.contains(STREAM + " 2.0-4.0 s"));
    }

    @Test
    void theSpeechLaneShowsWhatWasSaidAndAFailureAndGrowsWhileLive() throws Exception {
        String talk = "porch-talk-" + Long.toString(System.nanoTime(), 36); // a new stream each run: the lane must start with these three
        long epoch = EPOCH + 1_000;
        SnapshotStreams.indexCam(TestInfra.get().elasticsearchUrl(), tmp, talk, epoch, null);
        try (RestClientTransport t = EsClients.transport(TestInfra.get().elasticsearchUrl())) {
            ElasticsearchClient c = EsClients.sync(t);
            SnapshotStreams.write(c, EsDocuments.transcript(said(talk, epoch, 300, 1_700, "good morning the kettle is on", TranscriptDoc.OK)));
            SnapshotStreams.write(c, EsDocuments.transcript(said(talk, epoch, 2_200, 3_000, null, TranscriptDoc.FAILED)));
            SnapshotStreams.write(c, EsDocuments.transcript(said(talk, epoch, 4_000, 5_600, "<b>where</b> did I leave my keys", TranscriptDoc.OK)));
            c.indices().refresh(r -> r.index(Names.TRANSCRIPTS_INDEX));
            browser.get("http://127.0.0.1:" + server.port() + "/timeline?stream=" + talk);
            wait.until(b -> b.findElements(By.cssSelector("#speech .seg.speech")).size() == 3);
            List<WebElement> lane = browser.findElements(By.cssSelector("#speech .seg.speech"));
            // Text from the world is shown as text, never as markup.
            assertThat(lane).extracting(WebElement::getText).containsExactly("good morning the kettle is on", "not recognised",
                    "<b>where</b> did I leave my keys");
            assertThat(lane.get(1).getDomAttribute("class")).contains("failed");
            assertThat(lane.get(0).getDomAttribute("title")).isEqualTo("0.3 s – 1.7 s: “good morning the kettle is on” (sphinx4:en-us)");
            lane.get(2).click();
            wait.until(b -> text("caption").startsWith("4 s ·"));
            assertThat(text("details")).contains("“<b>where</b> did I leave my keys”").contains("sphinx4:en-us");
            wait.until(b -> text("live").equals("● live"));
            screenshot("speech-lane");
            // Said while the page is open: the live event redraws the lane.
            SnapshotStreams.write(c, EsDocuments.transcript(said(talk, epoch, 5_700, 6_000, "bye", TranscriptDoc.OK)));
            wait.until(b -> b.findElements(By.cssSelector("#speech .seg.speech")).size() == 4);
        }
    }

    private static TranscriptDoc said(String stream, long epoch, long start, long end, String text, String status) {
        return new TranscriptDoc(stream, epoch, start, end, 0.9, -20, "silero-vad-v5", "sphinx4:en-us", status, text, List.of(),
                text == null ? "the recogniser timed out" : null);
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static void screenshot(String name) throws Exception {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
