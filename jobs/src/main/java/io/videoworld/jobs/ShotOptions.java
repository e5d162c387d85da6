package io.videoworld.jobs;

import io.videoworld.engines.shots.ShotParams;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** Shot detection and keyframe settings of the ingest job; defaults are {@link ShotParams#defaults()}. */
public final class ShotOptions {
    private static final ShotParams D = ShotParams.defaults();

    public static final ConfigOption<String> DETECTORS = ConfigOptions.key("vw.shots.detectors").stringType()
            .defaultValue("adaptive,fade,dissolve")
            .withDescription("Comma-separated detectors whose boundaries are combined: content, adaptive, fade, dissolve, wipe (opt-in).");
    public static final ConfigOption<Double> CONTENT_THRESHOLD = ConfigOptions.key("vw.shots.content-threshold")
            .doubleType().defaultValue(D.contentThreshold()).withDescription("Content score (0-255) that makes a cut.");
    public static final ConfigOption<Double> ADAPTIVE_RATIO = ConfigOptions.key("vw.shots.adaptive-ratio")
            .doubleType().defaultValue(D.adaptiveRatio()).withDescription("Score over neighbours' average that makes an adaptive cut.");
    public static final ConfigOption<Double> FADE_FLOOR = ConfigOptions.key("vw.shots.fade-floor")
            .doubleType().defaultValue(D.fadeFloor()).withDescription("Mean brightness (0-255) under which a frame is black.");
    public static final ConfigOption<Double> DISSOLVE_THRESHOLD = ConfigOptions.key("vw.shots.dissolve-threshold")
            .doubleType().defaultValue(D.dissolveThreshold())
            .withDescription("RMS pixel difference (0-255) of the frames before and after a gradual transition that it must reach.");
    public static final ConfigOption<Duration> MIN_SHOT = ConfigOptions.key("vw.shots.min-length").durationType()
            .defaultValue(Duration.ofMillis(Math.round(D.minShotSec() * 1000))).withDescription("Shortest shot.");
    public static final ConfigOption<Duration> KEYFRAME_EVERY = ConfigOptions.key("vw.shots.keyframe-every").durationType()
            .defaultValue(Duration.ofMillis(Math.round(D.keyframeEverySec() * 1000)))
            .withDescription("Periodic keyframes inside long shots; 0 for none.");
    public static final ConfigOption<Duration> SCREEN_KEYFRAME_EVERY = ConfigOptions.key("vw.shots.screen-keyframe-every").durationType()
            .defaultValue(Duration.ofMillis(Math.round(D.screenKeyframeEverySec() * 1000)))
            .withDescription("Screens: periodic keyframes (each perceived, so each read by OCR); 1 s reads every screen that is not a near-duplicate.");
    public static final ConfigOption<Double> SCENE_THRESHOLD = ConfigOptions.key("vw.shots.scene-threshold")
            .doubleType().defaultValue(D.sceneThreshold()).withDescription("Histogram distance under which a shot joins a recent shot's scene.");
    public static final ConfigOption<Integer> SCREEN_DUPLICATE_BITS = ConfigOptions.key("vw.shots.screen-duplicate-bits")
            .intType().defaultValue(D.screenDuplicateBits())
            .withDescription("Screens: frames within this many of 64 perceptual-hash bits of the last kept one, and with no thumbnail "
                    + "pixel changed by more than 24 grey levels, are dropped.");
    public static final ConfigOption<Duration> IDLE_GAP = ConfigOptions.key("vw.shots.idle-gap").durationType()
            .defaultValue(Duration.ofSeconds(30)).withDescription("Event time without frames after which a live stream's open shot closes.");
    public static final ConfigOption<String> FRAME_STORE = ConfigOptions.key("vw.frame-store").stringType()
            .defaultValue(".vw/frames").withDescription("Keyframe store shared with the query service: a directory, or a URI through Flink's FileSystem "
                    + "(file:///shared/frames, s3://bucket/frames, hdfs://namenode/frames).");

    private ShotOptions() {}

    /** The detector settings a configuration describes. */
    public static ShotParams params(Configuration conf) {
        return new ShotParams(ShotParams.parseDetectors(conf.get(DETECTORS)), conf.get(CONTENT_THRESHOLD),
                conf.get(ADAPTIVE_RATIO), D.adaptiveMinContent(), D.adaptiveWindow(), conf.get(FADE_FLOOR),
                D.dissolveWindowSec(), conf.get(DISSOLVE_THRESHOLD), D.dissolveMaxStep(), D.flashFrames(),
                conf.get(MIN_SHOT).toMillis() / 1000.0, conf.get(KEYFRAME_EVERY).toMillis() / 1000.0,
                conf.get(SCREEN_KEYFRAME_EVERY).toMillis() / 1000.0, conf.get(SCENE_THRESHOLD), conf.get(SCREEN_DUPLICATE_BITS));
    }
}
