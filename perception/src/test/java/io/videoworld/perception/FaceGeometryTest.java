package io.videoworld.perception;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BlazeFace's anchors and decoding, the turned crops faces are seen through, and descriptor arithmetic. */
class FaceGeometryTest {
    @Test
    void anchorsAreTwoPerCellOfTheSixteenGridThenSixPerCellOfTheEightGrid() {
        double[][] a = BlazeFaceDecoder.anchors(256);
        assertThat(a).hasNumberOfRows(896);
        assertThat(a[0]).containsExactly(8, 8);
        assertThat(a[1]).containsExactly(8, 8);
        assertThat(a[2]).containsExactly(24, 8);
        assertThat(a[2 * 16]).containsExactly(8, 24);
        assertThat(a[511]).containsExactly(248, 248);
        assertThat(a[512]).containsExactly(16, 16);
        assertThat(a[517]).containsExactly(16, 16);
        assertThat(a[518]).containsExactly(48, 16);
        assertThat(a[895]).containsExactly(240, 240);
    }

    @Test
    void decodesOffsetsFromTheAnchorKeepsConfidentFacesAndDropsTheWeakerOfTwoOverlapping() {
        BlazeFaceDecoder d = new BlazeFaceDecoder(256);
        float[] raw = new float[896 * 17 + 17]; // one image after 17 numbers of something else
        java.util.Arrays.fill(raw, -10f);
        int off = 17;
        // anchor 518 is at (48, 16): a 40x50 face centred at (50, 20), eyes 10 px either side of the centre
        put(raw, off, 518, 3f, 2, 4, 40, 50);
        raw[off + 518 * 17 + 5] = -8;
        raw[off + 518 * 17 + 6] = 0;
        raw[off + 518 * 17 + 7] = 12;
        raw[off + 518 * 17 + 8] = 0;
        // anchor 519, the same cell: nearly the same box, less sure: dropped
        put(raw, off, 519, 1f, 3, 4, 40, 50);
        // anchor 0 at (8, 8): a confident small face elsewhere, kept
        put(raw, off, 0, 2f, 0, 0, 10, 10);
        // anchor 1: under the score
        put(raw, off, 1, -1f, 100, 100, 10, 10);
        List<Face> faces = d.decode(raw, off, 0.5, 0.3);
        assertThat(faces).hasSize(2);
        Face f = faces.get(0);
        assertThat(f.score()).isCloseTo(1 / (1 + Math.exp(-3)), within(1e-9));
        assertThat(new double[] {f.x1(), f.y1(), f.x2(), f.y2()}).containsExactly(30, -5, 70, 45);
        assertThat(f.x(Face.RIGHT_EYE)).isEqualTo(40);
        assertThat(f.x(Face.LEFT_EYE)).isEqualTo(60);
        assertThat(f.y(Face.LEFT_EYE)).isEqualTo(16);
        assertThat(faces.get(1).x1()).isEqualTo(3);
    }

    private static void put(float[] raw, int off, int anchor, float logit, float dx, float dy, float w, float h) {
        int o = off + anchor * 17;
        raw[o] = logit;
        raw[o + 1] = dx;
        raw[o + 2] = dy;
        raw[o + 3] = w;
        raw[o + 4] = h;
    }

