package io.videoworld.engines.memory;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.ScreenshotFolderSource;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Observation;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotTracker;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.GreyFrame;
import io.videoworld.perception.ImageDescriptor;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.TextEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A screenshot folder through the engines the ingest job runs, in its order, without Kafka,
 * Flink or Elasticsearch: the producer's resize and thumbnail, shot detection with its screen
 * duplicates and keyframes, perception of the first and periodic keyframes (the change-gated
 * PP-OCRv4 read, the MiniLM embedding, the image descriptor), the memory batcher and the MIRIX
 * writer. What it leaves out is the context lookup in vw-episodes and a model: ambiguous batches
 * are settled by the rules, as when no model is configured, and counted.
 */
final class ScreenMemoryRun {
    /** The final events (deleted ones dropped), and what it cost. */
    record Result(List<EpisodeDoc> events, List<EpisodeBatch> batches, int keyframes, int ambiguous, long ocrMs) {}

    private final OcrEngine ocr;
    private final TextEmbedder embedder;
    private final int width;
    private final double keyframeEverySec;

    ScreenMemoryRun(OcrEngine ocr, TextEmbedder embedder, int width, double keyframeEverySec) {
        this.ocr = ocr;
        this.embedder = embedder;
        this.width = width;
        this.keyframeEverySec = keyframeEverySec;
    }

    /** What one frame of the folder brought: the observations the engines made of it, and the watermark after it; last: the folder ended. */
    record Tick(List<Observation> observations, long watermark, boolean last) {}

    /** Where every observation (keyframe read, shot) goes as well, for scores that need more than the events. */
    private java.util.function.Consumer<Observation> observer = o -> {};

    ScreenMemoryRun observe(java.util.function.Consumer<Observation> o) {
        observer = o;
        return this;
    }

    Result run(String stream, Path folder, long epochMs) throws IOException {
        return remember(perceive(stream, folder, epochMs));
    }

