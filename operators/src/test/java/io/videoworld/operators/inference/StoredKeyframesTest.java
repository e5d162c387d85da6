package io.videoworld.operators.inference;

import static io.videoworld.operators.inference.GatedPerceptionTest.EVENT;
import static io.videoworld.operators.inference.GatedPerceptionTest.IDLE;
import static io.videoworld.operators.inference.GatedPerceptionTest.drain;
import static io.videoworld.operators.inference.GatedPerceptionTest.jpeg;
import static io.videoworld.operators.inference.GatedPerceptionTest.keyframe;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.privacy.Redactor;
import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.sampling.QueuedKeyframe;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import io.videoworld.testkit.Screens;
import java.util.ArrayList;
import java.util.List;
import io.videoworld.testkit.MalformedRecords;
import java.util.Comparator;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Change-gated perception that stores keyframes: each result carries its keyframe for the frame store,
 * the lines holding a secret blacked out, also when the gate carried those lines from the keyframe
 * before instead of reading them again; a keyframe with nothing redacted goes as it came.
 */
class StoredKeyframesTest {
    private static final String EMAIL = "jane.doe@example.com";

    private static KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> harness(boolean storing)
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(new GatedPerception(ModelDirectory.locate().toString(),
                null, new ScreenGate.Settings(true, 20, 0.5), IDLE, new LiveShedding(3_000, 0), 1, 16)
                .redacting(Redactor.ALL).storingKeyframes(storing),
                QueuedKeyframe::streamId, VideoDoc::streamId, Types.STRING);
    }

    private static void process(KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, PerceptionResult> h, Keyframe k)
            throws Exception {
        int before = h.extractOutputValues().size();
        h.processElement1(new QueuedKeyframe(k, 0), k.eventTimeMs());
        drain(h, before + 1);
    }

    private static String read(OcrEngine ocr, byte[] jpeg) {
        return ocr.read(jpeg).stream().map(TextLine::text).reduce("", (a, b) -> a + "\n" + b);
    }

    @Test
    void theSecretsLinesAreBlackInEveryStoredKeyframeEvenWhenCarried() throws Exception {
        List<String> doc = new ArrayList<>(Screens.document(30, 11));
        doc.set(3, "Write to " + EMAIL + " today");
        List<String> typed = new ArrayList<>(doc);
        typed.set(9, doc.get(9) + " deadline friday");
        List<String> clean = Screens.document(30, 12);
        Keyframe k1 = keyframe("desk", 1, jpeg(Screens.render("Mail - Editor", doc, 0).image()));
        Keyframe k2 = keyframe("desk", 2, jpeg(Screens.render("Mail - Editor", typed, 0).image()));
        Keyframe k3 = keyframe("other", 1, jpeg(Screens.render("Notes - Editor", clean, 0).image()));
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate());
                var h = harness(true)) {
            assertThat(read(ocr, k1.jpeg())).contains(EMAIL);
            h.open();
            process(h, k1);
            process(h, k2);
            process(h, k3);
            List<PerceptionResult> out = h.extractOutputValues();
            assertThat(out.get(1).value().text().replace(" ", "")).as("the typed line was read").contains("deadlinefriday");
            for (int i = 0; i < 2; i++) {
                PerceptionResult r = out.get(i);
                assertThat(r.value().text()).contains("[redacted:email]");
                Keyframe stored = r.stored();
                Keyframe captured = i == 0 ? k1 : k2;
                assertThat(stored.storeKey()).isEqualTo(captured.storeKey());
                assertThat(stored.jpeg()).isNotEqualTo(captured.jpeg());
                String again = read(ocr, stored.jpeg());
                assertThat(again).as("keyframe %d stored", i + 1).doesNotContain("jane.doe").doesNotContain("example.com");
                assertThat(again.replace(" ", "")).as("the lines around it stay").contains(doc.get(5).replace(" ", ""));
            }
            assertThat(out.get(2).value().text()).doesNotContain("[redacted:");
            assertThat(out.get(2).stored()).as("nothing redacted: the keyframe as it came").isEqualTo(k3);

            h.processBothWatermarks(new Watermark(EVENT + 10 * IDLE));
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
        try (var off = harness(false)) {
            off.open();
            process(off, k1);
            assertThat(off.extractOutputValues().get(0).value().text()).contains("[redacted:email]");
            assertThat(off.extractOutputValues().get(0).stored()).as("not storing: the shot stage stores keyframes").isNull();
        }
    }

    @Test
    void batchedPerceptionStoresTheKeyframeBlackedOutAndNothingForOneItCouldNotRead() throws Exception {
        List<String> doc = new ArrayList<>(Screens.document(30, 13));
        doc.set(4, "Write to " + EMAIL + " today");
        Keyframe secret = keyframe("desk", 1, jpeg(Screens.render("Mail - Editor", doc, 0).image()));
        Keyframe broken = keyframe("desk", 2, MalformedRecords.headerOnly(1280, 800));
        PerceptionFunction fn = new PerceptionFunction(ModelDirectory.locate().toString(), null, 8, 200).redacting(Redactor.ALL)
                .storingKeyframes(true);
        List<PerceptionResult> out;
        try (OneInputStreamOperatorTestHarness<Keyframe, PerceptionResult> h = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(fn, 120_000, 8, AsyncDataStream.OutputMode.UNORDERED),
                TypeInformation.of(Keyframe.class).createSerializer(new ExecutionConfig().getSerializerConfig()))) {
            h.open();
            h.processElement(secret, secret.eventTimeMs());
            h.processElement(broken, broken.eventTimeMs());
            h.endInput();
            out = h.extractOutputValues().stream().sorted(Comparator.comparingLong(r -> r.value().frameIndex())).toList();
        }
        assertThat(out).hasSize(2);
        assertThat(out.get(0).value().text()).contains("[redacted:email]");
        assertThat(out.get(0).stored().storeKey()).isEqualTo(secret.storeKey());
        try (OcrEngine ocr = OcrEngine.load(ModelDirectory.locate())) {
            assertThat(read(ocr, secret.jpeg())).contains(EMAIL);
            assertThat(read(ocr, out.get(0).stored().jpeg())).doesNotContain("jane.doe").doesNotContain("example.com");
        }
        assertThat(out.get(1).value().isFailed()).isTrue();
        assertThat(out.get(1).stored()).as("a keyframe that was not read is not stored").isNull();
    }
}
