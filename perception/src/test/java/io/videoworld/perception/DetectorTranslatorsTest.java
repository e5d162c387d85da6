package io.videoworld.perception;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.videoworld.core.Detection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pre- and post-processing of the detector translators on arrays whose answer is known. */
class DetectorTranslatorsTest {

    @Test
    void centerNetPeaksBecomeBoxesScaledToTheFrame() {
        float[] heat = new float[128 * 128 * 80];
        float[] wh = new float[128 * 128 * 4];
        // A person peak at cell (x 32, y 64) with a plateau neighbour lower down, and a weaker car.
        heat[(64 * 128 + 32) * 80] = 0.9f;
        heat[(64 * 128 + 33) * 80] = 0.5f;
        heat[(10 * 128 + 100) * 80 + 2] = 0.4f;
        int o = (64 * 128 + 32) * 4;
        wh[o] = 20;
        wh[o + 1] = 60;
        wh[o + 2] = 24;
        wh[o + 3] = 40;
        int car = (10 * 128 + 100) * 4;
        java.util.Arrays.fill(wh, car, car + 4, 8f);
        List<Detection> out = CenterNetTranslator.decode(heat, wh, 80, 512, 1024, 256, 0.3);
        assertThat(out).extracting(Detection::category).containsExactly("person", "car");
        Detection p = out.get(0);
        // Cell 32 * stride 4 = 128 in 512-space; the frame is twice as wide and half as tall.
        assertThat(p.x1()).isCloseTo((128 - 20) * 2.0, within(1e-6));
        assertThat(p.x2()).isCloseTo((128 + 24) * 2.0, within(1e-6));
        assertThat(p.y1()).isCloseTo((256 - 60) * 0.5, within(1e-6));
        assertThat(p.y2()).isCloseTo((256 + 40) * 0.5, within(1e-6));
        assertThat(p.score()).isCloseTo(0.9, within(1e-6));
    }

    @Test
    void centerNetAtASmallerSideReadsAQuarterSizedGridAndScalesFromThatSide() {
        // 320 input: an 80x80 grid. A person peak at cell (x 20, y 40) -> (80, 160) in 320-space; a 640x360 frame.
        float[] heat = new float[80 * 80 * 80];
        float[] wh = new float[80 * 80 * 4];
        heat[(40 * 80 + 20) * 80] = 0.8f;
        int o = (40 * 80 + 20) * 4;
        wh[o] = 10;
        wh[o + 1] = 40;
        wh[o + 2] = 30;
        wh[o + 3] = 20;
        List<Detection> out = CenterNetTranslator.decode(heat, wh, 80, 320, 640, 360, 0.3);
        assertThat(out).hasSize(1);
        Detection p = out.get(0);
        assertThat(p.category()).isEqualTo("person");
        assertThat(p.x1()).isCloseTo((80 - 10) * 2.0, within(1e-6));
        assertThat(p.x2()).isCloseTo((80 + 30) * 2.0, within(1e-6));
        assertThat(p.y1()).isCloseTo((160 - 40) * 360 / 320.0, within(1e-6));
        assertThat(p.y2()).isCloseTo((160 + 20) * 360 / 320.0, within(1e-6));
    }

