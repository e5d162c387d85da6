package io.videoworld.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameBatchCodecTest {
    private static final byte[] RED = JpegSamples.solid(64, 36, Color.RED);
    private static final byte[] BLUE = JpegSamples.solid(64, 36, Color.BLUE);
    private static final SourceInfo INFO = new SourceInfo(25, 60_000L, 1500L, "mpeg4", false, 0, 0, 1_234L, 900L, 640, 360, 25);

    private static FrameBatch batch(List<Frame> frames) {
        return new FrameBatch("lobby-cam", SourceKind.VIDEO, "/videos/lobby.mp4", 3, 1_700_000_000_000L, INFO, frames);
    }

    @Test
    void aBatchSurvivesTheRoundTripWithItsPixelsIntact() throws Exception {
        FrameBatch original = batch(List.of(new Frame(75, 3000, null, 64, 36, RED), new Frame(76, 3040, null, 64, 36, BLUE)));
        FrameBatch decoded = FrameBatchCodec.decode(FrameBatchCodec.encode(original));
        assertThat(decoded).isEqualTo(original);
        assertThat(decoded.frames().get(1).jpeg()).isEqualTo(BLUE);
        assertThat(decoded.eventTimeMs()).isEqualTo(1_700_000_003_000L);
    }

    @Test
    void screenshotsTakeTheirEventTimeFromTheCaptureClock() throws Exception {
        FrameBatch screens = new FrameBatch("desk", SourceKind.SCREEN, "/shots", 0, 5, INFO,
                List.of(new Frame(0, 0, 1_700_000_123_456L, 64, 36, RED)));
        assertThat(FrameBatchCodec.decode(FrameBatchCodec.encode(screens)).eventTimeMs()).isEqualTo(1_700_000_123_456L);
    }

    @Test
    void theBinaryFormatCostsFarLessThanBase64Json() throws Exception {
        FrameBatch b = batch(List.of(new Frame(0, 0, null, 64, 36, RED)));
        int encoded = FrameBatchCodec.encode(b).length;
        int base64Json = Json.MAPPER.writeValueAsBytes(b).length;
        assertThat(encoded).isLessThan(RED.length + 400).isLessThan(base64Json);
    }

    @Test
    void bytesThatAreNotABatchAreRejectedWithTheReason() {
        assertThatThrownBy(() -> FrameBatchCodec.decode("hello, world".getBytes()))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("bad magic");
        assertThatThrownBy(() -> FrameBatchCodec.decode(new byte[] {'V'}))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("too short");
    }

    @Test
    void aNewerWireVersionIsRejectedRatherThanMisread() {
        byte[] bytes = FrameBatchCodec.encode(batch(List.of(new Frame(0, 0, null, 64, 36, RED))));
        bytes[2] = 9;
        assertThatThrownBy(() -> FrameBatchCodec.decode(bytes)).hasMessageContaining("unsupported wire version 9");
    }

    @Test
    void aTruncatedBodyIsUndecodable() {
        byte[] bytes = FrameBatchCodec.encode(batch(List.of(new Frame(0, 0, null, 64, 36, RED))));
        assertThatThrownBy(() -> FrameBatchCodec.decode(Arrays.copyOf(bytes, bytes.length / 2)))
                .hasMessageContaining("undecodable CBOR");
    }

    @Test
    void anEmptyBatchIsRejected() {
        assertThatThrownBy(() -> FrameBatchCodec.decode(FrameBatchCodec.encode(batch(List.of()))))
                .hasMessageContaining("empty batch");
    }

    @Test
    void aCorruptJpegIsRejectedNamingTheFrame() {
        byte[] cut = Arrays.copyOf(RED, RED.length - 40);
        assertThatThrownBy(() -> FrameBatchCodec.decode(FrameBatchCodec.encode(batch(List.of(new Frame(7, 0, null, 64, 36, cut))))))
                .hasMessageContaining("frame 7: corrupt JPEG");
    }

    @Test
    void aJpegOfAnotherSizeThanStatedIsRejected() {
        assertThatThrownBy(() -> FrameBatchCodec.decode(FrameBatchCodec.encode(batch(List.of(new Frame(0, 0, null, 640, 360, RED))))))
                .hasMessageContaining("JPEG is 64x36 but the batch says 640x360");
    }

    @Test
    void anUnsafeStreamIdIsRejected() {
        FrameBatch b = new FrameBatch("../etc", SourceKind.VIDEO, "x", 0, 0, INFO, List.of(new Frame(0, 0, null, 64, 36, RED)));
        assertThatThrownBy(() -> FrameBatchCodec.decode(FrameBatchCodec.encode(b))).hasMessageContaining("stream id '../etc'");
    }

    @Test
    void framesGoingBackInTimeAreRejected() {
        FrameBatch b = batch(List.of(new Frame(0, 500, null, 64, 36, RED), new Frame(1, 100, null, 64, 36, RED)));
        assertThatThrownBy(() -> FrameBatchCodec.decode(FrameBatchCodec.encode(b))).hasMessageContaining("goes backwards");
    }

    @Test
    void theLimitsAreConfigurable() throws Exception {
        byte[] bytes = FrameBatchCodec.encode(new FrameBatch("lobby-cam", SourceKind.VIDEO, "/videos/lobby.mp4", 3, 1_700_000_000_000L, null,
                List.of(new Frame(0, 0, null, 64, 36, RED))));
        assertThat(FrameBatchCodec.decode(bytes, FrameLimits.DEFAULT).frames()).hasSize(1);
        assertThatThrownBy(() -> FrameBatchCodec.decode(bytes, new FrameLimits(32, 10_000, 10, 100)))
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("outside 1-32 pixels a side");
        assertThatThrownBy(() -> FrameBatchCodec.decode(bytes, new FrameLimits(100, 2000, 10, 100)))
                .hasMessageContaining("more than 2000 pixels");
    }
}
