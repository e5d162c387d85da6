package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.testkit.KitchenCam;
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
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The timeline page in Debian's headless Chromium: it draws the stream's shots with thumbnails,
 * and asking a question shows the evidence. Chromium and chromedriver come from the packages
 * `chromium` and `chromium-driver`, which .ci/run installs.
 */
class TimelinePageTest {
    private static final String STREAM = "porch-cam";
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        assertThat(Path.of("/usr/bin/chromium")).as("Debian's chromium package (apt-get install chromium chromium-driver)").exists();
        KitchenCam.index(TestInfra.get().elasticsearchUrl(), tmp, STREAM, 1_700_000_900_000L);
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0);
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--disable-sync", "--user-data-dir=" + Files.createTempDirectory(tmp, "chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
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
    void theTimelineDrawsTheShotsAndAQuestionShowsTheEvidence() {
        browser.get("http://127.0.0.1:" + server.port() + "/timeline?stream=" + STREAM);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(b -> b.findElements(By.cssSelector("#shots .seg img")).size() == 3);
        List<WebElement> shots = browser.findElements(By.cssSelector("#shots .seg"));
        assertThat(shots).extracting(s -> s.getDomAttribute("data-start")).containsExactly("0", "2", "4");
        assertThat(browser.findElement(By.id("info")).getText()).contains(STREAM).contains("6 s");
        wait.until(b -> (Boolean) ((org.openqa.selenium.JavascriptExecutor) b).executeScript(
                "return [...document.querySelectorAll('#shots img')].every(i => i.complete && i.naturalWidth > 0)"));

        browser.findElement(By.id("question")).sendKeys("When does the porch light come on?");
        browser.findElement(By.id("ask")).click();
        wait.until(b -> !b.findElements(By.cssSelector("#answer .evidence")).isEmpty());
        assertThat(browser.findElement(By.id("answer-text")).getText()).contains("No LLM is configured");
        List<WebElement> rows = browser.findElements(By.cssSelector("#answer .evidence"));
        assertThat(rows).hasSize(3);
        assertThat(rows.get(1).getText()).contains(STREAM + " 2.0-4.0 s");
    }
}
