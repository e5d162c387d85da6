package io.videoworld.jobs;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Inference settings of the ingest job: where the models are and how keyframes are batched. */
public final class PerceptionOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.perception.enabled").booleanType()
            .defaultValue(true).withDescription("Run OCR, text embeddings and image descriptors on keyframes.");
    public static final ConfigOption<String> MODELS = ConfigOptions.key("vw.models").stringType()
            .defaultValue(".vw/models").withDescription("Directory deploy/models.sh filled.");
    public static final ConfigOption<Integer> MAX_BATCH = ConfigOptions.key("vw.perception.max-batch").intType()
            .defaultValue(8).withDescription("Most keyframes in one inference batch per subtask.");
    public static final ConfigOption<Duration> MAX_WAIT = ConfigOptions.key("vw.perception.max-wait").durationType()
            .defaultValue(Duration.ofMillis(50)).withDescription("Longest a keyframe waits for its batch to fill.");
    public static final ConfigOption<Duration> TIMEOUT = ConfigOptions.key("vw.perception.timeout").durationType()
            .defaultValue(Duration.ofMinutes(10)).withDescription("A keyframe not perceived by then is indexed with perception_status failed. "
                    + "Long on purpose: the bounded capacity makes the job slow down (back-pressure) well before this, so a busy machine loses no text.");
    public static final ConfigOption<Integer> CAPACITY = ConfigOptions.key("vw.perception.capacity").intType()
            .defaultValue(16).withDescription("Keyframes in flight per subtask before back-pressure (each is checkpointed with its JPEG).");

    private PerceptionOptions() {}
}
