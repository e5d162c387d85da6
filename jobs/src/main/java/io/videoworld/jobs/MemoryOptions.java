package io.videoworld.jobs;

import io.videoworld.clients.llm.LlmConfig;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** Episodic memory settings of the ingest job. */
public final class MemoryOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.memory.enabled").booleanType()
            .defaultValue(true).withDescription("Build episodic events in vw-episodes.");
    public static final ConfigOption<Duration> MAX_BATCH = ConfigOptions.key("vw.memory.max-batch").durationType()
            .defaultValue(Duration.ofSeconds(20)).withDescription("Longest memory batch (20 frames at MIRIX's 1 fps); "
                    + "a batch also ends at every shot boundary.");
    public static final ConfigOption<Duration> GRACE = ConfigOptions.key("vw.memory.open-grace").durationType()
            .defaultValue(Duration.ofSeconds(5)).withDescription("A live shot is cut into batches from keyframes the event-time watermark "
                    + "has passed by this much (the shot detector looks about 2 s ahead before it emits a keyframe).");
    public static final ConfigOption<Duration> IDLE = ConfigOptions.key("vw.memory.idle-timeout").durationType()
            .defaultValue(Duration.ofMinutes(10)).withDescription("Event time after a stream's latest batch when its memory state is cleared.");
    public static final ConfigOption<String> LLM_URL = ConfigOptions.key("vw.memory.llm-url").stringType().noDefaultValue()
            .withDescription("OpenAI-compatible endpoint (…/v1) for ambiguous batches; unset decides by the rules alone.");
    public static final ConfigOption<String> LLM_MODEL = ConfigOptions.key("vw.memory.llm-model").stringType().defaultValue("default")
            .withDescription("Model name sent to the endpoint.");
    public static final ConfigOption<Duration> LLM_TIMEOUT = ConfigOptions.key("vw.memory.llm-timeout").durationType()
            .defaultValue(Duration.ofSeconds(20)).withDescription("A model slower than this is not waited for; the rules decide.");
    public static final ConfigOption<Duration> TIMEOUT = ConfigOptions.key("vw.memory.timeout").durationType()
            .defaultValue(Duration.ofMinutes(5)).withDescription("Context lookup plus model call per batch, at most; an unreachable "
                    + "Elasticsearch is retried until 10 s before this, then the rules decide without relevant events.");
    public static final ConfigOption<Integer> CAPACITY = ConfigOptions.key("vw.memory.capacity").intType()
            .defaultValue(32).withDescription("Batches in flight per subtask in the context lookup.");

    private MemoryOptions() {}

    /** The model for ambiguous batches, or null. The key comes from $VW_LLM_KEY, never from job arguments. */
    public static LlmConfig llm(Configuration conf) {
        String url = conf.get(LLM_URL);
        return url == null || url.isBlank() ? null
                : new LlmConfig(url, conf.get(LLM_MODEL), System.getenv("VW_LLM_KEY"), conf.get(LLM_TIMEOUT), 1, false);
    }
}