    @Test
    void centerNetRefusesASideTheGraphCannotTake() {
        assertThat(new CenterNetTranslator(384, 0.1).input()).isEqualTo(384);
        assertThat(new CenterNetTranslator(0.1).input()).isEqualTo(512);
        for (int side : new int[] {500, 96, 2048}) {
            assertThatThrownBy(() -> new CenterNetTranslator(side, 0.1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.valueOf(side));
        }
    }

    @Test
    void centerNetDropsScoresBelowTheFloor() {
        float[] heat = new float[128 * 128 * 80];
        heat[5] = 0.05f;
        assertThat(CenterNetTranslator.decode(heat, new float[128 * 128 * 4], 80, 512, 512, 512, 0.1)).isEmpty();
    }

    @Test
    void bilinearResizeMatchesTensorFlowsCornerAlignedSampling() {
        // 2x1 image: blue then red (BGR). Upsampled to 4x1: source x = dst * 0.5.
        DecodedImage img = new DecodedImage(2, 1, new byte[] {(byte) 255, 0, 0, 0, 0, (byte) 255});
        float[] rgb = img.rgbResized(4, 1);
        assertThat(rgb[2]).isEqualTo(255f);
        assertThat(rgb[0]).isEqualTo(0f);
        assertThat(rgb[3]).isEqualTo(127.5f);
        assertThat(rgb[5]).isEqualTo(127.5f);
        assertThat(rgb[6]).isEqualTo(255f);
        assertThat(rgb[9]).isEqualTo(255f);
    }

    @Test
    void appearanceTellsARedCoatFromABlueOne() {
        byte[] px = new byte[40 * 20 * 3];
        for (int y = 0; y < 20; y++) {
            for (int x = 0; x < 40; x++) {
                int i = (y * 40 + x) * 3;
                px[i + (x < 20 ? 2 : 0)] = (byte) 220;
            }
        }
        DecodedImage img = new DecodedImage(40, 20, px);
        float[] left = img.appearance(0, 0, 20, 20);
        float[] right = img.appearance(20, 0, 40, 20);
        float[] leftAgain = img.appearance(1, 1, 19, 19);
        assertThat(dot(left, leftAgain)).isCloseTo(1.0, within(1e-5));
        assertThat(dot(left, right)).isLessThan(0.1);
    }

    @Test
    void yoloV8LayoutIsDecodedThroughTheLetterbox() {
        List<String> names = List.of("person", "car");
        int anchors = 3;
        float[] raw = new float[(4 + 2) * anchors];
        // Anchor 1: a car centred at (320, 320) of the 640 input, 100 x 50.
        raw[1] = 320;
        raw[anchors + 1] = 320;
        raw[2 * anchors + 1] = 100;
        raw[3 * anchors + 1] = 50;
        raw[5 * anchors + 1] = 0.8f;
        raw[4 * anchors + 2] = 0.01f;
        // A 1280x720 frame letterboxed into 640: scale 0.5, 140 px of padding above and below.
        List<Detection> out = YoloTranslator.decode(raw, 6, anchors, names, 1280, 720, 640, 0.25);
        assertThat(out).hasSize(1);
        Detection car = out.get(0);
        assertThat(car.category()).isEqualTo("car");
        assertThat(car.x1()).isCloseTo((320 - 50) * 2.0, within(1e-6));
        assertThat(car.y1()).isCloseTo((320 - 25 - 140) * 2.0, within(1e-6));
        assertThat(car.y2()).isCloseTo((320 + 25 - 140) * 2.0, within(1e-6));
    }

    @Test
    void yoloV5LayoutMultipliesObjectnessAndClassScore() {
        List<String> names = List.of("person", "car");
        float[] raw = {100, 100, 20, 40, 0.5f, 0.9f, 0.1f, 200, 200, 20, 20, 0.2f, 0.9f, 0.1f};
        List<Detection> out = YoloTranslator.decode(raw, 2, 7, names, 640, 640, 640, 0.25);
        assertThat(out).hasSize(1);
        assertThat(out.get(0).score()).isCloseTo(0.45, within(1e-6));
        assertThat(out.get(0).category()).isEqualTo("person");
    }

    @Test
    void yoloOutputThatFitsNoLayoutNamesTheLabelsOption() {
        assertThatThrownBy(() -> YoloTranslator.decode(new float[10 * 9], 10, 9, List.of("a"), 10, 10, 640, 0.1))
                .hasMessageContaining("vw.detect.labels");
    }

    @Test
    void letterboxPadsWithUltralyticsGrey() {
        DecodedImage img = new DecodedImage(4, 2, new byte[4 * 2 * 3]);
        float[] chw = YoloTranslator.letterbox(img, 8);
        assertThat(chw[0]).isCloseTo(114f / 255, within(1e-6f));
        assertThat(chw[3 * 8 + 3]).isEqualTo(0f);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @Test
    void resizeForCenterNetIsTensorFlowsBilinearWithoutHalfPixelCentres() {
        java.util.Random rnd = new java.util.Random(7);
        for (int[] size : new int[][] {{640, 360}, {37, 23}, {1280, 800}}) {
            byte[] bgr = new byte[size[0] * size[1] * 3];
            rnd.nextBytes(bgr);
            DecodedImage img = new DecodedImage(size[0], size[1], bgr);
            float[] out = img.rgbResized(512, 512);
            // Written out per pixel, the definition: source = destination * scale, RGB out of BGR.
            double sx = size[0] / 512.0;
            double sy = size[1] / 512.0;
            for (int y = 0; y < 512; y += 7) {
                for (int x = 0; x < 512; x += 5) {
                    int x0 = Math.min((int) (x * sx), size[0] - 1);
                    int y0 = Math.min((int) (y * sy), size[1] - 1);
                    int x1 = Math.min(x0 + 1, size[0] - 1);
                    int y1 = Math.min(y0 + 1, size[1] - 1);
                    double dx = x * sx - x0;
                    double dy = y * sy - y0;
                    for (int c = 0; c < 3; c++) {
                        int cc = c;
                        java.util.function.BiFunction<Integer, Integer, Integer> px = (xx, yy) -> bgr[(yy * size[0] + xx) * 3 + cc] & 0xFF;
                        double top = px.apply(x0, y0) * (1 - dx) + px.apply(x1, y0) * dx;
                        double bottom = px.apply(x0, y1) * (1 - dx) + px.apply(x1, y1) * dx;
                        assertThat(out[(y * 512 + x) * 3 + 2 - c]).isEqualTo((float) (top * (1 - dy) + bottom * dy));
                    }
                }
            }
        }
    }
}
