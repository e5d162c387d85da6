package io.videoworld.engines.gates;

import io.videoworld.testkit.Screens;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.TextLine;
import io.videoworld.testkit.Screens.Screen;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.OcrEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The change gate through the real PP-OCRv4 weights: what it reads of a changed screen matches a full read. */
class ScreenGateOcrTest {
    private static OcrEngine ocr;

    @BeforeAll
    static void load() throws Exception {
        ocr = OcrEngine.load(ModelDirectory.locate());
    }

    @AfterAll
    static void close() {
        ocr.close();
    }

    private static String norm(String s) {
        return s.replaceAll("\\s+", "").toLowerCase();
    }

    /** Share of the reference's lines (whitespace aside) found among the other's, each used once. */
    static double recall(List<TextLine> reference, List<TextLine> other) {
        List<String> pool = new ArrayList<>(other.stream().map(l -> norm(l.text())).toList());
        int hit = 0;
        for (TextLine l : reference) {
            if (pool.remove(norm(l.text()))) {
                hit++;
            }
        }
        return reference.isEmpty() ? 1 : (double) hit / reference.size();
    }

    @Test
    void aScreenWhereOneLineWasTypedReadsAsAFullReadFromAFractionOfThePixels() {
        List<String> doc = Screens.document(30, 11);
        Screen before = Screens.render("Notes - Editor", doc, 0);
        List<String> typed = new ArrayList<>(doc);
        typed.set(6, doc.get(6) + " deadline friday");
        Screen after = Screens.render("Notes - Editor", typed, 0);
        ScreenGate gate = new ScreenGate(new ScreenGate.Settings(true, 30, 0.5));
        ScreenGate.Read first = gate.read(null, before.image(), GreyFrame.of(before.image()), ocr);
        assertThat(first.plan().kind()).isEqualTo(ScreenGate.Kind.FULL);
        ScreenGate.Last last = ScreenGate.remember(null, GreyFrame.of(before.image()), first.plan(), first.lines());
        ScreenGate.Read second = gate.read(last, after.image(), GreyFrame.of(after.image()), ocr);
        List<TextLine> full = ocr.readCrops(List.of(after.image()), List.of(new OcrEngine.Crop(0, 0, Screens.WIDTH, Screens.HEIGHT))).get(0);

        assertThat(second.plan().kind()).isEqualTo(ScreenGate.Kind.PARTIAL);
        assertThat(second.plan().pixelsRead()).isLessThan((long) (0.15 * Screens.WIDTH * Screens.HEIGHT));
        assertThat(recall(full, second.lines())).isGreaterThanOrEqualTo(0.95);
        assertThat(recall(second.lines(), full)).as("nothing read twice or stale").isGreaterThanOrEqualTo(0.95);
        assertThat(second.lines()).extracting(l -> norm(l.text())).contains(norm(typed.get(6)));
    }

    @Test
    void aScrolledScreenReadsAsAFullReadFromTheExposedBand() {
        List<String> doc = Screens.document(40, 12);
        ScreenGate gate = new ScreenGate(new ScreenGate.Settings(true, 30, 0.5));
        Screen before = Screens.render("Notes - Editor", doc, 0);
        ScreenGate.Read first = gate.read(null, before.image(), GreyFrame.of(before.image()), ocr);
        ScreenGate.Last last = ScreenGate.remember(null, GreyFrame.of(before.image()), first.plan(), first.lines());
        Screen after = Screens.render("Notes - Editor", doc, 2 * Screens.PITCH + 21);
        ScreenGate.Read second = gate.read(last, after.image(), GreyFrame.of(after.image()), ocr);
        List<TextLine> full = ocr.read(png(after));

        assertThat(second.plan().dy()).isEqualTo(2 * Screens.PITCH + 21);
        assertThat(second.plan().pixelsRead()).isLessThan((long) (0.45 * Screens.WIDTH * Screens.HEIGHT));
        assertThat(recall(full, second.lines())).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void aSlicedWholeReadTakesOneBandPerKeyframeAndEndsAsAWholeRead() {
        List<String> doc = Screens.document(30, 13);
        Screen screen = Screens.render("Notes - Editor", doc, 0);
        GreyFrame grey = GreyFrame.of(screen.image());
        ScreenGate gate = new ScreenGate(new ScreenGate.Settings(true, 30, 0.5, 3));
        List<TextLine> full = ocr.readCrops(List.of(screen.image()), List.of(new OcrEngine.Crop(0, 0, Screens.WIDTH, Screens.HEIGHT))).get(0);
        int slice = (Screens.HEIGHT + 2) / 3;

        ScreenGate.Read first = gate.read(null, screen.image(), grey, ocr, true);
        assertThat(first.plan().kind()).isEqualTo(ScreenGate.Kind.FULL);
        assertThat(first.plan().unreadFrom()).isEqualTo(slice);
        assertThat(first.plan().pixelsRead()).as("the top band and its margin").isEqualTo((long) Screens.WIDTH * (slice + ScreenGate.MARGIN));
        assertThat(first.lines()).isNotEmpty().allMatch(l -> l.y() + l.height() / 2.0 < slice);
        ScreenGate.Last last = ScreenGate.remember(null, grey, first.plan(), first.lines());
        assertThat(last.unreadFrom()).isEqualTo(slice);

        ScreenGate.Read second = gate.read(last, screen.image(), grey, ocr, true);
        assertThat(second.plan().kind()).as("nothing changed, but the next band is read").isEqualTo(ScreenGate.Kind.PARTIAL);
        assertThat(second.plan().unreadFrom()).isEqualTo(2 * slice);
        last = ScreenGate.remember(last, grey, second.plan(), second.lines());
        ScreenGate.Read third = gate.read(last, screen.image(), grey, ocr, true);
        assertThat(third.plan().unreadFrom()).isEqualTo(ScreenGate.ALL_READ);
        last = ScreenGate.remember(last, grey, third.plan(), third.lines());
        assertThat(recall(full, third.lines())).as("after the last band, the lines of a whole read").isGreaterThanOrEqualTo(0.95);
        assertThat(recall(third.lines(), full)).as("no line read twice").isGreaterThanOrEqualTo(0.95);
        assertThat(gate.read(last, screen.image(), grey, ocr, true).plan().kind()).as("then nothing is read").isEqualTo(ScreenGate.Kind.REUSE);
        assertThat(gate.read(null, screen.image(), grey, ocr, false).plan().unreadFrom()).as("a file is read whole")
                .isEqualTo(ScreenGate.ALL_READ);
    }

    private static byte[] png(Screen s) {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(Screens.WIDTH, Screens.HEIGHT, java.awt.image.BufferedImage.TYPE_3BYTE_BGR);
        byte[] dst = ((java.awt.image.DataBufferByte) img.getRaster().getDataBuffer()).getData();
        System.arraycopy(s.image().bgr(), 0, dst, 0, dst.length);
        try (java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream()) {
            javax.imageio.ImageIO.write(img, "png", out);
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
