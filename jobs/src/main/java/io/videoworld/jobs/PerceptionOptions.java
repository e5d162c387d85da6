package io.videoworld.jobs;

import io.videoworld.engines.sampling.LiveShedding;
import io.videoworld.engines.gates.ScreenGate;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

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
            .defaultValue(16).withDescription("Keyframes in flight per subtask before back-pressure (each is checkpointed with its JPEG); "
                    + "with the change gate on, keyframes waiting for or in change-gated perception.");
    public static final ConfigOption<Integer> WORKERS = ConfigOptions.key("vw.perception.workers").intType()
            .defaultValue(1).withDescription("With the change gate on: threads per subtask that read keyframes (each with its own models), "
                    + "so that the task thread passes frames, shots and samples meanwhile; a stream's keyframes are still read one after "
                    + "another, in order. 0 reads on the task thread, blocking the job's chain for as long as a keyframe takes.");

    public static final ConfigOption<Integer> NICE = ConfigOptions.key("vw.perception.nice").intType()
            .defaultValue(0).withDescription("With the change gate on and vw.perception.workers > 0: the reader threads (OCR, embeddings, "
                    + "descriptors, the keyframe detector, and their ONNX Runtime threads) run this much nicer (Linux), so on busy cores the "
                    + "frame path (and a push in the same JVM) goes first; 0 keeps normal priority.");
    public static final ConfigOption<Boolean> CHANGE_GATE = ConfigOptions.key("vw.perception.change-gate").booleanType()
            .defaultValue(true).withDescription("OCR only the bands of a keyframe whose tiles changed since the stream's last perceived "
                    + "keyframe (a scroll is carried as a shift), keeping the other lines; false reads every keyframe whole, in batches "
                    + "across streams. The last keyframe is keyed state (checkpointed); with the gate on, keyframes are read on "
                    + "vw.perception.workers threads, and checkpoints turn unaligned after 2 s of alignment rather than wait behind a full queue. "
                    + "Live streams' keyframes are shed when perception falls behind (vw.perception.live-max-queue, live-cpu-share). "
                    + "See docs/perception.md.");
    public static final ConfigOption<Integer> CHANGE_GATE_FULL_EVERY = ConfigOptions.key("vw.perception.change-gate.full-every").intType()
            .defaultValue(20).withDescription("Every this many keyframes of a stream is read whole, which bounds what carried lines can drift.");
    public static final ConfigOption<Double> CHANGE_GATE_FULL_FRACTION = ConfigOptions.key("vw.perception.change-gate.full-fraction")
            .doubleType().defaultValue(0.5).withDescription("A keyframe whose changed bands would cover more than this share of it is read whole.");
    public static final ConfigOption<Integer> CHANGE_GATE_LIVE_SLICES = ConfigOptions.key("vw.perception.change-gate.live-slices").intType()
            .defaultValue(3).withDescription("A whole read of a live stream's keyframe (its first, a big change, every full-every-th) is split "
                    + "into this many bands of rows, top first, one read with each of the stream's next keyframes (with what changed), "
                    + "so that no read holds the other streams' turns for as long as a whole read of a large screen takes; until the last band "
                    + "is read, the rows below it have no text. 1 reads whole at once. Files are always read whole.");
    public static final ConfigOption<Duration> MAX_QUEUE = ConfigOptions.key("vw.perception.live-max-queue").durationType()
            .defaultValue(Duration.ofSeconds(3)).withDescription("With the change gate on: a keyframe of a live stream (a source with "
                    + "neither duration nor frame count) that waited longer than this for perception is not perceived but indexed with perception_status shed, "
                    + "the stream's last perceived text and objects carried and the reason in perception_error, so that perception keeps "
                    + "up with the newest keyframes instead of falling minutes behind. 0 never sheds. Files are always read whole.");
    public static final ConfigOption<Double> LIVE_CPU_SHARE = ConfigOptions.key("vw.perception.live-cpu-share").doubleType()
            .defaultValue(0.5).withDescription("With the change gate on: the share of each perception subtask's wall-clock time that "
                    + "perceiving live keyframes may take (measured, with a 10 s burst); a live keyframe past it is shed like one that "
                    + "queued too long, except a stream's first. Leaves the other stages (frames, shots, detection) their CPU: on a small "
                    + "machine OCR would otherwise take it all and the whole job would fall behind. 0 is no limit.");
    public static final ConfigOption<Boolean> LIVE_QUEUE_FROM_CAPTURE = ConfigOptions.key("vw.perception.live-max-queue.from-capture")
            .booleanType().defaultValue(true).withDescription("With the change gate on: a live keyframe's wait counts from the capture of the "
                    + "frame batch that let it out of the shot detector when that batch was already late, so the backlog upstream of the shot "
                    + "detector (a back-pressured job) counts towards live-max-queue; false counts only from when the shot detector let it go.");
    public static final ConfigOption<Duration> LIVE_TURN_PERIOD = ConfigOptions.key("vw.perception.live-turn-period").durationType()
            .defaultValue(Duration.ofSeconds(10)).withDescription("With the change gate on: a live stream whose keyframes have not been "
                    + "read for this long has its newest queued keyframe read whatever live-max-queue and live-cpu-share say, so that "
                    + "every stream (a camera beside busy screens too) is read at least once a period and what is shed is the streams "
                    + "read most recently; a free reader also goes to the stream read longest ago first. 0 turns this off.");
    public static final ConfigOption<Boolean> LIVE_LATEST_WINS = ConfigOptions.key("vw.perception.live-latest-wins").booleanType()
            .defaultValue(true).withDescription("With the change gate on: a live stream's keyframe whose stream has a newer keyframe queued is "
                    + "shed (text and objects carried) when its turn comes, whatever the other limits, so a stream that fell behind is read "
                    + "at its newest keyframe; false works through its queued keyframes under the other limits.");
    private PerceptionOptions() {}

    public static LiveShedding shedding(Configuration conf) {
        return new LiveShedding(conf.get(MAX_QUEUE).toMillis(), conf.get(LIVE_CPU_SHARE), conf.get(LIVE_TURN_PERIOD).toMillis(),
                conf.get(LIVE_LATEST_WINS));
    }

    public static ScreenGate.Settings gate(Configuration conf) {
        return new ScreenGate.Settings(conf.get(CHANGE_GATE), conf.get(CHANGE_GATE_FULL_EVERY), conf.get(CHANGE_GATE_FULL_FRACTION),
                conf.get(CHANGE_GATE_LIVE_SLICES));
    }
}
