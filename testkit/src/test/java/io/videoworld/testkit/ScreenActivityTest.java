package io.videoworld.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated screen streams are what the episodic-memory evaluation needs them to be. */
class ScreenActivityTest {
    private static final long EPOCH = 1_700_000_000_000L;
    @TempDir
    static Path tmp;
    private static ScreenActivity.Stream stream;

    @BeforeAll
    static void generate() throws Exception {
        stream = ScreenActivity.write(tmp.resolve("desk"), 42, 90, EPOCH);
    }

    private static BufferedImage frame(int i) throws Exception {
        return ImageIO.read(stream.folder().resolve(String.format("%05d.png", i)).toFile());
    }

    /** Mean absolute difference of the grey levels, 0-255, on a coarse grid. */
    private static double difference(BufferedImage a, BufferedImage b) {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < a.getHeight(); y += 8) {
            for (int x = 0; x < a.getWidth(); x += 8) {
                int p = a.getRGB(x, y);
                int q = b.getRGB(x, y);
                sum += Math.abs(((p >> 16 & 255) + (p >> 8 & 255) + (p & 255)) - ((q >> 16 & 255) + (q >> 8 & 255) + (q & 255))) / 3.0;
                n++;
            }
        }
        return sum / n;
    }

    @Test
    void oneScreenshotPerSecondWithCaptureTimesAndContiguousTruth() throws Exception {
        assertThat(stream.frames()).isEqualTo(90);
        try (var files = Files.list(stream.folder())) {
            assertThat(files.count()).isEqualTo(90);
        }
        assertThat(frame(0).getWidth()).isEqualTo(1280);
        assertThat(Files.getLastModifiedTime(stream.folder().resolve("00010.png")).toMillis()).isEqualTo(EPOCH + 10_000);
        List<ScreenActivity.Activity> truth = stream.truth();
        assertThat(truth.get(0).start()).isZero();
        assertThat(truth.get(truth.size() - 1).end()).isEqualTo(90);
        for (int i = 1; i < truth.size(); i++) {
            assertThat(truth.get(i).start()).isEqualTo(truth.get(i - 1).end());
            assertThat(truth.get(i).app()).isNotEqualTo(truth.get(i - 1).app());
        }
    }

    @Test
    void someActivityReturnsToAnEarlierApp() {
        List<String> seen = new ArrayList<>();
        boolean returned = false;
        for (ScreenActivity.Activity a : stream.truth()) {
            returned |= seen.contains(a.app());
            seen.add(a.app());
        }
        assertThat(returned).isTrue();
    }

    @Test
    void anAppSwitchChangesTheScreenFarMoreThanASecondInsideAnActivity() throws Exception {
        ScreenActivity.Activity second = stream.truth().get(1);
        double across = difference(frame(second.start() - 1), frame(second.start()));
        double within = difference(frame(second.start()), frame(second.start() + 1));
        assertThat(across).isGreaterThan(3 * within + 5);
    }
}