    /** The producer, shot detection and perception over the folder (the slow half: OCR), frame by frame. */
    List<Tick> perceive(String stream, Path folder, long epochMs) throws IOException {
        ShotParams d = ShotParams.defaults();
        ShotParams params = new ShotParams(d.detectors(), d.contentThreshold(), d.adaptiveRatio(), d.adaptiveMinContent(), d.adaptiveWindow(),
                d.fadeFloor(), d.dissolveWindowSec(), d.dissolveThreshold(), d.dissolveMaxStep(), d.flashFrames(), d.minShotSec(),
                d.keyframeEverySec(), keyframeEverySec, d.sceneThreshold(), d.screenDuplicateBits());
        ShotTracker tracker = ShotTracker.start(params, 1);
        gate = new ScreenGate(new ScreenGate.Settings(true, 20, 0.5));
        last = null;
        List<Observation> pending = new ArrayList<>();
        ShotTracker.Output out = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) {
                if (EpisodeBatching.timely(k.role())) {
                    pending.add(keyframeObservation(k));
                }
            }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind())) {
                    pending.add(Observation.of(s));
                }
            }
        };
        keyframes = 0;
        ocrNanos = 0;
        List<Tick> ticks = new ArrayList<>();
        try (ScreenshotFolderSource src = new ScreenshotFolderSource(folder, ScreenshotFolderSource.Order.MTIME, 1, 0,
                new JpegEncoder(width, 85))) {
            long i = 0;
            long watermark = Long.MIN_VALUE;
            while (true) {
                SourceFrame f = src.next();
                if (f != null) {
                    Frame frame = new Frame(i++, f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), f.jpeg(), f.thumb());
                    FrameBatch b = new FrameBatch(stream, SourceKind.SCREEN, folder.toString(), 0, epochMs, src.info(), List.of(frame));
                    tracker.accept(FeatureExtractor.extract(b, frame), out);
                    watermark = (f.captureTimeMs() != null ? f.captureTimeMs() : epochMs + f.ptsMs()) - 1000;
                } else {
                    tracker.finish(out);
                }
                ticks.add(new Tick(List.copyOf(pending), watermark, f == null));
                pending.clear();
                if (f == null) {
                    return ticks;
                }
            }
        }
    }

    /** The memory batcher and the MIRIX writer over what {@link #perceive} saw (the fast half). */
    Result remember(List<Tick> ticks) {
        EpisodeBatching batching = new EpisodeBatching(20_000, 600_000, 5_000, true, Math.round(keyframeEverySec * 1000));
        EpisodeWriting writing = new EpisodeWriting(600_000);
        BatcherState state = null;
        WriterState written = null;
        Map<String, EpisodeDoc> events = new LinkedHashMap<>();
        List<EpisodeBatch> batches = new ArrayList<>();
        int ambiguous = 0;
        for (Tick t : ticks) {
            List<EpisodeBatch> emitted = new ArrayList<>();
            long watermark = t.watermark();
            for (Observation o : t.observations()) {
                observer.accept(o);
                EpisodeBatching.Step step = batching.observe(state, o, watermark);
                state = step.state();
                emitted.addAll(step.batches());
            }
            if (state != null && state.openTimerAt() >= 0 && watermark >= state.openTimerAt()) {
                EpisodeBatching.Step step = batching.timer(state, state.openTimerAt());
                state = step.state();
                emitted.addAll(step.batches());
            }
            if (t.last() && state != null) {
                emitted.addAll(batching.finish(state).batches());
            }
            for (EpisodeBatch b : emitted) {
                batches.add(b);
                ambiguous += EpisodeBatch.AMBIGUOUS.equals(b.relation()) ? 1 : 0;
                EpisodeWriting.Step w = writing.write(written, b);
                written = w.state();
                for (EpisodeDoc doc : w.docs()) {
                    if (doc.deleted()) {
                        events.remove(doc.id());
                    } else {
                        events.put(doc.id(), doc);
                    }
                }
            }
        }
        List<EpisodeDoc> sorted = events.values().stream().sorted(Comparator.comparingLong(EpisodeDoc::startPtsMs)).toList();
        return new Result(sorted, batches, keyframes, ambiguous, ocrNanos / 1_000_000);
    }

    /** Tuning aid: each keyframe perceived, its title and app as the memory reads them, and whether it continues the one before. */
    static void printKeyframes(List<Tick> ticks) {
        Perception before = null;
        for (Tick t : ticks) {
            for (Observation o : t.observations()) {
                if (o.shot() != null) {
                    System.out.printf("  shot %.0f-%.0f%n", o.shot().startPtsMs() / 1e3, o.shot().endPtsMs() / 1e3);
                }
                Perception p = o.perception();
                if (p == null) {
                    continue;
                }
                String title = WindowChrome.title(List.of(p));
                System.out.printf("  kf %.0f %s lines=%d cont=%s title=%s app=%s%n", p.ptsMs() / 1e3, p.role(), p.lines().size(),
                        before == null ? "-" : ScreenContinuity.continues(before, p), title, WindowChrome.app(title, ScreenContinuity.texts(p)));
                before = p;
            }
        }
    }

    private ScreenGate gate;
    private ScreenGate.Last last;
    private int keyframes;
    private long ocrNanos;

    /** Perception of one keyframe as PerceptionFunction computes it with the change gate on. */
    private Observation keyframeObservation(Keyframe k) {
        keyframes++;
        long t0 = System.nanoTime();
        DecodedImage image = DecodedImage.decode(k.jpeg());
        GreyFrame grey = GreyFrame.of(image);
        ScreenGate.Read read = gate.read(last, image, grey, ocr);
        last = ScreenGate.remember(last, grey, read.plan(), read.lines());
        List<TextLine> lines = read.lines();
        ocrNanos += System.nanoTime() - t0;
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l.text()).append('\n'));
        String joined = text.toString().trim();
        Frame f = new Frame(k.frameIndex(), k.ptsMs(), null, image.width(), image.height(), k.jpeg());
        FrameBatch b = new FrameBatch(k.streamId(), SourceKind.VIDEO, "", 0, k.epochMs(), null, List.of(f));
        float[] descriptor = ImageDescriptor.of(FeatureExtractor.extract(b, f));
        return Observation.of(new Perception(k.streamId(), k.epochMs(), k.frameIndex(), k.ptsMs(), k.role(), lines, joined,
                joined.isEmpty() ? null : embedder.embed(joined), descriptor, "cpu", image.width(), image.height(), List.of(), k.eventTimeMs()));
    }
}
