package io.videoworld.engines.gates;

import io.videoworld.testkit.Screens;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.TextLine;
import io.videoworld.testkit.Screens.Screen;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.OcrEngine.Crop;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tile diff, the scroll estimate and the carrying of lines, on Java2D screens whose lines are known. */
class ScreenGateTest {
    private static final List<String> DOC = Screens.document(40, 7);
    private static final double FRAME = Screens.WIDTH * Screens.HEIGHT;

    private static GreyFrame grey(Screen s) {
        return GreyFrame.of(s.image());
    }

    @Test
    void anUnchangedScreenIsNotRead() {
        Screen a = Screens.render("Notes - Editor", DOC, 0);
        ScreenGate.Plan p = ScreenGate.plan(grey(a), a.truth(), grey(Screens.render("Notes - Editor", DOC, 0)), 0.5);
        assertThat(p.kind()).isEqualTo(ScreenGate.Kind.REUSE);
        assertThat(p.crops()).isEmpty();
        assertThat(p.carried()).isEqualTo(a.truth());
    }

    @Test
    void aTypedLineIsReadInItsBandAndTheOtherLinesAreCarried() {
        Screen a = Screens.render("Notes - Editor", DOC, 0);
        List<String> typed = new ArrayList<>(DOC);
        typed.set(5, DOC.get(5) + " typed");
        Screen b = Screens.render("Notes - Editor", typed, 0);
        ScreenGate.Plan p = ScreenGate.plan(grey(a), a.truth(), grey(b), 0.5);
        assertThat(p.kind()).isEqualTo(ScreenGate.Kind.PARTIAL);
        assertThat(p.dy()).isZero();
        assertThat(p.crops()).hasSize(1);
        TextLine line = b.truth().stream().filter(l -> l.text().endsWith("typed")).findFirst().orElseThrow();
        Crop c = p.crops().get(0);
        assertThat(c.width()).isEqualTo(Screens.WIDTH);
        assertThat(c.y()).isLessThanOrEqualTo(line.y());
        assertThat(c.y() + c.height()).isGreaterThanOrEqualTo(line.y() + line.height());
        assertThat(p.pixelsRead() / FRAME).isLessThan(0.15);
        assertThat(p.carried()).extracting(TextLine::text).doesNotContain(DOC.get(5))
                .containsAll(a.truth().stream().map(TextLine::text).filter(t -> !t.equals(DOC.get(5))).toList());
    }

    @Test
    void aScrollIsFoundAsAShiftAndOnlyTheExposedBandIsRead() {
        int scroll = 3 * Screens.PITCH + 13;
        Screen a = Screens.render("Notes - Editor", DOC, 0);
        Screen b = Screens.render("Notes - Editor", DOC, scroll);
        assertThat(TileDiff.scroll(grey(a), grey(b), TileDiff.tiles(grey(a), grey(b), 0))).isEqualTo(scroll);
        ScreenGate.Plan p = ScreenGate.plan(grey(a), a.truth(), grey(b), 0.5);
        assertThat(p.kind()).isEqualTo(ScreenGate.Kind.PARTIAL);
        assertThat(p.dy()).isEqualTo(scroll);
        assertThat(p.pixelsRead() / FRAME).isLessThan(0.35);
        // Every carried line is where the new screen shows it.
        for (TextLine carried : p.carried()) {
            TextLine truth = b.truth().stream().filter(l -> l.text().equals(carried.text())).findFirst().orElseThrow();
            assertThat(carried.y()).as(carried.text()).isEqualTo(truth.y());
        }
        assertThat(p.carried()).hasSizeGreaterThan(b.truth().size() / 2);
        // What was not carried lies in a band that is read.
        for (TextLine l : b.truth()) {
            if (p.carried().stream().noneMatch(c -> c.text().equals(l.text()))) {
                assertThat(p.cores()).as(l.text()).anyMatch(core -> core.holds(l.y() + l.height() / 2.0));
            }
        }
    }

    @Test
    void aScrollUpIsANegativeShift() {
        Screen a = Screens.render("Notes - Editor", DOC, 300);
        Screen b = Screens.render("Notes - Editor", DOC, 300 - 97);
        ScreenGate.Plan p = ScreenGate.plan(grey(a), a.truth(), grey(b), 0.5);
        assertThat(p.dy()).isEqualTo(-97);
    }

