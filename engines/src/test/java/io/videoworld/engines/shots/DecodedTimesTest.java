package io.videoworld.engines.shots;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.SmallFrameDecoder;
import io.videoworld.core.Segment;
import io.videoworld.perception.ModelDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Presentation times of a file read the way the shot bench reads it: Megamind.avi's last frame
 * has no timestamp in the file (ffprobe prints N/A), which read as 0 and closed the file's last
 * shot at 0.04 s, before it began.
 */
class DecodedTimesTest {
    private static final Path MEGAMIND = ModelDirectory.samples().resolve("Megamind.avi");

    @Test
    void everyFrameHasALaterTimeThanTheOneBefore() throws Exception {
        assertThat(MEGAMIND).as("run deploy/samples.sh first").isRegularFile();
        List<Long> pts = new ArrayList<>();
        try (SmallFrameDecoder d = new SmallFrameDecoder(MEGAMIND.toString(), FeatureExtractor.WIDTH, 0, true)) {
            SmallFrameDecoder.Picture p;
            while ((p = d.next()) != null) {
                pts.add(p.ptsMs());
            }
        }
        assertThat(pts).hasSize(270).isSorted().doesNotHaveDuplicates();
        // The last two stamped frames are at 11.178 and 11.220 s (ffprobe); the unstamped one follows a frame later.
        assertThat(pts.subList(267, 270)).containsExactly(11177L, 11219L, 11261L);
    }

    @Test
    void theLastShotEndsAfterTheLastFrame() throws Exception {
        List<Segment> shots = new ArrayList<>();
        VideoShots.detect(MEGAMIND.toString(), ShotParams.defaults(), ShotTracker.Output.shots(shots::add));
        assertThat(shots).isNotEmpty();
        for (Segment s : shots) {
            assertThat(s.endPtsMs()).as("shot from %d ms", s.startPtsMs()).isGreaterThan(s.startPtsMs());
        }
        assertThat(shots.get(shots.size() - 1).endPtsMs()).isBetween(11_261L, 11_310L);
    }
}
