package io.videoworld.jobs;

import io.videoworld.core.FrameLimits;
import io.videoworld.core.Names;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Every setting of the ingest job, with its default; pass them as {@code --key value}. */
public final class IngestOptions {
    public static final ConfigOption<String> KAFKA_BOOTSTRAP = ConfigOptions.key("vw.kafka.bootstrap")
            .stringType().defaultValue("localhost:9092").withDescription("Kafka bootstrap servers.");
    public static final ConfigOption<String> FRAMES_TOPIC = ConfigOptions.key("vw.kafka.frames-topic")
            .stringType().defaultValue(Names.FRAMES_TOPIC).withDescription("Topic of frame batches.");
    public static final ConfigOption<String> DLQ_TOPIC = ConfigOptions.key("vw.kafka.dlq-topic")
            .stringType().defaultValue(Names.DLQ_TOPIC).withDescription("Dead-letter topic for records that cannot be used.");
    public static final ConfigOption<Integer> MAX_FRAME_SIDE = ConfigOptions.key("vw.ingest.max-frame-side")
            .intType().defaultValue(FrameLimits.DEFAULT.maxSide())
            .withDescription("Largest width or height a frame's JPEG may declare; larger ones are dead letters before anything decodes them.");
    public static final ConfigOption<Long> MAX_FRAME_PIXELS = ConfigOptions.key("vw.ingest.max-frame-pixels")
            .longType().defaultValue(FrameLimits.DEFAULT.maxPixels())
            .withDescription("Most pixels (width x height) a frame's JPEG may declare (default: 8K UHD).");
    public static final ConfigOption<Integer> MAX_BATCH_FRAMES = ConfigOptions.key("vw.ingest.max-batch-frames")
            .intType().defaultValue(FrameLimits.DEFAULT.maxFrames()).withDescription("Most frames in one record.");
    public static final ConfigOption<Duration> DLQ_TRANSACTION_TIMEOUT = ConfigOptions.key("vw.kafka.dlq-transaction-timeout")
            .durationType().defaultValue(Duration.ofMinutes(10))
            .withDescription("Kafka transaction timeout of the exactly-once dead-letter sink; at most the broker's transaction.max.timeout.ms.");
    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("vw.kafka.group-id")
            .stringType().defaultValue("videoworld-ingest").withDescription("Consumer group; offsets are committed on checkpoints.");
    public static final ConfigOption<String> ES_URL = ConfigOptions.key("vw.es.url")
            .stringType().defaultValue("http://127.0.0.1:9200").withDescription("Elasticsearch base URL.");
    public static final ConfigOption<Integer> ES_MAX_BATCH = ConfigOptions.key("vw.es.max-batch")
            .intType().defaultValue(500).withDescription("Most documents in one bulk request.");
    public static final ConfigOption<Integer> ES_MAX_IN_FLIGHT = ConfigOptions.key("vw.es.max-in-flight")
            .intType().defaultValue(4).withDescription("Most bulk requests in flight per sink subtask.");
    public static final ConfigOption<Duration> ES_MAX_BUFFER_TIME = ConfigOptions.key("vw.es.max-buffer-time")
            .durationType().defaultValue(Duration.ofMillis(200)).withDescription("Longest a document waits for its bulk request. "
                    + "Part of a live frame's lag to searchable (with the indices' 1 s refresh); a busy job fills batches before it.");
    public static final ConfigOption<String> ES_INDEX_SETTINGS = ConfigOptions.key("vw.es.index-settings")
            .stringType().defaultValue("")
            .withDescription("Shards and replicas of the indices the job creates: INDEX=SHARDS/REPLICAS, comma-separated, * for all "
                    + "(e.g. *=2/1 on a two-node cluster). Empty: each mapping file's default, 1 shard and 0 replicas; "
                    + "replicas also apply to existing indices.");
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("vw.checkpoint-interval")
            .durationType().defaultValue(Duration.ofSeconds(10)).withDescription("Exactly-once checkpoint interval.");
    public static final ConfigOption<String> CHECKPOINT_DIR = ConfigOptions.key("vw.checkpoint-dir").stringType()
            .defaultValue("file://" + System.getProperty("java.io.tmpdir") + "/videoworld-checkpoints")
            .withDescription("Where checkpoints go: a URI through Flink's FileSystem (file:// on one machine or a shared mount, s3://, hdfs://). Keyframes in flight carry their JPEGs, "
                    + "which outgrow the 5 MB that memory-backed checkpoints allow.");
    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS = ConfigOptions.key("vw.max-out-of-orderness")
            .durationType().defaultValue(Duration.ofSeconds(5)).withDescription("How late a frame's event time may be.");
    public static final ConfigOption<Duration> SOURCE_IDLENESS = ConfigOptions.key("vw.source-idleness")
            .durationType().defaultValue(Duration.ofSeconds(30)).withDescription("A partition silent this long stops holding back the watermark.");
    public static final ConfigOption<Duration> STREAM_IDLE_TIMEOUT = ConfigOptions.key("vw.stream-idle-timeout")
            .durationType().defaultValue(Duration.ofMinutes(10))
            .withDescription("Event time without frames after which a stream is marked idle and its state cleared.");

    /** The edge's limits as configured. */
    public static FrameLimits limits(org.apache.flink.configuration.Configuration conf) {
        return new FrameLimits(conf.get(MAX_FRAME_SIDE), conf.get(MAX_FRAME_PIXELS), conf.get(MAX_BATCH_FRAMES),
                FrameLimits.DEFAULT.maxTextLength());
    }

    private IngestOptions() {}
}
