package io.videoworld.operators.inference;

import io.videoworld.testkit.Screens;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.sampling.QueuedKeyframe;
import static io.videoworld.operators.inference.GatedPerceptionTest.EVENT;
import static io.videoworld.operators.inference.GatedPerceptionTest.IDLE;
import static io.videoworld.operators.inference.GatedPerceptionTest.drain;
import static io.videoworld.operators.inference.GatedPerceptionTest.keyframe;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.ModelDirectory;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Turns between live streams in change-gated perception: a free reader goes to the stream read
 * longest ago rather than to the keyframe that came first, and a stream not read for a turn period
 * has its newest keyframe read although it queued past the limit (its older ones are still shed),
 * so a stream whose keyframes always wait behind another's is read too.
 */
class LiveTurnsTest {

    @Test
    void theStreamReadLongestAgoGoesFirstAndAnOverdueStreamIsReadThoughItsKeyframeIsStale() throws Exception {
        byte[] first = small("Quarterly report draft");
        byte[] other = small("Camera hall east");
        // Stream a's three keyframes came before b's one; all four are emitted at processing time 0.
        List<Keyframe> in = List.of(keyframe("a", 1, first), keyframe("a", 2, first), keyframe("a", 3, first), keyframe("b", 1, other));
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, io.videoworld.core.PerceptionResult>(
                new GatedPerception(ModelDirectory.locate().toString(), null, new ScreenGate.Settings(true, 20, 0.5), IDLE,
                        new LiveShedding(3_000, 0, 4_000), 1, 16),
                QueuedKeyframe::streamId, VideoDoc::streamId, Types.STRING)) {
            GatedPerceptionTest.openReady(h);
            h.processElement2(live("a"), EVENT);
            h.processElement2(live("b"), EVENT);
            for (Keyframe k : in) {
                h.processElement1(new QueuedKeyframe(k, 0), k.eventTimeMs());
            }
            // a1 is read meanwhile; the rest waits 5 s: past the 3 s limit, and past the 4 s turn period of both streams.
            h.setProcessingTime(5_000);
            drain(h, 4);
            List<Perception> out = h.extractOutputValues().stream().map(r -> r.value()).toList();
            assertThat(out).extracting(p -> p.streamId() + p.frameIndex()).as("b, never read, before a's newest; a2 shed on the way")
                    .containsExactly("a1", "a2", "b1", "a3");
            assertThat(out.get(1).isShed()).as("a2: stale, and a newer keyframe of a is queued").isTrue();
            assertThat(out.get(1).failure()).contains("queued 5.0 s");
            assertThat(out.get(2).status()).as("b1 queued 5 s but b had no turn for 5 s").isEqualTo(Perception.OK);
            assertThat(out.get(3).status()).as("a3: a's newest, a last read 5 s ago").isEqualTo(Perception.OK);
            assertThat(out.get(3).lines()).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("Quarterly"));
            assertThat(out.get(2).lines()).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("hall"));

            h.processBothWatermarks(new Watermark(EVENT + 10_000 + IDLE));
            assertThat(h.numKeyedStateEntries()).as("no state left").isZero();
            assertThat(h.numEventTimeTimers()).as("no timers left").isZero();
            assertThat(((GatedPerception) h.getOperator()).streamsRemembered()).as("the streams' turns forgotten once idle").isZero();
        }
    }

    @Test
    void keyframesThatQueuedWhileTheModelsLoadedAreNotStale() throws Exception {
        byte[] one = small("Inbox three unread");
        byte[] other = small("Camera hall east");
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, io.videoworld.core.PerceptionResult>(
                new GatedPerception(ModelDirectory.locate().toString(), null, new ScreenGate.Settings(true, 20, 0.5), IDLE,
                        new LiveShedding(3_000, 0, 0), 1, 16),
                QueuedKeyframe::streamId, VideoDoc::streamId, Types.STRING)) {
            h.open();
            h.processElement2(live("a"), EVENT);
            h.processElement2(live("b"), EVENT);
            h.processElement1(new QueuedKeyframe(keyframe("a", 1, one), 0), EVENT + 1_000);
            h.processElement1(new QueuedKeyframe(keyframe("b", 1, other), 0), EVENT + 1_000);
            // The models are handed over on the task thread, here at 5 s: both keyframes waited 5 s, all of it for the load.
            h.setProcessingTime(5_000);
            drain(h, 2);
            assertThat(h.extractOutputValues()).extracting(r -> r.value().streamId() + r.value().frameIndex() + " " + r.value().status())
                    .containsExactly("a1 " + Perception.OK, "b1 " + Perception.OK);
            // Once loaded, a wait counts from when the keyframe was let go again: 4 s is stale.
            h.setProcessingTime(10_000);
            h.processElement1(new QueuedKeyframe(keyframe("a", 2, other), 6_000), EVENT + 2_000);
            drain(h, 3);
            assertThat(h.extractOutputValues().get(2).value().isShed()).isTrue();
            assertThat(h.extractOutputValues().get(2).value().failure()).contains("queued 4.0 s");
        }
    }

    @Test
    void latestWinsReadsALiveStreamAtItsNewestKeyframeAndAFileWhole() throws Exception {
        byte[] one = small("Inbox three unread");
        byte[] newest = small("Invoice paid today");
        // While a1 is read, a2-a4 queue: a2 and a3 have a newer keyframe of a behind them, so they are shed for a4. No other limit.
        List<Keyframe> in = List.of(keyframe("a", 1, one), keyframe("a", 2, one), keyframe("a", 3, one), keyframe("a", 4, newest),
                keyframe("f", 1, one), keyframe("f", 2, newest));
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<String, QueuedKeyframe, VideoDoc, io.videoworld.core.PerceptionResult>(
                new GatedPerception(ModelDirectory.locate().toString(), null, new ScreenGate.Settings(true, 20, 0.5), IDLE,
                        new LiveShedding(0, 0, 0, true), 1, 16),
                QueuedKeyframe::streamId, VideoDoc::streamId, Types.STRING)) {
            GatedPerceptionTest.openReady(h);
            h.processElement2(live("a"), EVENT);
            for (Keyframe k : in) {
                h.processElement1(new QueuedKeyframe(k, 0), k.eventTimeMs());
            }
            drain(h, 6);
            List<Perception> out = h.extractOutputValues().stream().map(r -> r.value()).toList();
            List<Perception> a = out.stream().filter(p -> p.streamId().equals("a")).toList();
            List<Perception> f = out.stream().filter(p -> p.streamId().equals("f")).toList();
            assertThat(a).extracting(p -> p.frameIndex() + (p.isShed() ? " shed" : " read")).containsExactly("1 read", "2 shed", "3 shed", "4 read");
            assertThat(a.get(1).failure()).contains("latest wins").contains("carried from frame 1");
            assertThat(a.get(2).lines()).as("a1's text carried").extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("unread"));
            assertThat(a.get(3).lines()).extracting(l -> l.text().replace(" ", "")).anyMatch(t -> t.contains("paid"));
            assertThat(f).as("a file is read whole").noneMatch(Perception::isShed).hasSize(2);

            h.processBothWatermarks(new Watermark(EVENT + 10_000 + IDLE));
            assertThat(h.numKeyedStateEntries()).as("no state left").isZero();
            assertThat(h.numEventTimeTimers()).as("no timers left").isZero();
            assertThat(((GatedPerception) h.getOperator()).streamsRemembered()).isZero();
        }
    }

    private static VideoDoc live(String stream) {
        SourceInfo info = new SourceInfo(1, null, null, "jpeg", false, 0, 0, null, null, 480, 120, 1);
        return new VideoDoc(stream, SourceKind.SCREEN, "test", info, 5L, EVENT, EVENT, 0, 1, 1, 0, 0, 480, 120, VideoDoc.LIVE);
    }

    /** A small screen with one line of text: read in well under a second. */
    private static byte[] small(String text) throws Exception {
        BufferedImage img = new BufferedImage(480, 120, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(250, 250, 250));
        g.fillRect(0, 0, 480, 120);
        g.setFont(Screens.font().deriveFont(28f));
        g.setColor(new Color(30, 30, 30));
        g.drawString(text, 20, 70);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }
}
