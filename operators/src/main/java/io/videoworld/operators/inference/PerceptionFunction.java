package io.videoworld.operators.inference;

import ai.djl.engine.Engine;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.Detection;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Perception;
import io.videoworld.core.PerceptionResult;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.operators.shots.FeatureExtractor;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ImageDescriptor;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.TextEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inference on keyframes: OCR lines, objects (when a detector is configured), a text embedding
 * of what was read and which objects are there, and an image descriptor; one OCR engine, one
 * embedder and one detector per subtask (see {@link BatchedInference} for batching and
 * metrics, prefix {@code vwPerception}). Nothing is ever silently empty: a keyframe whose JPEG
 * does not decode is a dead letter and a failed perception; one whose inference fails after the
 * batcher's retries, or times out, is indexed as failed with the reason (never as a blank
 * screen), logged at WARN and counted in {@code vwPerceptionFailures}.
 *
 * <p>With the change gate on ({@link ScreenGate}), a keyframe is compared with its stream's last
 * perceived one: only bands of changed tiles are read (scrolled lines are carried at their new
 * place), objects are carried while less than {@value ScreenGate#OBJECTS_CHANGE} of the tiles
 * changed, and every few keyframes are read whole. The input must then be keyed by stream, so a
 * stream's keyframes reach one subtask. Metrics: {@code vwPerceptionOcrPixels} (read),
 * {@code vwPerceptionOcrPixelsSkipped} (not read), {@code vwPerceptionGateFull},
 * {@code vwPerceptionGatePartial}, {@code vwPerceptionGateReused}, {@code vwPerceptionDetectSkipped},
 * {@code vwPerceptionGateCacheBytes}, {@code vwPerceptionGateStreams}.
 */
public final class PerceptionFunction extends BatchedInference<Keyframe, PerceptionResult> {
    /** The stage named in this operator's dead letters. */
    public static final String STAGE = "perception";
    private static final Logger LOG = LoggerFactory.getLogger(PerceptionFunction.class);

    private final String models;
    private final DetectionFunction.DetectorSettings detection;
    private transient OcrEngine ocr;
    private transient ObjectDetector detector;
    private transient TextEmbedder embedder;
    private transient String device;
    private final ScreenGate.Settings gateSettings;
    private transient ScreenGate gate;
    private transient Counter pixelsRead;
    private transient Counter pixelsSkipped;
    private transient Counter fullReads;
    private transient Counter partialReads;
    private transient Counter reused;
    private transient Counter detectSkipped;

    /** {@code detection} null runs no detector on keyframes; every keyframe is read whole. */
    public PerceptionFunction(String models, DetectionFunction.DetectorSettings detection, int maxBatch, long maxWaitMs) {
        this(models, detection, ScreenGate.Settings.off(), maxBatch, maxWaitMs);
    }

    /** {@code detection} null runs no detector on keyframes. */
    public PerceptionFunction(String models, DetectionFunction.DetectorSettings detection, ScreenGate.Settings gate, int maxBatch,
            long maxWaitMs) {
        super("vwPerception", maxBatch, maxWaitMs);
        this.models = models;
        this.detection = detection;
        this.gateSettings = gate;
    }

    @Override
    protected boolean openModels() throws Exception {
        ocr = OcrEngine.load(Path.of(models));
        embedder = TextEmbedder.load(Path.of(models));
        if (detection != null) {
            detector = ObjectDetector.load(Path.of(models), detection.model(), detection.labels(), detection.inputSize(), detection.minScore());
        }
        gate = new ScreenGate(gateSettings);
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        pixelsRead = metrics.counter("vwPerceptionOcrPixels");
        pixelsSkipped = metrics.counter("vwPerceptionOcrPixelsSkipped");
        fullReads = metrics.counter("vwPerceptionGateFull");
        partialReads = metrics.counter("vwPerceptionGatePartial");
        reused = metrics.counter("vwPerceptionGateReused");
        detectSkipped = metrics.counter("vwPerceptionDetectSkipped");
        metrics.gauge("vwPerceptionGateCacheBytes", () -> gate.cacheBytes());
        metrics.gauge("vwPerceptionGateStreams", () -> gate.streams());
        boolean gpu = Engine.getEngine("OnnxRuntime").getGpuCount() > 0;
        device = gpu ? "gpu" : "cpu";
        LOG.info("perception models from {} on {}", models, device);
        return gpu;
    }

    @Override
    protected PerceptionResult failed(Keyframe k, String reason) {
        LOG.warn("perception of {} frame {} failed: {}", k.streamId(), k.frameIndex(), reason);
        JpegInfo info = JpegInfo.parse(k.jpeg());
        return new PerceptionResult(Perception.failed(k, device, info == null ? 0 : info.width(), info == null ? 0 : info.height(), reason),
                null);
    }

    @Override
    protected List<PerceptionResult> infer(List<Keyframe> batch) {
        // Decode first, one by one: a keyframe that does not decode is set aside, the rest are perceived together.
        List<Keyframe> good = new ArrayList<>(batch.size());
        List<DecodedImage> images = new ArrayList<>(batch.size());
        List<float[]> descriptors = new ArrayList<>(batch.size());
        PerceptionResult[] out = new PerceptionResult[batch.size()];
        int[] slot = new int[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            Keyframe k = batch.get(i);
            try {
                DecodedImage image = DecodedImage.decode(k.jpeg());
                descriptors.add(descriptor(k));
                images.add(image);
                good.add(k);
                slot[good.size() - 1] = i;
            } catch (RuntimeException e) {
                String reason = "keyframe does not decode: " + e.getMessage();
                out[i] = new PerceptionResult(failure(k, reason).value(),
                        DeadLetter.ofFrame(STAGE, reason, k.streamId(), k.frameIndex(), k.eventTimeMs(), k.jpeg()));
            }
        }
        if (!good.isEmpty()) {
            List<List<TextLine>> read;
            List<List<Detection>> objects;
            if (gateSettings.enabled()) {
                List<String> streams = good.stream().map(Keyframe::streamId).toList();
                List<ScreenGate.Read> gated = gate.readAll(streams, images, ocr);
                read = gated.stream().map(ScreenGate.Read::lines).toList();
                for (int g = 0; g < good.size(); g++) {
                    ScreenGate.Plan p = gated.get(g).plan();
                    long frame = (long) images.get(g).width() * images.get(g).height();
                    pixelsRead.inc(p.pixelsRead());
                    pixelsSkipped.inc(frame - p.pixelsRead());
                    (p.kind() == ScreenGate.Kind.FULL ? fullReads : p.kind() == ScreenGate.Kind.PARTIAL ? partialReads : reused).inc();
                }
                objects = detector == null ? null : gatedObjects(streams, images, gated);
            } else {
                objects = detector == null ? null : detector.detect(images);
                read = ocr.readAll(good.stream().map(Keyframe::jpeg).toList());
            }
            for (int g = 0; g < good.size(); g++) {
                Keyframe k = good.get(g);
                List<TextLine> lines = read.get(g);
                StringBuilder text = new StringBuilder();
                lines.forEach(l -> text.append(l.text()).append('\n'));
                String joined = text.toString().trim();
                List<Detection> found = objects == null ? List.of() : withoutAppearance(objects.get(g));
                // The embedding reads what is written and what is there, so "a person at a desk" finds frames without text too.
                String described = (joined + "\n" + labelsLine(found)).trim();
                out[slot[g]] = new PerceptionResult(new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                        described.isEmpty() ? null : embedder.embed(described), descriptors.get(g), device, images.get(g).width(),
                        images.get(g).height(), found, k.eventTimeMs()), null);
            }
        }
        return List.of(out);
    }

    /** Objects of each keyframe: detected again where enough changed, else the stream's last ones (in batch order). */
    private List<List<Detection>> gatedObjects(List<String> streams, List<DecodedImage> images, List<ScreenGate.Read> gated) {
        List<DecodedImage> toDetect = new ArrayList<>();
        int[] source = new int[images.size()];
        Map<String, Integer> latest = new HashMap<>();
        for (int g = 0; g < images.size(); g++) {
            String s = streams.get(g);
            boolean known = latest.containsKey(s) || gate.objects(s) != null;
            if (!known || ScreenGate.detectAgain(gated.get(g).plan())) {
                source[g] = toDetect.size();
                latest.put(s, toDetect.size());
                toDetect.add(images.get(g));
            } else {
                source[g] = latest.containsKey(s) ? latest.get(s) : -1;
                detectSkipped.inc();
            }
        }
        List<List<Detection>> found = toDetect.isEmpty() ? List.of() : detector.detect(toDetect);
        List<List<Detection>> out = new ArrayList<>(images.size());
        for (int g = 0; g < images.size(); g++) {
            out.add(source[g] >= 0 ? found.get(source[g]) : gate.objects(streams.get(g)));
        }
        for (int g = 0; g < images.size(); g++) {
            gate.objects(streams.get(g), out.get(g));
        }
        return out;
    }

    /** "objects: 2 person, car" for the labels a frame's detections carry (score 0.3 and up). */
    static String labelsLine(List<Detection> found) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Detection d : found) {
            if (d.score() >= 0.3) {
                counts.merge(d.category(), 1, Integer::sum);
            }
        }
        if (counts.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("objects:");
        counts.forEach((c, n) -> sb.append(' ').append(n > 1 ? n + " " : "").append(c).append(','));
        return sb.substring(0, sb.length() - 1);
    }

    private static List<Detection> withoutAppearance(List<Detection> in) {
        List<Detection> out = new ArrayList<>(in.size());
        for (Detection d : in) {
            out.add(new Detection(d.category(), d.score(), d.x1(), d.y1(), d.x2(), d.y2(), null));
        }
        return out;
    }

    private static float[] descriptor(Keyframe k) {
        JpegInfo info = JpegInfo.parse(k.jpeg());
        Frame f = new Frame(k.frameIndex(), k.ptsMs(), null, info.width(), info.height(), k.jpeg());
        FrameBatch b = new FrameBatch(k.streamId(), SourceKind.VIDEO, "", 0, k.epochMs(), null, List.of(f));
        return ImageDescriptor.of(FeatureExtractor.extract(b, f));
    }

    @Override
    protected void closeModels() {
        if (gate != null) {
            gate.clear();
        }
        if (ocr != null) {
            ocr.close();
        }
        if (embedder != null) {
            embedder.close();
        }
        if (detector != null) {
            detector.close();
        }
    }
}
