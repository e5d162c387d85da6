package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/** The job's wiring without running it: Kryo off, exactly-once checkpoints, stable operator ids. */
class IngestJobWiringTest {
    @Test
    void theJobRunsWithoutKryoUnderExactlyOnceCheckpointsWithStableUids() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration());
        assertThat(env.getConfig().getSerializerConfig().hasGenericTypesDisabled()).isTrue();
        assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isTrue();
        assertThat(env.getCheckpointConfig().getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        StreamGraph graph = env.getStreamGraph();
        assertThat(graph.getStreamNodes()).extracting(StreamNode::getTransformationUID)
                .contains("kafka-source", "route-dead-letters", "stream-catalog", "es-sink", "dlq-sink");
    }

    @Test
    void bothGatesOnOrOffWireWithoutKryoWithTheirOwnUids() {
        for (boolean on : new boolean[] {true, false}) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
            IngestJob.build(env, new Configuration().set(PerceptionOptions.CHANGE_GATE, on).set(DetectOptions.MOTION_GATE, on));
            // Building the graph creates every edge's serializer: a generic (Kryo) type would throw here.
            StreamGraph graph = env.getStreamGraph();
            List<String> uids = graph.getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
            assertThat(env.getCheckpointConfig().isUnalignedCheckpointsEnabled()).as("unaligned after a timeout, with the change gate").isEqualTo(on);
            // Default: detection has its own read of Kafka, so the detector's back-pressure stops at its own source.
            assertThat(uids).contains("kafka-source-detection", "frame-features-detection");
            if (on) {
                assertThat(uids).contains("stamp-keyframes", "perception-gated", "motion-gate", "detection", "carry-detections").doesNotContain("perception");
            } else {
                assertThat(uids).contains("perception", "detection").doesNotContain("stamp-keyframes", "perception-gated", "motion-gate", "carry-detections");
            }
        }
    }

    @Test
    void peopleWireWithoutKryoAfterTheTrackerOnlyWhenAskedFor() {
        for (boolean on : new boolean[] {true, false}) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
            IngestJob.build(env, new Configuration().set(PeopleOptions.ENABLED, on));
            List<String> uids = env.getStreamGraph().getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
            if (on) {
                assertThat(uids).contains("tracker", "person-activities").doesNotContain("face-identities");
            } else {
                assertThat(uids).contains("tracker").doesNotContain("person-activities");
            }
        }
    }

    @Test
    void facesWireWithoutKryoAfterThePersonOperatorOnlyWhenAskedFor() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration().set(PeopleOptions.ENABLED, true).set(PeopleOptions.FACES, true));
        // Building the graph creates every edge's serializer: a generic (Kryo) type would throw here.
        StreamGraph graph = env.getStreamGraph();
        List<String> uids = graph.getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
        assertThat(uids).contains("person-activities", "face-identities");
        assertThat(upstreamOf(graph, "face-identities")).as("fed by the person operator's faces").contains("person-activities");
    }

    /** Names of the chained operators in the task that reads the frame path's source. */
    private static String frameSourceTask(Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, conf);
        return StreamSupport.stream(env.getStreamGraph().getJobGraph().getVertices().spliterator(), false).map(JobVertex::getName)
                .filter(n -> n.startsWith("Source: frames from Kafka -> ")).findFirst().orElseThrow();
    }

    @Test
    void theDetectorIsNotChainedToTheFrameSourceSoItsQueueCannotParkIt() {
        assertThat(frameSourceTask(new Configuration())).doesNotContain("object detection");
        // The old wiring, where a full detection queue parked the source task and with it frame documents and shots.
        assertThat(frameSourceTask(new Configuration().set(DetectOptions.OWN_SOURCE, false))).contains("object detection");
    }

    @Test
    void detectionSharesTheFrameSourceWhenItsOwnReadIsOff() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration().set(DetectOptions.OWN_SOURCE, false));
        List<String> uids = env.getStreamGraph().getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
        assertThat(uids).contains("kafka-source", "detection").doesNotContain("kafka-source-detection", "frame-features-detection");
        assertThat(uids.stream().filter(u -> u != null && u.startsWith("kafka-source"))).hasSize(1);
    }

    /** The transformation ids from {@code uid} back to the detection read, following the first input of each. */
    private static List<String> upstreamOf(StreamGraph graph, String uid) {
        List<String> chain = new java.util.ArrayList<>();
        StreamNode node = graph.getStreamNodes().stream().filter(n -> uid.equals(n.getTransformationUID())).findFirst().orElseThrow();
        while (!node.getInEdges().isEmpty()) {
            node = graph.getStreamNode(node.getInEdges().get(0).getSourceId());
            chain.add(node.getTransformationUID());
        }
        return chain;
    }

    @Test
    void screensAreFilteredOutOfTheDetectionReadBeforeTheirFramesAreDecodedUnlessAskedFor() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration());
        StreamGraph graph = env.getStreamGraph();
        assertThat(upstreamOf(graph, "frame-features-detection")).startsWith("detectable-streams").contains("kafka-source-detection");
        assertThat(upstreamOf(graph, "sample-frames")).contains("detectable-streams");
        // The frame path (frame documents, shots, keyframe perception) still reads every stream.
        assertThat(upstreamOf(graph, "frame-features")).doesNotContain("detectable-streams");
        assertThat(DetectOptions.SCREENS.defaultValue()).isFalse();
    }

    @Test
    void withDetectionOffThereIsOneRead() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration().set(DetectOptions.ENABLED, false));
        List<String> uids = env.getStreamGraph().getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
        assertThat(uids).contains("kafka-source").doesNotContain("kafka-source-detection", "detection");
    }

    @Test
    void liveStreamsGetTheirOwnDetectorInItsOwnTaskWhenTheirNiceDiffers() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, new Configuration().set(DetectOptions.LIVE_NICE, 0));
        StreamGraph graph = env.getStreamGraph();
        List<String> uids = graph.getStreamNodes().stream().map(StreamNode::getTransformationUID).toList();
        assertThat(uids).contains("detection", "detection-live", "detection-live-dead-letters", "tracker");
        List<String> tasks = StreamSupport.stream(graph.getJobGraph().getVertices().spliterator(), false).map(JobVertex::getName).toList();
        // A nice value is per thread: each detector is the head of its own task, and neither is in the detection read's task.
        assertThat(tasks).anyMatch(n -> n.startsWith("object detection ->") || n.equals("object detection"));
        assertThat(tasks).anyMatch(n -> n.startsWith("object detection, live streams"));
        assertThat(tasks.stream().filter(n -> n.startsWith("Source: frames from Kafka for detection"))).singleElement()
                .satisfies(n -> assertThat(n).doesNotContain("object detection"));

        StreamExecutionEnvironment same = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(same, new Configuration().set(DetectOptions.LIVE_NICE, 10));
        assertThat(same.getStreamGraph().getStreamNodes()).extracting(StreamNode::getTransformationUID).doesNotContain("detection-live");
    }
}
