package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
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
}
