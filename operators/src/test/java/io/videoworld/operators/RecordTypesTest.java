package io.videoworld.operators;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.engine.Engine;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Ingested;
import io.videoworld.core.VideoDoc;
import org.apache.flink.types.PojoTestUtils;
import org.junit.jupiter.api.Test;

/** Everything that crosses an operator boundary or sits in state is serialized without Kryo. */
class RecordTypesTest {
    @Test
    void streamRecordsAreFlinkPojos() {
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(FrameBatch.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(Ingested.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(DeadLetter.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.PerceptionResult.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.DetectionResult.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(FrameDoc.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(VideoDoc.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.FeatureBatch.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.Segment.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.Keyframe.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.shots.ShotState.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.Perception.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.SampledFrame.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.DetectedFrame.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.TrackDoc.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.tracking.TrackerState.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.Observation.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.EpisodeBatch.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.EpisodeDoc.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.memory.BatcherState.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.memory.WriterState.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.gates.ScreenMemory.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.engines.gates.MotionMemory.class);
        PojoTestUtils.assertSerializedAsPojoWithoutKryo(io.videoworld.core.Detection.class);
    }

    @Test
    void djlIsPinnedToTheVersionWithOfflineNatives() {
        assertThat(Engine.getDjlVersion()).isEqualTo("0.35.1");
    }
}