    @Test
    void aTurnedCropMapsItsPixelsBackToTheFrameAndSamplesWhatLiesThere() {
        // a 4x4 frame whose pixel (x, y) has red 10x+y+1
        byte[] bgr = new byte[4 * 4 * 3];
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                bgr[(y * 4 + x) * 3 + 2] = (byte) (10 * x + y + 1);
            }
        }
        DecodedImage img = new DecodedImage(4, 4, bgr);
        FaceCrop upright = new FaceCrop(2, 2, 4, 0);
        float[] out = new float[4 * 4 * 3];
        upright.fill(img, 4, out, 0);
        assertThat(out[(1 * 4 + 3) * 3]).isEqualTo(10 * 3 + 1 + 1); // row 1, column 3 is frame (3, 1)
        // turned a quarter: the crop's first row is the frame's last column, top to bottom
        FaceCrop turned = new FaceCrop(2, 2, 4, Math.PI / 2);
        turned.fill(img, 4, out, 0);
        for (int c = 0; c < 4; c++) {
            assertThat(out[c * 3]).isCloseTo(10 * 3 + c + 1, within(1e-3f));
        }
        double[] p = turned.toFrame(4, 0, 4); // the crop's top-right corner
        assertThat(p[0]).isCloseTo(4, within(1e-9));
        assertThat(p[1]).isCloseTo(4, within(1e-9));
        assertThat(FaceCrop.around(10, 20, 30, 60)).isEqualTo(new FaceCrop(20, 40, 40, 0));
        // outside the frame is black
        new FaceCrop(-10, -10, 4, 0).fill(img, 4, out, 0);
        assertThat(out).containsOnly(0f);
    }

    @Test
    void aFaceIsAlignedByItsEyeLine() {
        double[] lm = new double[12];
        lm[0] = 40; // right eye (image left)
        lm[1] = 50;
        lm[2] = 60; // left eye, 20 px right and 20 px lower: turned 45 degrees
        lm[3] = 70;
        Face f = new Face(30, 40, 70, 90, 0.9, lm);
        FaceCrop c = f.aligned(1.5);
        assertThat(c.angle()).isCloseTo(Math.PI / 4, within(1e-9));
        assertThat(c.side()).isEqualTo(75);
        assertThat(c.cx()).isEqualTo(50);
        assertThat(c.cy()).isEqualTo(65);
    }

    @Test
    void aFaceIsPlausibleWithItsEyesApartAndItsMouthOnTheChinSideHoweverTurned() {
        // upright: eyes at (40,50) and (60,50), mouth at (50,70), in a 40 px box
        assertThat(face(40, 50, 60, 50, 50, 70).plausible()).isTrue();
        // upside down (the subject's right eye on the image's right, the mouth above): a face, aligned by half a turn
        assertThat(face(60, 50, 40, 50, 50, 30).plausible()).isTrue();
        assertThat(face(60, 50, 40, 50, 50, 30).aligned(1).angle()).isCloseTo(Math.PI, within(1e-9));
        // eyes in upright order but the mouth above them: landmarks no face has
        assertThat(face(40, 50, 60, 50, 50, 30).plausible()).isFalse();
        // the same face turned 90 degrees clockwise on screen: still a face
        assertThat(face(50, 40, 50, 60, 30, 50).plausible()).isTrue();
        // eyes a few pixels apart in a 40 px box: landmarks that collapsed
        assertThat(face(48, 50, 52, 50, 50, 70).plausible()).isFalse();
        // mouth level with the eyes
        assertThat(face(40, 50, 60, 50, 50, 51).plausible()).isFalse();
    }

    private static Face face(double rx, double ry, double lx, double ly, double mx, double my) {
        double[] lm = new double[12];
        lm[0] = rx;
        lm[1] = ry;
        lm[2] = lx;
        lm[3] = ly;
        lm[6] = mx;
        lm[7] = my;
        return new Face(30, 40, 70, 80, 0.9, lm);
    }

    @Test
    void descriptorsAreComparedByCosineAndAveragedAsUnitVectors() {
        float[] a = {3, 4};
        assertThat(FaceDescriptors.unit(a)).containsExactly(0.6f, 0.8f);
        assertThat(FaceDescriptors.unit(new float[2])).containsExactly(0f, 0f);
        assertThat(FaceDescriptors.cosine(a, new float[] {6, 8})).isCloseTo(1, within(1e-9));
        assertThat(FaceDescriptors.cosine(a, new float[] {-4, 3})).isCloseTo(0, within(1e-9));
        // a long and a short vector weigh the same: the mean of (1,0) and (0,1) whatever their lengths
        float[] m = FaceDescriptors.meanOfUnits(List.of(new float[] {100, 0}, new float[] {0, 0.5f}));
        assertThat(m[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(m[1]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
    }
}
