package io.videoworld.jobs;

import io.videoworld.engines.perception.DetectorSettings;
import io.videoworld.core.ExclusionRules;
import io.videoworld.operators.privacy.ExcludeWindows;

import io.videoworld.connectors.flink.es.ElasticsearchSink;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.connectors.es.IndexSettings;
import io.videoworld.connectors.flink.kafka.DeadLetterSerializer;
import io.videoworld.connectors.flink.kafka.FrameBatchDeserializer;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.core.ActivityDoc;
import io.videoworld.core.TrackFace;
import io.videoworld.core.AudioChunk;
import io.videoworld.operators.people.FaceIdentities;
import io.videoworld.operators.people.PersonActivities;
import io.videoworld.operators.people.PersonInput;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.IngestedAudio;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.connectors.flink.kafka.AudioChunkDeserializer;
import io.videoworld.operators.audio.RouteAudio;
import io.videoworld.operators.audio.SpeechOperator;
import io.videoworld.core.DecidedBatch;
import io.videoworld.operators.deadletters.Stages;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.FeatureBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.SampledFrame;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Observation;
import io.videoworld.operators.memory.EpisodeBatcher;
import io.videoworld.operators.memory.EpisodeContext;
import io.videoworld.operators.memory.EpisodeWriter;
import io.videoworld.operators.graph.GraphWrites;
import io.videoworld.core.Perception;
import io.videoworld.core.TrackDoc;
import io.videoworld.operators.inference.DetectionFunction;
import io.videoworld.operators.tracking.DetectableStreams;
import io.videoworld.operators.tracking.SampleFrames;
import io.videoworld.operators.tracking.TrackerOperator;
import io.videoworld.operators.inference.PerceptionFunction;
import io.videoworld.operators.inference.GatedPerception;
import io.videoworld.engines.sampling.QueuedKeyframe;
import io.videoworld.operators.inference.StampKeyframes;
import io.videoworld.core.VideoDoc;
import io.videoworld.operators.inference.MotionGateFunction;
import io.videoworld.operators.inference.CarryDetections;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import io.videoworld.core.Ingested;
import io.videoworld.core.Segment;
import io.videoworld.connectors.flink.framestore.FrameStoreSink;
import io.videoworld.operators.shots.ExtractFeatures;
import io.videoworld.operators.shots.ShotDetector;
import org.apache.flink.util.Collector;
import io.videoworld.operators.CountDeadLetters;
import io.videoworld.operators.RouteDeadLetters;
import io.videoworld.operators.SplitDeadLetters;
import io.videoworld.core.DetectionResult;
import io.videoworld.core.PerceptionResult;
import io.videoworld.operators.StreamCatalog;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ParameterTool;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The ingest job: frame batches from Kafka, dead letters to the DLQ, frame and stream documents
 * to Elasticsearch. Wiring only; the logic is in the operators and connectors it names.
 */
public final class IngestJob {
    private static final TypeInformation<EsWrite> ES_WRITE = TypeInformation.of(EsWrite.class);
    private static final TypeInformation<Observation> OBSERVATION = TypeInformation.of(Observation.class);
    private static final TypeInformation<SampledFrame> SAMPLED_FRAME = TypeInformation.of(SampledFrame.class);
    private static final TypeInformation<DetectedFrame> DETECTED_FRAME = TypeInformation.of(DetectedFrame.class);

