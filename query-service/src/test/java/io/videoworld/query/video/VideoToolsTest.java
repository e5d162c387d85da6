package io.videoworld.query.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.core.Json;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VideoToolsTest {
    private static VideoDoc screens(long lastPts, long frames) {
        SourceInfo info = new SourceInfo(1, null, (long) frames, "png", false, 0, 0, null, null, 1920, 1080, 1);
        return new VideoDoc("desk", SourceKind.SCREEN, "/shots", info, 0, 0, lastPts, lastPts, frames, 1, 0, frames - 1,
                1280, 720, VideoDoc.LIVE);
    }

    @Test
    void aScreenStreamLastsUntilTheEndOfItsLastFrame() {
        assertThat(Videos.durationSeconds(screens(19_000, 20))).isEqualTo(20.0);
    }

    private static VideoDoc file(String status) {
        // A 30.03 s file at 29.97 fps whose last frame starts at 29.996 s; its last shot, closed by that frame, ends at 30.029 s.
        SourceInfo info = new SourceInfo(29.97, 30_030L, 900L, "h264", false, 0, 0, null, null, 1280, 720, 29.97);
        return new VideoDoc("clip", SourceKind.VIDEO, "/clip.mp4", info, 0, 0, 29_996, 29_996, 900, 1, 0, 899, 1280, 720, status);
    }

    @Test
    void anEndedStreamHasNoOpenSegmentAfterItsLastShot() {
        assertThat(VideoTools.openTail(file(VideoDoc.ENDED), 30.029, Videos.durationSeconds(file(VideoDoc.ENDED)))).isFalse();
        assertThat(VideoTools.openTail(file(VideoDoc.ENDED), 30.0, 30.063)).isFalse();
        // While it is live, the time indexed since the last boundary is the open shot.
        assertThat(VideoTools.openTail(file(VideoDoc.LIVE), 24.0, 30.03)).isTrue();
        assertThat(VideoTools.openTail(file(VideoDoc.LIVE), 30.03, 30.03)).isFalse();
    }

    @Test
    void aspectRatiosUseFamiliarNamesWhenClose() {
        assertThat(VideoTools.aspectRatio(1920, 1080)).isEqualTo("16:9");
        assertThat(VideoTools.aspectRatio(1366, 768)).isEqualTo("16:9");
        assertThat(VideoTools.aspectRatio(640, 480)).isEqualTo("4:3");
        assertThat(VideoTools.aspectRatio(1080, 1920)).isEqualTo("9:16");
        assertThat(VideoTools.aspectRatio(1000, 300)).isEqualTo("10:3");
        assertThat(VideoTools.aspectRatio(0, 300)).isNull();
    }

    @Test
    void argumentsNameTheFieldThatIsWrong() throws Exception {
        Args args = Args.of(Json.MAPPER.readTree("{\"video_id\": 7, \"granularity\": \"medium\"}"));
        assertThatThrownBy(() -> args.requiredString("video_id"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.field()).isEqualTo("video_id"));
        assertThatThrownBy(() -> args.optionalChoice("granularity", Set.of("coarse", "fine"), "coarse"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.field()).isEqualTo("granularity");
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("[coarse, fine]");
                });
        assertThatThrownBy(() -> Args.of(Json.MAPPER.readTree("[1, 2]"))).hasMessageContaining("JSON object");
    }
}
