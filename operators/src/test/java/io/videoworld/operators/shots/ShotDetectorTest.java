package io.videoworld.operators.shots;

import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.engines.shots.ShotParams;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.FeatureBatch;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShotDetectorTest {
    private static final long EPOCH = 1_700_000_000_000L;
    @TempDir
    static Path tmp;
    private static List<FeatureBatch> batches;

    private KeyedOneInputStreamOperatorTestHarness<String, FeatureBatch, Segment> harness;

    /** Three seconds at 25 fps with hard cuts at 1.0 s and 2.0 s, in batches of one second. */
    @BeforeAll
    static void footage() throws Exception {
        Path video = tmp.resolve("three-shots.mp4");
        SampleVideo.write(video, 640, 360, 25, 3.0, List.of(1.0, 2.0));
        List<FrameFeatures> all = new ArrayList<>();
        try (VideoFrameSource src = new VideoFrameSource(video.toString(), 0, new JpegEncoder(320, 85))) {
            SourceFrame f;
            long i = 0;
            while ((f = src.next()) != null) {
                Frame frame = new Frame(i, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb());
                FrameBatch b = new FrameBatch("quay", SourceKind.VIDEO, video.toString(), i / 25, EPOCH, src.info(), List.of(frame));
                all.add(FeatureExtractor.extract(b, frame));
                i++;
            }
        }
        batches = new ArrayList<>();
        for (int s = 0; s < all.size(); s += 25) {
            boolean last = s + 25 >= all.size();
            batches.add(new FeatureBatch("quay", EPOCH, 25, last, all.subList(s, Math.min(all.size(), s + 25))));
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new ShotDetector(ShotParams.defaults(), 5_000)), FeatureBatch::streamId, Types.STRING);
        harness.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private List<Segment> segments(String kind) {
        return harness.extractOutputValues().stream().filter(s -> s.kind().equals(kind)).toList();
    }

    private List<Keyframe> keyframes() {
        return harness.getSideOutput(ShotDetector.KEYFRAMES).stream().map(StreamRecord::getValue).toList();
    }

    @Test
    void theLastBatchClosesTheShotsAtTheCutsAndLeavesNoState() throws Exception {
        for (FeatureBatch b : batches) {
            harness.processElement(new StreamRecord<>(b, b.lastEventTimeMs()));
        }
        List<Segment> shots = segments(Segment.SHOT);
        assertThat(shots).extracting(Segment::startFrame).containsExactly(0L, 25L, 50L);
        assertThat(shots).extracting(Segment::endFrame).containsExactly(25L, 50L, 75L);
        assertThat(shots).extracting(Segment::transitionIn).containsExactly("start", "cut", "cut");
        assertThat(shots.get(1).startPtsMs()).isEqualTo(1000);
        assertThat(shots.get(2).endPtsMs()).isEqualTo(3000);
        assertThat(shots.get(1).keyframes()).extracting(KeyframeRef::role).containsExactly("first", "middle", "last");
        assertThat(shots.get(1).representativeFrame()).isBetween(35L, 39L);

        assertThat(keyframes()).extracting(Keyframe::frameIndex).contains(0L, 25L, 50L, 24L, 49L, 74L);
        assertThat(keyframes()).allSatisfy(k -> assertThat(k.jpeg()).isNotEmpty());

        List<Segment> scenes = segments(Segment.SCENE);
        Segment lastScene = scenes.get(scenes.size() - 1);
        assertThat(lastScene.closed()).isTrue();
        assertThat(lastScene.endFrame()).isEqualTo(75);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aLiveStreamThatGoesQuietIsClosedByTheTimer() throws Exception {
        for (FeatureBatch b : batches.subList(0, 2)) {
            harness.processElement(new StreamRecord<>(b, b.lastEventTimeMs()));
        }
        assertThat(segments(Segment.SHOT)).isEmpty();
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);

        harness.processWatermark(batches.get(1).lastEventTimeMs() + 5_000);
        assertThat(segments(Segment.SHOT)).extracting(Segment::startFrame).containsExactly(0L, 25L);
        assertThat(segments(Segment.SHOT).get(1).endFrame()).isEqualTo(50);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }
}
