package io.videoworld.operators.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Screens reach the detection branch only when asked; videos always do. */
class DetectableStreamsTest {
    private static FrameBatch batch(SourceKind kind) {
        SourceInfo live = new SourceInfo(1, null, null, "jpeg", false, 0, 0, null, null, 1280, 800, 1);
        return new FrameBatch(kind.wireName(), kind, "test:" + kind.wireName(), 0, 1_000L, live, List.of(new Frame(0, 0, null, 1280, 800, new byte[] {1})));
    }

    @Test
    void screensAreLeftToPerceptionByDefault() {
        DetectableStreams detect = new DetectableStreams(false);
        assertThat(detect.filter(batch(SourceKind.SCREEN))).isFalse();
        assertThat(detect.filter(batch(SourceKind.VIDEO))).isTrue();
    }

    @Test
    void screensAreDetectedWhenAskedFor() {
        DetectableStreams detect = new DetectableStreams(true);
        assertThat(detect.filter(batch(SourceKind.SCREEN))).isTrue();
        assertThat(detect.filter(batch(SourceKind.VIDEO))).isTrue();
    }
}
