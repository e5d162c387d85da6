package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.producer.JpegEncoder;
import io.videoworld.connectors.producer.SourceFrame;
import io.videoworld.testkit.SyntheticFootage;
import io.videoworld.connectors.producer.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Json;
import io.videoworld.core.Keyframe;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.operators.shots.BoundaryEvaluation;
import io.videoworld.operators.shots.BoundaryEvaluation.Detection;
import io.videoworld.operators.shots.BoundaryEvaluation.Truth;
import io.videoworld.operators.shots.FeatureExtractor;
import io.videoworld.operators.shots.ShotParams;
import io.videoworld.operators.shots.ShotTracker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shot detection speed and accuracy beside PySceneDetect's ContentDetector and AdaptiveDetector,
 * on the same generated clips (cuts, fades, dissolves, fast pans, flashes) in the same run.
 *
 * <p>Rows: the shot operator alone (JPEG frames in, as the job receives them: reduced decode,
 * features, all detectors); file to shots (FFmpeg decode, JPEG encode as the producer does, then
 * the operator), which is what PySceneDetect does from a file minus our extra JPEG step; and
 * PySceneDetect on the file. All single-threaded. Accuracy is class-agnostic F1 over all
 * transitions (PySceneDetect does not label cuts vs gradual), plus ours per class.
 *
 * <p>Run with {@code bin/videoworld bench shots [PYSCENEDETECT_SRC]}; without a PySceneDetect
 * source folder only our rows are printed.
 */
public final class ShotBench {
    private ShotBench() {}

    record Run(String name, long frames, double seconds, BoundaryEvaluation.Result result) {
        double fps() {
            return frames / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        String pyscenedetect = args.length > 0 ? args[0] : System.getenv("PYSCENEDETECT_SRC");
        Path dir = Files.createTempDirectory("vw-shot-bench");
        List<SyntheticFootage.Clip> clips = new ArrayList<>();
        for (long seed : new long[] {7, 11, 23}) {
            clips.add(SyntheticFootage.write(dir.resolve("clip-" + seed + ".mp4"), 640, 360, 60, seed));
        }
        Map<String, List<Detection>> found = new LinkedHashMap<>();
        Map<String, double[]> time = new LinkedHashMap<>();
        List<Truth> truths = new ArrayList<>();
        long frames = 0;
        double offset = 0;
        for (SyntheticFootage.Clip clip : clips) {
            for (var e : clip.events()) {
                if (e.isTransition()) {
                    truths.add(new Truth(e.kind() != SyntheticFootage.Kind.CUT, e.start() + offset, e.end() + offset));
                }
            }
            // Producer side, untimed for the operator row: the JPEG frames the job would receive.
            List<FrameBatch> batches = new ArrayList<>();
            long t0 = System.nanoTime();
            try (VideoFrameSource src = new VideoFrameSource(clip.file().toString(), 0, new JpegEncoder(640, 85))) {
                SourceFrame f;
                long i = 0;
                while ((f = src.next()) != null) {
                    batches.add(new FrameBatch("bench", SourceKind.VIDEO, clip.file().toString(), 0, 0, src.info(),
                            List.of(new Frame(i++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb()))));
                }
            }
            double decodeEncode = (System.nanoTime() - t0) / 1e9;
            frames += batches.size();
            for (int warm = 0; warm < 2; warm++) {
                long t1 = System.nanoTime();
                List<Detection> mine = detect(batches, offset);
                double op = (System.nanoTime() - t1) / 1e9;
                if (warm == 1) {
                    found.computeIfAbsent("videoworld", k -> new ArrayList<>()).addAll(mine);
                    time.computeIfAbsent("videoworld operator", k -> new double[1])[0] += op;
                    time.computeIfAbsent("videoworld file", k -> new double[1])[0] += op + decodeEncode;
                }
            }
            offset += 1000;
        }
        List<Run> runs = new ArrayList<>();
        BoundaryEvaluation.Result ours = BoundaryEvaluation.evaluate(truths, found.get("videoworld"), 0.1);
        runs.add(new Run("VideoWorld shot operator (frames as the job gets them: JPEG + thumbnail)", frames, time.get("videoworld operator")[0], ours));
        runs.add(new Run("VideoWorld file -> shots (FFmpeg decode + producer JPEG encode + operator)", frames, time.get("videoworld file")[0], ours));
        if (pyscenedetect != null) {
            runs.addAll(pySceneDetect(pyscenedetect, clips, truths));
        }
        System.out.println();
        System.out.printf("%d frames of 640x360 in 3 generated clips; %d cuts and %d gradual transitions; tolerance 0.1 s%n",
                frames, truths.stream().filter(t -> !t.gradual()).count(), truths.stream().filter(Truth::gradual).count());
        System.out.println("| detector | frames/s | F1 all | P all | R all | vs PySceneDetect Content frames/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        double ref = runs.stream().filter(r -> r.name().contains("ContentDetector")).mapToDouble(Run::fps).findFirst().orElse(Double.NaN);
        for (Run r : runs) {
            System.out.printf("| %s | %.0f | %.3f | %.3f | %.3f | %.2fx |%n", r.name(), r.fps(), r.result().all().f1(),
                    r.result().all().precision(), r.result().all().recall(), r.fps() / ref);
        }
        System.out.println("VideoWorld by class: cuts " + ours.cuts() + "; gradual " + ours.gradual());
        System.exit(0);
    }

    private static List<Detection> detect(List<FrameBatch> batches, double offset) {
        List<Detection> out = new ArrayList<>();
        ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), 25);
        ShotTracker.Output sink = new ShotTracker.Output() {
            @Override
            public void keyframe(Keyframe k) { }

            @Override
            public void segment(Segment s) {
                if (Segment.SHOT.equals(s.kind()) && !"start".equals(s.transitionIn())) {
                    out.add(new Detection(!"cut".equals(s.transitionIn()), s.startPtsMs() / 1000.0 + offset));
                }
            }
        };
        for (FrameBatch b : batches) {
            tracker.accept(FeatureExtractor.extract(b, b.frames().get(0)), sink);
        }
        tracker.finish(sink);
        return out;
    }