    private IngestJob() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = Configuration.fromMap(ParameterTool.fromArgs(args).toMap());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        build(env, conf);
        env.execute("videoworld-ingest");
    }

    private static void segmentWrites(Segment s, Collector<EsWrite> out) {
        out.collect(EsDocuments.segment(s));
        EsDocuments.keyframes(s).forEach(out::collect);
    }

    private static KafkaSource<Ingested> frameSource(Configuration conf, String groupId) {
        return KafkaSource.<Ingested>builder()
                .setBootstrapServers(conf.get(IngestOptions.KAFKA_BOOTSTRAP))
                .setTopics(conf.get(IngestOptions.FRAMES_TOPIC))
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new FrameBatchDeserializer(IngestOptions.limits(conf)))
                .setProperty("max.partition.fetch.bytes", String.valueOf(2 * KafkaProducers.MAX_RECORD_BYTES))
                .setProperty("fetch.max.bytes", String.valueOf(4 * KafkaProducers.MAX_RECORD_BYTES))
                .build();
    }

    /**
     * The detection branch's own read of the frames, decoded as on the frame path; its dead letters (bad records, frames that
     * do not decode) are the frame path's too and are written from there only, so only its own filter's are routed.
     */
    private static DataStream<FeatureBatch> detectionFeatures(StreamExecutionEnvironment env, Configuration conf,
            WatermarkStrategy<Ingested> watermarks, DeadLetterRoutes routes) {
        SingleOutputStreamOperator<FrameBatch> decoded = env.fromSource(frameSource(conf, conf.get(IngestOptions.GROUP_ID) + ".detection"), watermarks, "frames from Kafka for detection")
                .uid("kafka-source-detection")
                .process(new RouteDeadLetters()).name("decode for detection").uid("route-dead-letters-detection");
        // Before the features: a screen not detected is not decoded here either.
        return routes.tap(decoded.process(Stages.filter("detectable-streams", new DetectableStreams(conf.get(DetectOptions.SCREENS))),
                        decoded.getType()).name("streams to detect").uid("detectable-streams"))
                .process(new ExtractFeatures()).name("frame features for detection").uid("frame-features-detection");
    }

    /** The detector over {@code samples}, ordered (the tracker needs each stream's samples in order), with its dead letters split off. */
    private static SingleOutputStreamOperator<DetectedFrame> detector(DataStream<SampledFrame> samples, Configuration conf, int nice, String uid,
            boolean ownChain, DeadLetterRoutes routes) {
        SingleOutputStreamOperator<DetectionResult> detected = AsyncDataStream.orderedWait(samples,
                new DetectionFunction(conf.get(PerceptionOptions.MODELS), DetectOptions.detector(conf), conf.get(DetectOptions.WORKERS),
                        conf.get(DetectOptions.MAX_BATCH), conf.get(DetectOptions.MAX_WAIT).toMillis(), nice,
                        conf.get(DetectOptions.LIVE_MAX_LAG).toMillis(), conf.get(DetectOptions.LIVE_BATCH_LIMIT)),
                conf.get(DetectOptions.TIMEOUT).toMillis(), TimeUnit.MILLISECONDS, conf.get(DetectOptions.CAPACITY))
                .name(uid.equals("detection") ? "object detection" : "object detection, live streams").uid(uid);
        if (ownChain) {
            detected.startNewChain();
        }
        return routes.tap(detected.process(new SplitDeadLetters<DetectionResult, DetectedFrame>(uid), TypeInformation.of(DetectedFrame.class))
                .name("detection dead letters").uid(uid + "-dead-letters"));
    }

    /** Adds the ingest pipeline to an environment; also used by the launcher and the tests. */
    public static void build(StreamExecutionEnvironment env, Configuration conf) {
        build(env, conf, UnaryOperator.identity());
    }

    /**
     * The same, with {@code beforeEpisodeWriter} applied to the decided memory batches just before
     * the writer: the place where the exactly-once test injects failures. One method a stage, in the
     * order the stages are added; every stage's dead letters go through {@code routes}.
     */
    public static void build(StreamExecutionEnvironment env, Configuration conf, UnaryOperator<DataStream<EpisodeBatch>> beforeEpisodeWriter) {
        configure(env, conf);
        WatermarkStrategy<Ingested> watermarks = watermarks(conf);
        DeadLetterRoutes routes = new DeadLetterRoutes();
        SingleOutputStreamOperator<FrameBatch> batches = edge(env, conf, watermarks, routes);
        ExclusionRules exclusions = PrivacyOptions.exclusions(conf);
        // Before any stage sees the pixels: an excluded window goes on as a grey frame, its exclusion as a document (frames the
        // producer excluded are only recorded; with no rules of the job's or the streams' that is all this stage does).
        batches = routes.tap(batches.process(new ExcludeWindows(conf.get(PerceptionOptions.MODELS), exclusions,
                        conf.get(PrivacyOptions.STREAM_RULES) ? conf.get(IngestOptions.ES_URL) : null),
                TypeInformation.of(FrameBatch.class)).name("exclude windows").uid("exclude-windows"));
        SingleOutputStreamOperator<FrameDoc> frames = catalog(batches, conf, routes);
        DataStream<VideoDoc> videos = frames.getSideOutput(StreamCatalog.VIDEOS);
        Shots shots = shots(batches, conf, routes);
        Outputs out = documents(frames, videos, shots.segments(), routes);
        if (conf.get(PerceptionOptions.ENABLED)) {
            out = perception(out, shots.keyframes(), videos, conf, routes);
        }
        if (conf.get(DetectOptions.ENABLED)) {
            out = detectionAndTracking(out, env, conf, watermarks, shots.features(), routes);
        }
        if (conf.get(AudioOptions.ENABLED)) {
            out = audio(out, env, conf, routes);
        }
        if (conf.get(MemoryOptions.ENABLED)) {
            out = memory(out, conf, beforeEpisodeWriter, routes);
        }
        sinks(out.writes().union(batches.getSideOutput(ExcludeWindows.EXCLUDED)), conf, routes);
    }

    /** What the shot stage hands on: the frames' features, the shots and scenes, and their keyframes. */
    private record Shots(DataStream<FeatureBatch> features, SingleOutputStreamOperator<Segment> segments, DataStream<Keyframe> keyframes) {}

    /** What the stages so far write to Elasticsearch and hand to memory. */
    private record Outputs(DataStream<EsWrite> writes, DataStream<Observation> observations) {}

    /** Generic types off, exactly-once checkpoints; unaligned ones when gated perception may hold its task thread. */
    private static void configure(StreamExecutionEnvironment env, Configuration conf) {
        env.getConfig().configure(new Configuration().set(PipelineOptions.GENERIC_TYPES, false), IngestJob.class.getClassLoader());
        env.enableCheckpointing(conf.get(IngestOptions.CHECKPOINT_INTERVAL).toMillis(), CheckpointingMode.EXACTLY_ONCE);
        env.configure(new Configuration().set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem")
                .set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, conf.get(IngestOptions.CHECKPOINT_DIR)), IngestJob.class.getClassLoader());
        if (conf.get(PerceptionOptions.ENABLED) && conf.get(PerceptionOptions.CHANGE_GATE)) {
            // Gated perception holds vw.perception.capacity keyframes; when they are all waiting its task thread waits for a read
            // (seconds), and a barrier queued behind would hold every checkpoint (and the DLQ's transaction), so after 2 s it
            // overtakes them, in-flight data saved. (With vw.perception.workers 0 it reads on the task thread, every keyframe.)
            env.configure(new Configuration().set(CheckpointingOptions.ENABLE_UNALIGNED, true)
                    .set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, java.time.Duration.ofSeconds(2)), IngestJob.class.getClassLoader());
        }
    }

    private static WatermarkStrategy<Ingested> watermarks(Configuration conf) {
        return WatermarkStrategy
                .<Ingested>forBoundedOutOfOrderness(conf.get(IngestOptions.MAX_OUT_OF_ORDERNESS))
                .withTimestampAssigner((record, kafkaTs) -> record.eventTimeMs())
                .withIdleness(conf.get(IngestOptions.SOURCE_IDLENESS));
    }

    /** Source and edge: frame batches from Kafka, decoded, bad records routed as dead letters. */
    private static SingleOutputStreamOperator<FrameBatch> edge(StreamExecutionEnvironment env, Configuration conf,
            WatermarkStrategy<Ingested> watermarks, DeadLetterRoutes routes) {
        return routes.tap(env.fromSource(frameSource(conf, conf.get(IngestOptions.GROUP_ID)),
                        watermarks, "frames from Kafka")
                .uid("kafka-source")
                .process(new RouteDeadLetters()).name("decode and route dead letters").uid("route-dead-letters"));
    }

    /** Catalog: frames numbered per stream, the stream documents on a side output. */
    private static SingleOutputStreamOperator<FrameDoc> catalog(DataStream<FrameBatch> batches, Configuration conf, DeadLetterRoutes routes) {
        return routes.tap(batches
                .keyBy(FrameBatch::streamId, Types.STRING)
                .process(new StreamCatalog(conf.get(IngestOptions.STREAM_IDLE_TIMEOUT).toMillis()))
                .name("number frames, keep stream info").uid("stream-catalog"));
    }

    /** Features and shots: each frame's features, the shots and scenes they cut into, keyframes to the frame store. */
    private static Shots shots(DataStream<FrameBatch> batches, Configuration conf, DeadLetterRoutes routes) {
        SingleOutputStreamOperator<FeatureBatch> features = routes.tap(batches
                .process(new ExtractFeatures()).name("frame features").uid("frame-features"));
        SingleOutputStreamOperator<Segment> segments = routes.tap(features
                .keyBy(FeatureBatch::streamId, Types.STRING)
                .process(new ShotDetector(ShotOptions.params(conf), conf.get(ShotOptions.IDLE_GAP).toMillis()))
                .name("shots and scenes").uid("shot-detector"));
        DataStream<Keyframe> keyframes = segments.getSideOutput(ShotDetector.KEYFRAMES);
        if (!PrivacyOptions.redactsPixels(conf)) { // otherwise perception stores them once read, redacted lines blacked out
            keyframes.sinkTo(new FrameStoreSink(conf.get(ShotOptions.FRAME_STORE))).name("keyframes to the frame store").uid("frame-store");
        }
        return new Shots(features, segments, keyframes);
    }

    /** The documents of frames, streams, shots, scenes and keyframes, and the shots and streams memory observes. */
    private static Outputs documents(DataStream<FrameDoc> frames, DataStream<VideoDoc> videos, DataStream<Segment> segments,
            DeadLetterRoutes routes) {
        DataStream<EsWrite> writes = routes.tap(frames.process(Stages.map("frame-documents", EsDocuments::frame), ES_WRITE)
                        .name("frame documents"))
                .union(routes.tap(videos.process(Stages.map("stream-documents", EsDocuments::video), ES_WRITE).name("stream documents")),
                        routes.tap(segments.process(Stages.flatMap("segment-documents", IngestJob::segmentWrites), ES_WRITE)
                                .name("shot, scene and keyframe documents")));
        DataStream<Observation> observations = routes.tap(segments.process(Stages.map("shots-for-memory", Observation::of), OBSERVATION)
                        .name("shots for memory"))
                .union(routes.tap(videos.process(Stages.map("streams-for-memory", Observation::of), OBSERVATION).name("streams for memory")));
        return new Outputs(writes, observations);
    }

    /** Perception of the keyframes (change-gated, or batched), its documents and what memory observes of it. */
    private static Outputs perception(Outputs out, DataStream<Keyframe> keyframes, DataStream<VideoDoc> videos, Configuration conf,
            DeadLetterRoutes routes) {
        DetectorSettings onKeyframes = conf.get(DetectOptions.ENABLED) ? DetectOptions.detector(conf) : null;
        // The change gate compares a keyframe with its stream's last one, keyed state: keyed by stream, perceived as they come.
        SingleOutputStreamOperator<PerceptionResult> perceived = conf.get(PerceptionOptions.CHANGE_GATE)
                // Stamped as the shot detector lets them go (chained, its thread), so a live stream's keyframes that queued too long
                // (counting the backlog upstream of the shot detector) are shed; the stream documents say which streams are live.
                ? routes.tap(keyframes.process(new StampKeyframes(conf.get(PerceptionOptions.LIVE_QUEUE_FROM_CAPTURE)),
                                TypeInformation.of(QueuedKeyframe.class)).name("stamp keyframes").uid("stamp-keyframes"))
                        .keyBy(QueuedKeyframe::streamId, Types.STRING)
                        .connect(videos.keyBy(VideoDoc::streamId, Types.STRING))
                        // Read on worker threads, state applied on the task thread: frames, shots and samples pass while a keyframe is OCR'd.
                        .transform("perception, change-gated: OCR, embeddings, descriptors", TypeInformation.of(PerceptionResult.class),
                                new GatedPerception(conf.get(PerceptionOptions.MODELS), onKeyframes, PerceptionOptions.gate(conf),
                                        conf.get(IngestOptions.STREAM_IDLE_TIMEOUT).toMillis(), PerceptionOptions.shedding(conf),
                                        conf.get(PerceptionOptions.WORKERS), conf.get(PerceptionOptions.CAPACITY),
                                        conf.get(PerceptionOptions.NICE)).redacting(PrivacyOptions.redactor(conf))
                                        .storingKeyframes(PrivacyOptions.redactsPixels(conf)))
                        .uid("perception-gated")
                : AsyncDataStream.unorderedWait(keyframes,
                                new PerceptionFunction(conf.get(PerceptionOptions.MODELS), onKeyframes, conf.get(PerceptionOptions.MAX_BATCH),
                                        conf.get(PerceptionOptions.MAX_WAIT).toMillis()).redacting(PrivacyOptions.redactor(conf))
                                        .storingKeyframes(PrivacyOptions.redactsPixels(conf)),
                                conf.get(PerceptionOptions.TIMEOUT).toMillis(), TimeUnit.MILLISECONDS, conf.get(PerceptionOptions.CAPACITY))
                        .name("perception: OCR, embeddings, descriptors").uid("perception");
        if (PrivacyOptions.redactsPixels(conf)) {
            routes.tap(perceived.process(Stages.flatMap("keyframes-to-store", (PerceptionResult r, Collector<Keyframe> c) -> {
                        if (r.stored() != null) {
                            c.collect(r.stored());
                        }
                    }), TypeInformation.of(Keyframe.class)).name("redacted keyframes"))
                    .sinkTo(new FrameStoreSink(conf.get(ShotOptions.FRAME_STORE))).name("keyframes to the frame store").uid("frame-store");
        }
        SingleOutputStreamOperator<Perception> perception = routes.tap(perceived
                .process(new SplitDeadLetters<PerceptionResult, Perception>("perception"), TypeInformation.of(Perception.class))
                .name("perception dead letters").uid("perception-dead-letters"));
        DataStream<EsWrite> writes = out.writes().union(routes.tap(perception.process(Stages.map("perception-documents", EsDocuments::perception),
                ES_WRITE).name("perception documents")));
        return new Outputs(writes, out.observations().union(routes.tap(perception.process(Stages.map("perception-for-memory", Observation::of),
                OBSERVATION).name("perception for memory"))));
    }

    /** Detection and tracking: sampled frames, the motion gate, the detector (split by niceness), tracks, their documents. */
    private static Outputs detectionAndTracking(Outputs out, StreamExecutionEnvironment env, Configuration conf,
            WatermarkStrategy<Ingested> watermarks, DataStream<FeatureBatch> features, DeadLetterRoutes routes) {
        // Ordered: the tracker needs each stream's samples in presentation order.
        // With its own read of Kafka, the detector (the slowest stage) back-pressures only this branch: frames, shots and
        // keyframes go on at their own pace and detections follow. Ordered as before: one stream is one partition of each read.
        // With exclusion rules the detector reads the excluded frames' grey stand-ins too: no own read of Kafka then.
        boolean ownSource = conf.get(DetectOptions.OWN_SOURCE) && !PrivacyOptions.readsChrome(conf);
        DataStream<FeatureBatch> toSample = ownSource ? detectionFeatures(env, conf, watermarks, routes) : features;
        DataStream<SampledFrame> samples = routes.tap(toSample.process(Stages.flatMap("sample-frames", new SampleFrames(conf.get(DetectOptions.FPS))),
                        SAMPLED_FRAME).name("sample frames for detection").uid("sample-frames"));
        long trackIdle = conf.get(DetectOptions.TRACK_IDLE).toMillis();
        long streamIdle = Math.max(trackIdle, conf.get(IngestOptions.STREAM_IDLE_TIMEOUT).toMillis());
        boolean gated = conf.get(DetectOptions.MOTION_GATE);
        // The motion gate marks samples to carry (keyed state: the last detected thumbnail); the detector skips them and
        // CarryDetections, keyed again and in order, fills them in from the stream's last detected sample.
        DataStream<SampledFrame> toDetect = gated ? routes.tap(samples.keyBy(SampledFrame::streamId, Types.STRING)
                .process(new MotionGateFunction(DetectOptions.gate(conf), trackIdle, streamIdle), SAMPLED_FRAME)
                .name("motion gate").uid("motion-gate")) : samples;
        int nice = ownSource ? conf.get(DetectOptions.NICE) : 0;
        int liveNice = ownSource && conf.get(DetectOptions.LIVE_NICE) >= 0 ? conf.get(DetectOptions.LIVE_NICE) : nice;
        boolean split = liveNice != nice;
        // A nice value is per thread: split, live streams get their own detector (own task, own session) at their own priority
        // and files theirs, each starting its own chain so that neither renices the read they share.
        SingleOutputStreamOperator<DetectedFrame> one = detector(split
                ? routes.tap(toDetect.process(Stages.filter("files-and-folders-for-detection", f -> !f.live()), SAMPLED_FRAME)
                        .name("files and folders for detection"))
                : toDetect, conf, nice, "detection", split, routes);
        DataStream<DetectedFrame> detectedOrCarried = one;
        if (split) {
            SingleOutputStreamOperator<DetectedFrame> live = detector(routes.tap(toDetect.process(
                            Stages.filter("live-streams-for-detection", SampledFrame::live), SAMPLED_FRAME).name("live streams for detection")),
                    conf, liveNice, "detection-live", true, routes);
            detectedOrCarried = one.union(live);
        }
        DataStream<DetectedFrame> detected = gated ? routes.tap(detectedOrCarried.keyBy(DetectedFrame::streamId, Types.STRING)
                .process(new CarryDetections(streamIdle), DETECTED_FRAME)
                .name("carry detections where nothing moved").uid("carry-detections")) : detectedOrCarried;
        DataStream<TrackDoc> tracks = routes.tap(detected.keyBy(DetectedFrame::streamId, Types.STRING)
                .process(new TrackerOperator(DetectOptions.tracker(conf), trackIdle, streamIdle,
                        conf.get(DetectOptions.TRACK_EMIT_EVERY)))
                .name("tracks").uid("tracker"));
        // A frame detection failed on (width 0) has no document: a failure is not an empty result.
        DataStream<EsWrite> writes = out.writes().union(routes.tap(detected.process(Stages.flatMap("detection-documents",
                        (DetectedFrame f, Collector<EsWrite> w) -> {
                            if (f.width() > 0) {
                                w.collect(EsDocuments.detections(f));
                            }
                        }), ES_WRITE).name("detection documents")),
                routes.tap(tracks.process(Stages.map("track-documents", EsDocuments::track), ES_WRITE).name("track documents")),
                routes.tap(tracks.process(GraphWrites.fromTracks(), ES_WRITE).name("graph from tracks")));
        if (conf.get(PeopleOptions.ENABLED)) {
            writes = writes.union(people(samples, tracks, conf, routes));
        }
        return new Outputs(writes, out.observations().union(routes.tap(tracks.process(Stages.map("tracks-for-memory", Observation::of),
                OBSERVATION).name("tracks for memory"))));
    }

    /** Pose and activities of tracked people: sampled JPEGs and track documents, keyed by stream, into vw-activities writes. */
    private static DataStream<EsWrite> people(DataStream<SampledFrame> samples, DataStream<TrackDoc> tracks, Configuration conf, DeadLetterRoutes routes) {
        TypeInformation<PersonInput> type = TypeInformation.of(PersonInput.class);
        DataStream<PersonInput> in = routes.tap(samples.process(Stages.map("samples-for-people", (SampledFrame f) -> PersonInput.of(f)), type)
                        .name("samples for people"))
                .union(routes.tap(tracks.process(Stages.map("tracks-for-people", (TrackDoc t) -> PersonInput.of(t)), type).name("tracks for people")));
        boolean faces = conf.get(PeopleOptions.FACES);
        SingleOutputStreamOperator<ActivityDoc> activities = routes.tap(in.keyBy(PersonInput::streamId, Types.STRING)
                .process(new PersonActivities(conf.get(PerceptionOptions.MODELS), conf.get(DetectOptions.TRACK_IDLE).toMillis(),
                        conf.get(PeopleOptions.INTERVAL).toMillis(), conf.get(PeopleOptions.MAX_FRAMES),
                        faces ? conf.get(PeopleOptions.FACES_PER_TRACK) : 0), TypeInformation.of(ActivityDoc.class))
                .name(faces ? "people: pose, activities and faces" : "people: pose and activities").uid("person-activities"));
        DataStream<EsWrite> writes = routes.tap(activities.process(Stages.map("activity-documents", EsDocuments::activity), ES_WRITE)
                        .name("activity documents"))
                .union(routes.tap(activities.process(GraphWrites.fromActivities(), ES_WRITE).name("graph from activities")));
        if (faces) {
            // every stream's track faces meet the same people under one key
            TypeInformation<TrackFace> face = TypeInformation.of(TrackFace.class);
            DataStream<TrackFace> linked = routes.tap(activities.getSideOutput(PersonActivities.FACES).keyBy(f -> FaceIdentities.KEY, Types.STRING)
                    .process(new FaceIdentities(conf.get(PeopleOptions.FACE_THRESHOLD), conf.get(PeopleOptions.FACE_MEMORY).toMillis(),
                            conf.get(PeopleOptions.FACE_PEOPLE)), face)
                    .name("people: faces to persons").uid("face-identities"));
            writes = writes.union(routes.tap(linked.process(Stages.map("face-events", EsDocuments::face), ES_WRITE).name("face events")));
        }
        return writes;
    }

    /** Memory: observations batched per stream, decided with their context, written as episodes. */
    private static Outputs memory(Outputs out, Configuration conf, UnaryOperator<DataStream<EpisodeBatch>> beforeEpisodeWriter,
            DeadLetterRoutes routes) {
        long idle = conf.get(MemoryOptions.IDLE).toMillis();
        DataStream<EpisodeBatch> batched = routes.tap(out.observations().keyBy(Observation::streamId, Types.STRING)
                .process(new EpisodeBatcher(conf.get(MemoryOptions.MAX_BATCH).toMillis(), idle, conf.get(MemoryOptions.GRACE).toMillis(),
                        conf.get(PerceptionOptions.ENABLED), conf.get(ShotOptions.SCREEN_KEYFRAME_EVERY).toMillis()))
                .name("memory batches").uid("episode-batcher"));
        DataStream<EpisodeBatch> decided = routes.tap(AsyncDataStream.orderedWait(batched,
                        new EpisodeContext(conf.get(IngestOptions.ES_URL), MemoryOptions.llm(conf), 4,
                                Math.max(1_000, conf.get(MemoryOptions.TIMEOUT).toMillis() - 10_000)),
                        conf.get(MemoryOptions.TIMEOUT).toMillis(), TimeUnit.MILLISECONDS, conf.get(MemoryOptions.CAPACITY))
                .name("memory context: relevant events, model for ambiguous batches").uid("episode-context")
                .process(new SplitDeadLetters<DecidedBatch, EpisodeBatch>(EpisodeContext.STAGE), TypeInformation.of(EpisodeBatch.class))
                .name("memory context dead letters").uid("episode-context-dead-letters"));
        DataStream<EpisodeDoc> episodes = routes.tap(beforeEpisodeWriter.apply(decided).keyBy(EpisodeBatch::streamId, Types.STRING)
                .process(new EpisodeWriter(idle)).name("episodes: insert, merge, replace").uid("episode-writer"));
        return new Outputs(out.writes().union(routes.tap(episodes.process(Stages.map("episode-documents", EsDocuments::episode), ES_WRITE)
                .name("episode documents")), routes.tap(episodes.process(GraphWrites.fromEpisodes(), ES_WRITE).name("graph from episodes"))),
                out.observations());
    }

    /**
     * The audio branch: chunks from their own topic, speech found and recognised per stream, transcript documents; the
     * transcripts are observations for memory too (memory's watermark is then the lower of the frames' and the audio's; an
     * audio partition without records stops holding it back after {@code vw.source-idleness}).
     */
    private static Outputs audio(Outputs out, StreamExecutionEnvironment env, Configuration conf, DeadLetterRoutes routes) {
        KafkaSource<IngestedAudio> source = KafkaSource.<IngestedAudio>builder()
                .setBootstrapServers(conf.get(IngestOptions.KAFKA_BOOTSTRAP))
                .setTopics(conf.get(AudioOptions.TOPIC))
                .setGroupId(conf.get(IngestOptions.GROUP_ID) + ".audio")
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new AudioChunkDeserializer())
                .build();
        WatermarkStrategy<IngestedAudio> watermarks = WatermarkStrategy
                .<IngestedAudio>forBoundedOutOfOrderness(conf.get(IngestOptions.MAX_OUT_OF_ORDERNESS))
                .withTimestampAssigner((record, kafkaTs) -> record.eventTimeMs())
                .withIdleness(conf.get(IngestOptions.SOURCE_IDLENESS));
        SingleOutputStreamOperator<AudioChunk> chunks = routes.tap(env.fromSource(source, watermarks, "audio from Kafka").uid("kafka-source-audio")
                .process(new RouteAudio()).name("decode audio and route dead letters").uid("route-audio"));
        SingleOutputStreamOperator<TranscriptDoc> speech = routes.tap(chunks.keyBy(AudioChunk::streamId, Types.STRING)
                .process(new SpeechOperator(conf.get(PerceptionOptions.MODELS), AudioOptions.recognizer(conf), AudioOptions.segmenter(conf),
                        conf.get(AudioOptions.IDLE).toMillis()).redacting(PrivacyOptions.redactor(conf)))
                .name(io.videoworld.core.Names.SPEECH_STAGE).uid("speech"));
        return new Outputs(out.writes().union(routes.tap(speech.process(Stages.map("transcript-documents", EsDocuments::transcript), ES_WRITE)
                        .name("transcript documents")), routes.tap(speech.process(GraphWrites.fromTranscripts(), ES_WRITE).name("graph from transcripts"))),
                out.observations().union(routes.tap(speech.process(Stages.map("transcripts-for-memory", Observation::of), OBSERVATION)
                        .name("transcripts for memory"))));
    }

    /** Sinks: every document to Elasticsearch; every dead letter, counted, to the dead-letter topic. */
    private static void sinks(DataStream<EsWrite> writes, Configuration conf, DeadLetterRoutes routes) {
        writes.sinkTo(ElasticsearchSink.builder(conf.get(IngestOptions.ES_URL))
                        .indexSettings(IndexSettings.parse(conf.get(IngestOptions.ES_INDEX_SETTINGS)))
                        .maxBatchSize(conf.get(IngestOptions.ES_MAX_BATCH))
                        .maxInFlightRequests(conf.get(IngestOptions.ES_MAX_IN_FLIGHT))
                        .maxTimeInBufferMs(conf.get(IngestOptions.ES_MAX_BUFFER_TIME).toMillis())
                        .build())
                .name("Elasticsearch").uid("es-sink");

        // Transactional with the checkpoints: a restart replays records, never dead letters already written.
        routes.all().map(new CountDeadLetters()).name("count dead letters").uid("count-dead-letters")
                .sinkTo(KafkaSink.<DeadLetter>builder()
                        .setBootstrapServers(conf.get(IngestOptions.KAFKA_BOOTSTRAP))
                        .setRecordSerializer(new DeadLetterSerializer(conf.get(IngestOptions.DLQ_TOPIC)))
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix(conf.get(IngestOptions.GROUP_ID) + "-dlq")
                        .setProperty("transaction.timeout.ms", String.valueOf(conf.get(IngestOptions.DLQ_TRANSACTION_TIMEOUT).toMillis()))
                        .setProperty("max.request.size", String.valueOf(2 * KafkaProducers.MAX_RECORD_BYTES))
                        .build())
                .name("dead letters to Kafka").uid("dlq-sink");
    }
}
