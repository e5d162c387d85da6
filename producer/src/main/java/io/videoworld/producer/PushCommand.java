package io.videoworld.producer;

import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.FrameSource;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.ScreenshotFolderSource;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.media.video.VideoFrameSource;

import io.videoworld.core.Ids;
import io.videoworld.core.Names;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code videoworld push}: a video file, a live URL or a screenshot folder into Kafka. */
@Command(name = "push", mixinStandardHelpOptions = true,
        description = "Sample, resize and JPEG-encode frames from a video file, an http(s)/rtsp URL or a folder of "
                + "screenshots, and publish them as frame batches to Kafka.")
public final class PushCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SOURCE", description = "video file, http(s)/rtsp URL, or folder of PNG/JPEG screenshots")
    String source;

    @Option(names = "--stream-id", description = "stream id (default: the file or folder name, cleaned)")
    String streamId;

    @Option(names = "--bootstrap", defaultValue = "localhost:9092", description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE})")
    String bootstrap;

    @Option(names = "--topic", defaultValue = Names.FRAMES_TOPIC, description = "topic (default: ${DEFAULT-VALUE})")
    String topic;

    @Option(names = "--fps", description = "frames per second to sample (default: the video's own rate; 1 for screenshots)")
    Double fps;

    @Option(names = "--width", defaultValue = "640", description = "resize to this width, keeping aspect ratio; 0 keeps the source width (default: ${DEFAULT-VALUE})")
    int width;

    @Option(names = "--batch-frames", description = "frames per batch (default: 20 for screenshots, 1 s of frames for video)")
    Integer batchFrames;

    @Option(names = "--jpeg-quality", defaultValue = "85", description = "JPEG quality 1-100 (default: ${DEFAULT-VALUE})")
    int quality;

    @Option(names = "--encode-threads", description = "video: threads that resize and JPEG-encode while one decodes ahead; 0 encodes on "
            + "the decoding thread (default: one per core, at most 4)")
    Integer encodeThreads;

    @Option(names = "--sort", defaultValue = "name", description = "screenshot order and timing: name (1/fps apart) or mtime (file times) (default: ${DEFAULT-VALUE})")
    String sort;

    @Option(names = "--audio", description = "also send the file's audio track beside its frames, as 16 kHz mono chunks on --audio-topic; "
            + "a file with sound only (a podcast, a recording) is sent as its sound and one small black frame a second")
    boolean audio;

    @Option(names = "--audio-topic", defaultValue = Names.AUDIO_TOPIC, description = "topic of audio chunks (default: ${DEFAULT-VALUE})")
    String audioTopic;

    @Option(names = "--epoch-ms", description = "wall-clock time of the stream's start in epoch ms (default: now)")
    Long epochMs;

    @Option(names = "--exclude-app", split = ",", paramLabel = "NAME", description = "screens: leave out windows of this application "
            + "(read from the window's chrome on this machine before anything is sent; repeatable)")
    java.util.List<String> excludeApps = new java.util.ArrayList<>();

    @Option(names = "--exclude-title", paramLabel = "REGEX", description = "screens: leave out windows whose title or chrome text matches (repeatable)")
    java.util.List<String> excludeTitles = new java.util.ArrayList<>();

    @Option(names = "--exclude-domain", split = ",", paramLabel = "HOST", description = "screens: leave out windows showing this host or a subdomain in an address bar (repeatable)")
    java.util.List<String> excludeDomains = new java.util.ArrayList<>();

    @Option(names = "--exclude-private", description = "screens: leave out private or incognito browser windows")
    boolean excludePrivate;

    @Option(names = "--models", description = "the OCR model's folder for --exclude-* (default: $VW_MODELS)")
    String models;

    /** The exclusion rules the --exclude-* options give, as written for vw.privacy.exclude. */
    java.util.List<String> exclusionRules() {
        java.util.List<String> rules = new java.util.ArrayList<>();
        excludeApps.forEach(a -> rules.add("app:" + a));
        excludeTitles.forEach(t -> rules.add("title:" + t));
        excludeDomains.forEach(d -> rules.add("domain:" + d));
        if (excludePrivate) {
            rules.add("private");
        }
        return rules;
    }

    @Override
    public Integer call() throws Exception {
        io.videoworld.core.ExclusionRules rules = io.videoworld.core.ExclusionRules.parse(exclusionRules());
        String modelDir = models != null ? models : System.getenv("VW_MODELS");
        if (!rules.isEmpty() && (modelDir == null || modelDir.isBlank())) {
            throw new IllegalArgumentException("--exclude-* reads window titles with the OCR model: name its folder with --models or VW_MODELS");
        }
        if (quality < 1 || quality > 100) {
            throw new IllegalArgumentException("--jpeg-quality must be between 1 and 100, got " + quality);
        }
        if (encodeThreads != null && encodeThreads < 0) {
            throw new IllegalArgumentException("--encode-threads must be 0 or more, got " + encodeThreads);
        }
        if (fps != null && fps <= 0) {
            throw new IllegalArgumentException("--fps must be positive, got " + fps);
        }
        if (!audio && !source.contains("://") && io.videoworld.media.video.AudioOnlySource.isSoundOnly(source)) {
            throw new IllegalArgumentException(source + " has sound but no pictures: push it with --audio");
        }
        long epoch = epochMs != null ? epochMs : System.currentTimeMillis();
        JpegEncoder encoder = new JpegEncoder(width, quality);
        boolean url = source.contains("://");
        Path path = url ? null : Path.of(source);
        // Recorded as a URI (file:///abs/path for local files), so a query service on another machine can map it (--source-root).
        String recorded = SourceLocator.recordedUri(source);
        String id = streamId != null ? Ids.checkStreamId(streamId) : defaultStreamId(source);
        try (FrameSource frames = path != null && path.toFile().isDirectory()
                ? new ScreenshotFolderSource(path, ScreenshotFolderSource.Order.valueOf(sort.toUpperCase(Locale.ROOT)),
                        fps == null ? 1.0 : fps, epoch, encoder)
                : audio && path != null && io.videoworld.media.video.AudioOnlySource.isSoundOnly(source)
                        ? new io.videoworld.media.video.AudioOnlySource(source)
                        : new VideoFrameSource(source, fps == null ? 0 : fps, encoder,
                                encodeThreads != null ? encodeThreads : VideoFrameSource.defaultEncodeThreads());
                KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(bootstrap)) {
            int perBatch = batchFrames != null ? batchFrames
                    : frames.kind() == io.videoworld.core.SourceKind.SCREEN ? 20
                    : (int) Math.max(1, Math.round(frames.info().sampleFps()));
            Pusher pusher = new Pusher(producer, topic, perBatch, KafkaProducers.MAX_RECORD_BYTES);
            io.videoworld.perception.OcrEngine ocr = rules.isEmpty() ? null : io.videoworld.perception.OcrEngine.load(Path.of(modelDir));
            if (ocr != null) {
                pusher.excluding(new io.videoworld.engines.privacy.WindowExclusion(ocr, rules)::excludedBy);
            }
            // The sound goes out beside the pictures, each batch's seconds of it as the batch is sent.
            AudioFeed feed = audio && path != null && !path.toFile().isDirectory() && frames.info().hasAudio()
                    ? AudioFeed.start(producer, audioTopic, source, id, epoch) : null;
            double fpsSent = frames.info().sampleFps() > 0 ? frames.info().sampleFps() : 1;
            java.util.function.LongConsumer withSound = n -> {
                if (feed != null) {
                    feed.sendUntil(Math.round(n * 1000 / fpsSent));
                }
            };
            PushSummary summary;
            if (System.console() != null) {
                try (ProgressBar bar = new ProgressBarBuilder().setTaskName("push " + id)
                        .setInitialMax(frames.expectedFrames()).setStyle(ProgressBarStyle.ASCII).setUnit(" frames", 1)
                        .build()) {
                    summary = pusher.push(frames, id, recorded, epoch, n -> {
                        bar.stepTo(n);
                        withSound.accept(n);
                    });
                }
            } else {
                summary = pusher.push(frames, id, recorded, epoch, withSound);
            }
            System.out.println(summary.line());
            if (ocr != null) {
                ocr.close();
                System.out.println("excluded on this machine (sent as grey frames naming the rule): " + pusher.excluded());
            }
            if (feed != null) {
                try (feed) {
                    System.out.println("audio: " + feed.finish() + " chunks of up to 1 s to " + audioTopic + ", sent beside the frames");
                }
            } else if (audio && path != null && !path.toFile().isDirectory()) {
                System.out.println("audio: none (" + source + " has no audio track)");
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException(kafkaProblem(e), e);
        } catch (java.io.IOException e) {
            if (e.getCause() instanceof org.apache.kafka.common.KafkaException k) {
                throw new IllegalStateException(kafkaProblem(k), e);
            }
            throw e;
        }
        return 0;
    }

    /** One line saying what went wrong with Kafka and what to do about it. */
    private String kafkaProblem(org.apache.kafka.common.KafkaException e) {
        if (e instanceof org.apache.kafka.common.errors.TimeoutException) {
            return "Kafka at " + bootstrap + " did not answer: start it (bin/videoworld demo starts one on localhost:9092) "
                    + "or name yours with --bootstrap HOST:PORT";
        }
        if (e instanceof org.apache.kafka.common.errors.RecordTooLargeException) {
            return "Kafka refused a batch as too large: lower --batch-frames or --width, or raise the topic's max.message.bytes";
        }
        return "Kafka at " + bootstrap + " refused the push (" + e.getMessage() + "); check --bootstrap and --topic";
    }

    /** A stream id from a path or URL: its last name without extension, reduced to the id alphabet. */
    public static String defaultStreamId(String source) {
        String s = source.replaceAll("[/\\\\]+$", "");
        s = s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1);
        int dot = s.lastIndexOf('.');
        if (dot > 0) {
            s = s.substring(0, dot);
        }
        s = s.replaceAll("[^A-Za-z0-9._-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        if (s.isEmpty()) {
            s = "stream";
        }
        return s.length() > 128 ? s.substring(0, 128) : s;
    }
}
