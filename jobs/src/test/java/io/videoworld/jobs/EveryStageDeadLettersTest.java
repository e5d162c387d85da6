package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.operators.CountDeadLetters;
import io.videoworld.operators.SplitDeadLetters;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.Guarded;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.AbstractUdfStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.SourceOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.operators.UdfStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dead letters by construction: in the whole stream graph, under every switch that changes its
 * shape, every stage between the Kafka source and the sinks is guarded, and every guarded stage's
 * dead letters reach the dead-letter topic, either on its side output or, for a stage whose results
 * carry them (async stages), through the {@link SplitDeadLetters} right after it. A stage added
 * without the mechanism fails here, named.
 */
class EveryStageDeadLettersTest {
    /** The detection branch's own read decodes the records the frame path decodes; their dead letters are written from there. */
    private static final Set<String> DUPLICATE_READS = Set.of("route-dead-letters-detection", "frame-features-detection");

    @ParameterizedTest
    @ValueSource(strings = {"defaults", "gates-off", "perception-off", "one-read", "live-split", "memory-off"})
    void everyStageIsGuardedAndItsDeadLettersReachTheTopic(String shape) throws Exception {
        Configuration conf = new Configuration();
        switch (shape) {
            case "gates-off" -> conf.set(PerceptionOptions.CHANGE_GATE, false).set(DetectOptions.MOTION_GATE, false);
            case "perception-off" -> conf.set(PerceptionOptions.ENABLED, false).set(DetectOptions.ENABLED, false);
            case "one-read" -> conf.set(DetectOptions.OWN_SOURCE, false);
            case "live-split" -> conf.set(DetectOptions.NICE, 10).set(DetectOptions.LIVE_NICE, 0);
            case "memory-off" -> conf.set(MemoryOptions.ENABLED, false);
            default -> { }
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        IngestJob.build(env, conf);
        StreamGraph graph = env.getStreamGraph();

        List<String> unguarded = new ArrayList<>();
        List<String> unrouted = new ArrayList<>();
        int guarded = 0;
        for (StreamNode node : graph.getStreamNodes()) {
            StreamOperatorFactory<?> factory = node.getOperatorFactory();
            if (factory instanceof SourceOperatorFactory || isSink(node)) {
                continue;
            }
            Object fn = function(factory);
            if (fn instanceof CountDeadLetters) {
                assertThat(node.getOutEdges()).allMatch(e -> isSink(graph.getStreamNode(e.getTargetId())));
                continue;
            }
            if (!(fn instanceof Guarded)) {
                unguarded.add(node.getOperatorName() + " (" + (fn == null ? factory.getClass().getSimpleName() : fn.getClass().getName()) + ")");
                continue;
            }
            guarded++;
            if (node.getTransformationUID() != null && DUPLICATE_READS.contains(node.getTransformationUID())) {
                continue;
            }
            // An async stage's results carry its dead letters: a SplitDeadLetters after it must route them (another
            // consumer of the same results, such as the redacted keyframes to store, may sit beside it).
            boolean routed = routesToTopic(graph, node) || node.getOutEdges().stream().map(e -> graph.getStreamNode(e.getTargetId()))
                    .anyMatch(next -> function(next.getOperatorFactory()) instanceof SplitDeadLetters<?, ?> && routesToTopic(graph, next));
            if (!routed) {
                unrouted.add(node.getOperatorName());
            }
        }
        assertThat(unguarded).as("stages that would fail the job on a record's exception").isEmpty();
        assertThat(unrouted).as("guarded stages whose dead letters reach no topic").isEmpty();
        assertThat(guarded).as("stages checked").isGreaterThan(shape.equals("perception-off") ? 8 : 15);
    }

    private static boolean routesToTopic(StreamGraph graph, StreamNode node) {
        for (StreamEdge e : node.getOutEdges()) {
            if (e.getOutputTag() != null && e.getOutputTag().getId().equals(DeadLetters.TAG.getId())
                    && function(graph.getStreamNode(e.getTargetId()).getOperatorFactory()) instanceof CountDeadLetters) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSink(StreamNode node) {
        String factory = node.getOperatorFactory().getClass().getName();
        return factory.contains(".sink.") || node.getOperatorName().endsWith(": Writer") || node.getOperatorName().endsWith(": Committer")
                || node.getOperatorName().startsWith("Sink: ");
    }

    private static Object function(StreamOperatorFactory<?> factory) {
        try {
            if (factory instanceof UdfStreamOperatorFactory<?> udf) {
                return udf.getUserFunction();
            }
            if (factory instanceof AsyncWaitOperatorFactory<?, ?>) {
                Field f = AsyncWaitOperatorFactory.class.getDeclaredField("asyncFunction");
                f.setAccessible(true);
                return f.get(factory);
            }
            if (factory instanceof SimpleOperatorFactory<?> simple) {
                return simple.getOperator() instanceof AbstractUdfStreamOperator<?, ?> op ? op.getUserFunction() : simple.getOperator();
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return null;
    }
}
