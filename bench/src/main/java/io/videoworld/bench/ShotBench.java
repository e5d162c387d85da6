package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.testkit.SyntheticFootage;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Json;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.BoundaryEvaluation.Detection;
import io.videoworld.engines.shots.BoundaryEvaluation.Truth;
import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.engines.shots.RealClips;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotTracker;
import io.videoworld.engines.shots.VideoShots;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Shot detection, like for like: VideoWorld and PySceneDetect's ContentDetector and
 * AdaptiveDetector (default settings) run in the same process tree, one after the other, on the
 * same files, each timed from opening the file to its list of shots, decoding included.
 *
 * <ul>
 *   <li>VideoWorld: {@link VideoShots}, the file path of the shot engine: FFmpeg decodes on its
 *       threads and shrinks pictures to 80 pixels itself, features are computed once from those
 *       pixels, then {@link ShotTracker} (all default detectors).</li>
 *   <li>PySceneDetect: {@code bench/src/main/python/pyscenedetect_run.py}, its OpenCV backend
 *       (Debian's python3-opencv), from its source folder.</li>
 * </ul>
 *
 * Sets: the real-footage truth ({@code bench/shots/truth}, clips from {@code deploy/samples.sh
 * --shots}), its tuning half and each held-out set reported apart and pooled ({@link ShotBenchReport}); and generated clips whose seeds
 * no default was tuned on. Accuracy: class-agnostic precision and recall with a tolerance of
 * 0.5 s (a true gradual transition matches anywhere in its span widened by it), detections in a
 * clip's ignored stretches dropped. The shot operator alone, on thumbnails made outside the timed
 * section, is a secondary line.
 *
 * <p>{@code bin/videoworld bench shots [PYSCENEDETECT_SRC] [--list] [--only tune|heldout|heldout-new|heldout-3|heldout-4|synthetic] [--detectors adaptive,fade,dissolve,wipe]}
 * (VideoWorld's detectors; the defaults when left out).
 */
public final class ShotBench {
    static final double TOLERANCE = 0.5;
    private static final long[] SEEDS = {101, 202, 303};
    static final String OURS = "VideoWorld";
    static final String CONTENT = "PySceneDetect Content";
    static final String ADAPTIVE = "PySceneDetect Adaptive";

    private ShotBench() {}

    /** One clip of one set. */
    record Item(String set, String file, Path path, String kind, double seconds, List<Truth> truths, RealClips.Clip clip) {}

    /** One system's output on one clip. */
    record Out(List<Detection> detections, long frames, double seconds) {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("shots", args);
        String pyscenedetect = System.getenv("PYSCENEDETECT_SRC");
        boolean list = false;
        String only = null;
        ShotParams params = ShotParams.defaults();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--list" -> list = true;
                case "--only" -> only = args[++i];
                case "--detectors" -> params = ShotParams.defaults().withDetectors(ShotParams.parseDetectors(args[++i]));
                default -> pyscenedetect = args[i];
            }
        }
        List<Item> items = new ArrayList<>();
        Path clipDir = RealClips.clipDir();
        for (RealClips.Clip c : RealClips.load(RealClips.truthDir())) {
            if (only != null && !only.equals(c.split())) {
                continue; // a run of one set needs only that set's clips
            }
            Path f = clipDir.resolve(c.file());
            if (!Files.isRegularFile(f)) {
                System.err.println("missing " + f + ": run deploy/samples.sh --shots first");
                System.exit(2);
            }
            items.add(new Item(c.split(), c.file(), f, c.kind(), c.durationSec(), c.truths(), c));
        }
        Path tmp = Files.createTempDirectory("vw-shot-bench");
        List<SyntheticFootage.Clip> synthetic = new ArrayList<>();
        for (long seed : SEEDS) {
            SyntheticFootage.Clip clip = SyntheticFootage.write(tmp.resolve("synthetic-" + seed + ".mp4"), 640, 360, 60, seed);
            synthetic.add(clip);
            List<Truth> truths = clip.events().stream().filter(SyntheticFootage.Event::isTransition)
                    .map(e -> new Truth(e.kind() != SyntheticFootage.Kind.CUT, e.start(), e.end())).toList();
            items.add(new Item("synthetic", clip.file().getFileName().toString(), clip.file(), "generated", clip.frames() / clip.fps(),
                    truths, null));
        }
        if (only != null) {
            String set = only;
            items.removeIf(it -> !it.set().equals(set));
        }

        // The first run only JIT-compiles our path; timing it would measure the interpreter.
        VideoShots.detect(synthetic.get(0).file().toString(), params, sink(new ArrayList<>()));
        Map<String, Map<String, Out>> outs = new LinkedHashMap<>();
        Map<String, long[]> pts = new LinkedHashMap<>();
        for (Item it : items) {
            List<Detection> found = new ArrayList<>();
            long t0 = System.nanoTime();
            VideoShots.Run run = VideoShots.detect(it.path().toString(), params, sink(found));
            double secs = (System.nanoTime() - t0) / 1e9;
            pts.put(it.file(), run.ptsMs());
            outs.computeIfAbsent(it.file(), k -> new LinkedHashMap<>()).put(OURS, new Out(scored(it, found), run.frames(), secs));
        }
        if (pyscenedetect != null) {
            pySceneDetect(pyscenedetect, items, pts, outs);
        }
        ShotBenchReport.report(items, outs, pyscenedetect != null, list);
        if (pyscenedetect != null) {
            ShotBenchReport.sameFrames(items, outs);
        }
        if (only == null || only.equals("synthetic")) {
            operatorOnly(synthetic);
        }
        System.out.println("Reference: /usr/bin/python3 bench/src/main/python/pyscenedetect_run.py FILE... with PYSCENEDETECT_SRC="
                + (pyscenedetect == null ? "(not run: bin/videoworld bench shots DIR, DIR holding PySceneDetect's scenedetect package)"
                        : pyscenedetect));
        System.exit(0);
    }

    private static ShotTracker.Output sink(List<Detection> found) {
        return new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) { }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind()) && !"start".equals(s.transitionIn())) {
                    found.add(new Detection(!"cut".equals(s.transitionIn()), s.startPtsMs() / 1000.0));
                }
            }
        };
    }

    private static List<Detection> scored(Item it, List<Detection> found) {
        return it.clip() == null ? found : it.clip().scored(found);
    }

    private static void pySceneDetect(String src, List<Item> items, Map<String, long[]> pts, Map<String, Map<String, Out>> outs)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", "bench/src/main/python/pyscenedetect_run.py"));
        items.forEach(it -> cmd.add(it.path().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PYSCENEDETECT_SRC", src);
        Process p = pb.start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode j = Json.MAPPER.readTree(line);
                Item it = items.stream().filter(x -> x.path().toString().equals(j.get("file").asText())).findFirst().orElseThrow();
                long[] times = pts.get(it.file());
                List<Detection> found = new ArrayList<>();
                for (JsonNode c : j.get("cut_frames")) {
                    // PySceneDetect counts time from the first frame; the truth uses stream time.
                    int n = c.asInt();
                    double t = n < times.length ? times[n] / 1000.0 : times[times.length - 1] / 1000.0;
                    found.add(new Detection(false, t));
                }
                String name = "content".equals(j.get("detector").asText()) ? CONTENT : ADAPTIVE;
                outs.get(it.file()).put(name, new Out(scored(it, found), j.get("frames").asLong(), j.get("seconds").asDouble()));
            }
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("PySceneDetect run failed: " + String.join(" ", cmd));
        }
    }

    /**
     * The secondary line: the shot operator alone on frames as the ingest job receives them (a
     * JPEG and its 80-pixel JPEG thumbnail, made outside the timed section), synthetic set.
     */
    private static void operatorOnly(List<SyntheticFootage.Clip> clips) throws Exception {
        List<List<FrameBatch>> all = new ArrayList<>();
        long frames = 0;
        for (SyntheticFootage.Clip clip : clips) {
            List<FrameBatch> batches = new ArrayList<>();
            try (VideoFrameSource src = new VideoFrameSource(clip.file().toString(), 0, new JpegEncoder(640, 85))) {
                SourceFrame f;
                long i = 0;
                while ((f = src.next()) != null) {
                    batches.add(new FrameBatch("bench", SourceKind.VIDEO, clip.file().toString(), 0, 0, src.info(),
                            List.of(new Frame(i++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb()))));
                }
            }
            frames += batches.size();
            all.add(batches);
        }
        double secs = 0;
        for (int pass = 0; pass < 2; pass++) {
            long t0 = System.nanoTime();
            for (List<FrameBatch> batches : all) {
                ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 25);
                ShotTracker.Output out = sink(new ArrayList<>());
                for (FrameBatch b : batches) {
                    tracker.accept(FeatureExtractor.extract(b, b.frames().get(0)), out);
                }
                tracker.finish(out);
            }
            secs = (System.nanoTime() - t0) / 1e9;
        }
        System.out.printf(Locale.ROOT, "Secondary: the shot operator alone (thumbnail decode, features, engine; the JPEGs made outside the timed "
                + "section), synthetic set, one thread: %.0f frames/s. Not comparable with the rows above, which include decoding the file.%n",
                frames / secs);
    }
}