    private static List<Run> pySceneDetect(String src, List<SyntheticFootage.Clip> clips, List<Truth> truths) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", Path.of("bench/src/main/python/pyscenedetect_run.py").toString()));
        clips.forEach(c -> cmd.add(c.file().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("PYSCENEDETECT_SRC", src);
        pb.environment().put("OMP_NUM_THREADS", "1");
        Process p = pb.start();
        Map<String, List<Detection>> det = new LinkedHashMap<>();
        Map<String, double[]> secs = new LinkedHashMap<>();
        Map<String, Long> frames = new LinkedHashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode j = Json.MAPPER.readTree(line);
                int clip = 0;
                while (!clips.get(clip).file().toString().equals(j.get("file").asText())) {
                    clip++;
                }
                String name = j.get("detector").asText();
                for (JsonNode c : j.get("cuts")) {
                    det.computeIfAbsent(name, k -> new ArrayList<>()).add(new Detection(false, c.asDouble() + clip * 1000.0));
                }
                det.computeIfAbsent(name, k -> new ArrayList<>());
                secs.computeIfAbsent(name, k -> new double[1])[0] += j.get("seconds").asDouble();
                frames.merge(name, j.get("frames").asLong(), Long::sum);
            }
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("PySceneDetect run failed");
        }
        List<Run> runs = new ArrayList<>();
        runs.add(new Run("PySceneDetect ContentDetector", frames.get("content"), secs.get("content")[0],
                BoundaryEvaluation.evaluate(truths, det.get("content"), 0.1)));
        runs.add(new Run("PySceneDetect AdaptiveDetector", frames.get("adaptive"), secs.get("adaptive")[0],
                BoundaryEvaluation.evaluate(truths, det.get("adaptive"), 0.1)));
        return runs;
    }
}
