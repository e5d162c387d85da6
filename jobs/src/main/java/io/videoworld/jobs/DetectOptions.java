package io.videoworld.jobs;

import io.videoworld.engines.perception.DetectorSettings;

import io.videoworld.engines.gates.MotionGate;
import io.videoworld.engines.tracking.TrackerParams;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** Object detection and tracking settings of the ingest job. */
public final class DetectOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.detect.enabled").booleanType()
            .defaultValue(true).withDescription("Detect objects on sampled frames and keyframes, and track them.");
    public static final ConfigOption<Double> FPS = ConfigOptions.key("vw.detect.fps").doubleType()
            .defaultValue(4.0).withDescription("Frames per second of presentation time sampled for detection and tracking "
                    + "(--detect-fps); keyframes are detected in any case.");
    public static final ConfigOption<String> MODEL = ConfigOptions.key("vw.detect.model").stringType()
            .defaultValue("centernet").withDescription("centernet (COCO-80 from deploy/models.sh), yolo:/path/model.onnx "
                    + "(Ultralytics export) or torchscript:/path/model.pt (YOLO layout through DJL's PyTorch engine, which no build of this project "
                    + "includes: put ai.djl.pytorch:pytorch-engine and its native library on the classpath to use it).");
    public static final ConfigOption<List<String>> LABELS = ConfigOptions.key("vw.detect.labels").stringType().asList()
            .defaultValues().withDescription("Class names of a YOLO model, in order, separated by ';' (COCO-80 when empty).");
    public static final ConfigOption<Integer> INPUT_SIZE = ConfigOptions.key("vw.detect.input-size").intType()
            .defaultValue(0).withDescription("Square input side the detector reads frames at; 0 picks the detector's default "
                    + "(640 for YOLO; 512 for CenterNet, the side it was trained at). CenterNet takes any multiple of 32 from 128 "
                    + "to 1024: smaller sides are faster and find fewer small objects (bin/videoworld bench detector measures both).");
    public static final ConfigOption<Double> MIN_SCORE = ConfigOptions.key("vw.detect.min-score").doubleType()
            .defaultValue(0.1).withDescription("Boxes below this confidence are dropped; weak boxes still help the tracker.");
    public static final ConfigOption<Integer> MAX_BATCH = ConfigOptions.key("vw.detect.max-batch").intType()
            .defaultValue(16).withDescription("Most frames in one detector batch per subtask.");
    public static final ConfigOption<Integer> WORKERS = ConfigOptions.key("vw.detect.workers").intType()
            .defaultValue(1).withDescription("Detector calls run at once per subtask (one model, a predictor per worker): on a CPU one "
                    + "call of a small detector leaves cores idle; results keep their order.");
    public static final ConfigOption<Duration> MAX_WAIT = ConfigOptions.key("vw.detect.max-wait").durationType()
            .defaultValue(Duration.ofMillis(50)).withDescription("Longest a frame waits for its batch to fill.");
    public static final ConfigOption<Duration> TIMEOUT = ConfigOptions.key("vw.detect.timeout").durationType()
            .defaultValue(Duration.ofMinutes(10)).withDescription("A frame not detected by then is counted and logged as a failure and skipped by "
                    + "the tracker. Long on purpose: the bounded capacity makes the job slow down (back-pressure) well before this.");
    public static final ConfigOption<Integer> CAPACITY = ConfigOptions.key("vw.detect.capacity").intType()
            .defaultValue(64).withDescription("Frames in flight per subtask before back-pressure.");
    public static final ConfigOption<Boolean> OWN_SOURCE = ConfigOptions.key("vw.detect.own-source").booleanType()
            .defaultValue(true).withDescription("Detection reads the frames through its own Kafka source (consumer group "
                    + "<vw.kafka.group-id>.detection, offsets in the same checkpoints), so a detector behind holds back only detection and "
                    + "tracks, not frame documents, shots and keyframe perception; false shares the frame path's source (one read).");
    public static final ConfigOption<Boolean> SCREENS = ConfigOptions.key("vw.detect.screens").booleanType()
            .defaultValue(false).withDescription("With vw.detect.own-source: screen streams' frames are sampled for detection and "
                    + "tracking too. false (default): only videos' are; a screen's keyframes are still detected by perception (objects "
                    + "on its perception documents), but it gets no detection or track documents, so that detection does not take the CPU "
                    + "the screens' OCR needs.");
    public static final ConfigOption<Integer> NICE = ConfigOptions.key("vw.detect.nice").intType()
            .defaultValue(10).withDescription("With vw.detect.own-source: the detection task's threads (the detector, its ONNX Runtime threads "
                    + "and what is chained with them: the Kafka read too without the motion gate) run this much nicer (Linux), so on busy cores frame documents, shots and keyframe perception "
                    + "go first and detection takes the idle time; 0 keeps normal priority.");
    public static final ConfigOption<Integer> LIVE_NICE = ConfigOptions.key("vw.detect.live-nice").intType()
            .defaultValue(-1).withDescription("With vw.detect.own-source: the nice value of live streams' detection (cameras, screens as "
                    + "captured), when it should differ from vw.detect.nice; live streams then get their own detector (its own task and "
                    + "model session), each detector its own chain. -1 (default): one detector at vw.detect.nice for every stream.");
    public static final ConfigOption<Duration> LIVE_MAX_LAG = ConfigOptions.key("vw.detect.live-max-lag").durationType()
            .defaultValue(Duration.ofSeconds(3)).withDescription("A live stream's sample more than this behind the wall clock when its "
                    + "detection would start, while a newer sample of the stream waits, is dropped (no detection document; the tracker "
                    + "predicts its tracks over the gap) so that the stream skips to its newest sample instead of detecting a stale queue "
                    + "(counted in vwDetectDropped). Files and folders are never dropped. 0 detects every sample however late.");
    public static final ConfigOption<Boolean> LIVE_BATCH_LIMIT = ConfigOptions.key("vw.detect.live-max-lag.batch-limit").booleanType()
            .defaultValue(true).withDescription("With live-max-lag over 0: while live samples are in flight, a detector batch takes only as many "
                    + "samples as the detector was last measured to detect in half of live-max-lag (at least one, at most max-batch); the "
                    + "rest wait and are dropped if they fall behind. The samples of such a batch are also detected one at a time, each checked "
                    + "as its own detection starts, so a detector that slows down within a batch still drops what fell behind. "
                    + "false: batches of up to max-batch, checked as they start.");
    public static final ConfigOption<Boolean> MOTION_GATE = ConfigOptions.key("vw.detect.motion-gate").booleanType()
            .defaultValue(false).withDescription("A sample in which nothing moved since the stream's last detected sample (grey thumbnails "
                    + "compared) keeps that sample's detections instead of running the detector; false detects every sample. The last "
                    + "detected thumbnail and detections are keyed state (checkpointed).");
    public static final ConfigOption<Double> MOTION_GATE_MIN_MOTION = ConfigOptions.key("vw.detect.motion-gate.min-motion").doubleType()
            .defaultValue(0.002).withDescription("Share of the 160-pixel-wide thumbnail's pixels that must change for a new detection.");
    public static final ConfigOption<Integer> MOTION_GATE_FULL_EVERY = ConfigOptions.key("vw.detect.motion-gate.full-every").intType()
            .defaultValue(8).withDescription("Every this many samples of a stream is detected in any case (2 s at 4 fps).");

    public static final ConfigOption<Double> TRACK_HIGH_SCORE = ConfigOptions.key("vw.track.high-score").doubleType()
            .defaultValue(0.4).withDescription("Detections above this are matched first and may start tracks (ByteTrack's "
                    + "track_thresh; CenterNet scores run lower than YOLOX's, hence below ByteTrack's 0.5).");
    public static final ConfigOption<Duration> TRACK_LOST = ConfigOptions.key("vw.track.lost").durationType()
            .defaultValue(Duration.ofSeconds(2)).withDescription("How long an unseen track is still matched by its box.");
    public static final ConfigOption<Duration> TRACK_REID = ConfigOptions.key("vw.track.reid-window").durationType()
            .defaultValue(Duration.ofSeconds(6)).withDescription("How long an unseen track can still be picked up by appearance "
                    + "(after an occlusion or a cut); 0 for plain ByteTrack.");
    public static final ConfigOption<Integer> TRACK_EMIT_EVERY = ConfigOptions.key("vw.track.emit-every").intType()
            .defaultValue(10).withDescription("A live track's document is rewritten every this many matches.");
    public static final ConfigOption<Duration> TRACK_IDLE = ConfigOptions.key("vw.track.idle-timeout").durationType()
            .defaultValue(Duration.ofSeconds(30)).withDescription("Event time after a stream's latest sample when its tracks end.");

    private DetectOptions() {}

    public static DetectorSettings detector(Configuration conf) {
        return new DetectorSettings(conf.get(MODEL), List.copyOf(conf.get(LABELS)), conf.get(INPUT_SIZE), conf.get(MIN_SCORE));
    }

    public static MotionGate.Settings gate(Configuration conf) {
        return new MotionGate.Settings(conf.get(MOTION_GATE), conf.get(MOTION_GATE_FULL_EVERY), conf.get(MOTION_GATE_MIN_MOTION));
    }

    /** Tracker thresholds with durations turned into sample counts at the detection rate. */
    public static TrackerParams tracker(Configuration conf) {
        double fps = conf.get(FPS);
        int lost = (int) Math.max(1, Math.round(conf.get(TRACK_LOST).toMillis() * fps / 1000));
        int reid = (int) Math.round(conf.get(TRACK_REID).toMillis() * fps / 1000);
        TrackerParams d = TrackerParams.defaults(lost, reid);
        double high = conf.get(TRACK_HIGH_SCORE);
        return new TrackerParams(high, d.lowThresh(), d.matchThresh(), d.secondMatchThresh(), d.unconfirmedMatchThresh(), lost, reid,
                d.reidMinSimilarity(), d.appearanceGate(), d.cutDistance(), d.timelineCap());
    }
}