    @Test
    void anAppSwitchIsReadWhole() {
        Screen a = Screens.render("Notes - Editor", DOC, 0);
        Screen b = Screens.render("Inbox - Mail", Screens.document(30, 99), 0);
        assertThat(ScreenGate.plan(grey(a), a.truth(), grey(b), 0.5)).as("a full read is the better deal").isNull();
    }

    @Test
    void readLinesAreTakenInsideTheirCoresAndCarriedOnesOutside() {
        ScreenGate.Plan p = new ScreenGate.Plan(ScreenGate.Kind.PARTIAL, List.of(new Crop(0, 84, 1280, 96)),
                List.of(new ScreenGate.Band(100, 164)), List.of(new TextLine("kept", 10, 20, 100, 30, 1)), 0, 0.1);
        List<TextLine> merged = ScreenGate.merge(p, List.of(List.of(new TextLine("margin above", 10, 80, 100, 16, 1),
                new TextLine("new", 10, 120, 100, 30, 1), new TextLine("margin below", 10, 165, 100, 14, 1))));
        assertThat(merged).extracting(TextLine::text).containsExactly("kept", "new");
    }

    @Test
    void theFirstKeyframeANewSizeAndEveryNthAreReadWhole() {
        ScreenGate gate = new ScreenGate(new ScreenGate.Settings(true, 3, 0.5));
        Screen a = Screens.render("Notes - Editor", DOC, 0);
        ScreenGate.Plan first = gate.plan(null, grey(a));
        assertThat(first.kind()).isEqualTo(ScreenGate.Kind.FULL);
        ScreenGate.Last last = ScreenGate.remember(null, grey(a), first, a.truth());
        ScreenGate.Plan second = gate.plan(last, grey(a));
        assertThat(second.kind()).isEqualTo(ScreenGate.Kind.REUSE);
        assertThat(second.carried()).isEqualTo(a.truth());
        last = ScreenGate.remember(last, grey(a), second, a.truth());
        ScreenGate.Plan third = gate.plan(last, grey(a));
        assertThat(third.kind()).isEqualTo(ScreenGate.Kind.REUSE);
        last = ScreenGate.remember(last, grey(a), third, a.truth());
        assertThat(last.sinceFull()).isEqualTo(2);
        assertThat(gate.plan(last, grey(a)).kind()).as("every third").isEqualTo(ScreenGate.Kind.FULL);
        BufferedImage small = new BufferedImage(640, 400, BufferedImage.TYPE_3BYTE_BGR);
        assertThat(gate.plan(ScreenGate.remember(null, grey(a), first, a.truth()), GreyFrame.of(Screens.decoded(small))).kind())
                .isEqualTo(ScreenGate.Kind.FULL);
        assertThat(new ScreenGate(ScreenGate.Settings.off()).plan(ScreenGate.remember(null, grey(a), first, a.truth()), grey(a)).kind())
                .as("gate off").isEqualTo(ScreenGate.Kind.FULL);
    }

    @Test
    void theMotionGateKeepsDetectionsWhileNothingMovesAndDetectsPeriodically() {
        MotionGate gate = new MotionGate(new MotionGate.Settings(true, 4, 0.002));
        GreyFrame still = GreyFrame.thumbnail(Screens.decoded(scene(100)), MotionGate.THUMB);
        assertThat(gate.detect(null, still)).isTrue();
        MotionMemory m = MotionGate.next(null, still, true, 0);
        assertThat(gate.detect(m, GreyFrame.thumbnail(Screens.decoded(scene(100)), MotionGate.THUMB))).isFalse();
        assertThat(gate.detect(m, GreyFrame.thumbnail(Screens.decoded(scene(160)), MotionGate.THUMB))).as("moved").isTrue();
        m = MotionGate.next(m, still, false, 250);
        assertThat(gate.detect(m, still)).isFalse();
        m = MotionGate.next(m, still, false, 500);
        assertThat(gate.detect(m, still)).isFalse();
        m = MotionGate.next(m, still, false, 750);
        assertThat(gate.detect(m, still)).as("every fourth sample is detected").isTrue();
        assertThat(m.thumb()).as("compared with the last detected sample").isEqualTo(still.px());
        assertThat(new MotionGate(MotionGate.Settings.off()).detect(m, still)).as("gate off").isTrue();
    }

    /** A grey room with a person-sized box at x. */
    private static BufferedImage scene(int x) {
        BufferedImage img = new BufferedImage(640, 480, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(120, 120, 110));
        g.fillRect(0, 0, 640, 480);
        g.setColor(new Color(200, 60, 40));
        g.fillRect(x, 200, 40, 110);
        g.dispose();
        return img;
    }
}
