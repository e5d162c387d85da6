package io.videoworld.bench;

import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.engines.tracking.ByteTracker;
import io.videoworld.engines.tracking.LiveTrack;
import io.videoworld.engines.tracking.TrackerParams;
import io.videoworld.testkit.MotMetrics;
import io.videoworld.testkit.SyntheticTracks;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Tracker MOTA, IDF1 and updates/s beside ByteTrack's reference BYTETracker on the same synthetic crowds, in the same run. */
public final class TrackerBench {
    private TrackerBench() {}

    private static final String RUNNER = "bench/src/main/python/bytetrack_run.py";
    private static final List<String> FLAGS =
            List.of("--track-thresh", "0.5", "--track-buffer", "30", "--match-thresh", "0.8", "--frame-rate", "30");
    private static final Pattern SUMMARY = Pattern.compile("bytetrack frames=(\\d+) updates_per_s=([0-9.]+)");
    private static final int STANDARD = 5;

    /** One tracker on one sequence: its scores, and the time spent inside update(). */
    record Out(MotMetrics.Result result, long updates, double seconds) {}

    record Row(String name, List<Out> outs) {
        double updatesPerSecond() {
            return outs.stream().mapToLong(Out::updates).sum() / outs.stream().mapToDouble(Out::seconds).sum();
        }
    }

    public static void main(String[] args) throws Exception {
        BenchRecord.start("tracker", args);
        String src = args.length > 0 ? args[0] : System.getenv("BYTETRACK_SRC");
        List<SyntheticTracks.Sequence> seqs = new ArrayList<>();
        for (long seed = 1; seed <= STANDARD; seed++) {
            seqs.add(SyntheticTracks.generate(SyntheticTracks.Config.standard(seed)));
        }
        seqs.add(SyntheticTracks.generate(new SyntheticTracks.Config(600, 8, 0.03, 0.5, 2.0, 400, 7)));
        Map<String, TrackerParams> modes = new LinkedHashMap<>();
        // The first row gets what ByteTrack gets: boxes and scores. The second also reads each box's and the whole frame's colour histogram.
        modes.put("VideoWorld, ByteTrack association only (boxes and scores, as ByteTrack)", TrackerParams.byteTrack(30));
        modes.put("VideoWorld, + colour histograms: appearance gate, re-id, whole-frame histogram for cuts (ByteTrack has none)",
                TrackerParams.defaults(30, 90));
        // The first pass only JIT-compiles the tracker; timing it would measure the interpreter.
        for (TrackerParams p : modes.values()) {
            for (SyntheticTracks.Sequence s : seqs) {
                ours(s, p);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (var mode : modes.entrySet()) {
            List<Out> outs = new ArrayList<>();
            for (SyntheticTracks.Sequence s : seqs) {
                outs.add(ours(s, mode.getValue()));
            }
            rows.add(new Row(mode.getKey(), outs));
        }
        Row ref = src == null ? null : new Row("ByteTrack BYTETracker (reference, Python)", byteTrack(src, seqs));
        if (ref != null) {
            rows.add(ref);
        }
        long frames = seqs.stream().mapToLong(s -> s.frames().size()).sum();
        System.out.println();
        System.out.printf("Synthetic crowds, 1280x720, 600 frames, 12 people walking across each other, a pillar hiding whoever passes "
                + "behind it, 5%% missed detections, 1 false positive/frame, box jitter 2 px (seeds 1-%d, summed); "
                + "cut: 8 people, mirrored view from frame 400 (seed 7). updates/s: time inside update() over all %d frames, "
                + "one thread, ours after a warm-up pass.%n", STANDARD, frames);
        System.out.println("| tracker | MOTA | IDF1 | FP | FN | IDSW | IDF1 cut | updates/s | vs ByteTrack updates/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row r : rows) {
            long gt = 0;
            long fp = 0;
            long fn = 0;
            long idsw = 0;
            long idtp = 0;
            long hyp = 0;
            for (Out o : r.outs().subList(0, STANDARD)) {
                gt += o.result().truth();
                fp += o.result().falsePositives();
                fn += o.result().misses();
                idsw += o.result().switches();
                idtp += o.result().idtp();
                hyp += o.result().hypotheses();
            }
            // From summed counts, so long sequences weigh as much as they hold.
            double mota = 1 - (double) (fn + fp + idsw) / gt;
            double idf1 = 2.0 * idtp / (gt + hyp);
            String ratio = ref == null ? "n/a" : String.format("%.2fx", r.updatesPerSecond() / ref.updatesPerSecond());
            System.out.printf("| %s | %.3f | %.3f | %d | %d | %d | %.3f | %.0f | %s |%n", r.name(), mota, idf1, fp, fn, idsw,
                    r.outs().get(STANDARD).result().idf1(), r.updatesPerSecond(), ratio);
        }
        System.out.println("Reference: OMP_NUM_THREADS=1 /usr/bin/python3 " + RUNNER + " " + (src == null ? "BYTETRACK_SRC" : src)
                + " SEQ.csv OUT.csv " + String.join(" ", FLAGS)
                + (src == null ? "  (not run: pass a ByteTrack checkout, bin/videoworld bench tracker DIR)" : ""));
    }

    private static Out ours(SyntheticTracks.Sequence seq, TrackerParams params) {
        ByteTracker tracker = new ByteTracker(params, 1L);
        List<List<MotMetrics.Box>> hyp = new ArrayList<>();
        long nanos = 0;
        for (DetectedFrame f : seq.frames()) {
            long t0 = System.nanoTime();
            ByteTracker.Step step = tracker.update(f);
            nanos += System.nanoTime() - t0;
            List<MotMetrics.Box> out = new ArrayList<>();
            for (LiveTrack l : step.online()) {
                double[] b = l.box();
                out.add(new MotMetrics.Box(l.number(), b[0], b[1], b[2], b[3]));
            }
            hyp.add(out);
        }
        return new Out(MotMetrics.evaluate(seq.truth(), hyp, 0.5), seq.frames().size(), nanos / 1e9);
    }

    private static List<Out> byteTrack(String src, List<SyntheticTracks.Sequence> seqs) throws Exception {
        Path dir = Files.createTempDirectory("vw-tracker-bench");
        List<Out> outs = new ArrayList<>();
        for (int s = 0; s < seqs.size(); s++) {
            SyntheticTracks.Sequence seq = seqs.get(s);
            Path in = dir.resolve("seq-" + s + ".csv");
            Path out = dir.resolve("seq-" + s + "-tracks.csv");
            try (BufferedWriter w = Files.newBufferedWriter(in, StandardCharsets.UTF_8)) {
                w.write("# frames=" + seq.frames().size() + " width=" + seq.width() + " height=" + seq.height() + "\n");
                w.write("frame,x1,y1,x2,y2,score\n");
                for (int i = 0; i < seq.frames().size(); i++) {
                    for (Detection d : seq.frames().get(i).detections()) {
                        // Double.toString round-trips exactly, so both trackers see the same boxes.
                        w.write((i + 1) + "," + d.x1() + "," + d.y1() + "," + d.x2() + "," + d.y2() + "," + d.score() + "\n");
                    }
                }
            }
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", RUNNER, src, in.toString(), out.toString()));
            cmd.addAll(FLAGS);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.INHERIT);
            // numpy's BLAS would otherwise spread the Kalman products over cores; ours uses one.
            pb.environment().put("OMP_NUM_THREADS", "1");
            Process p = pb.start();
            long updates = -1;
            double rate = Double.NaN;
            // The rate is the runner's last stderr line, so stderr is piped and echoed rather than inherited.
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    System.err.println(line);
                    Matcher m = SUMMARY.matcher(line);
                    if (m.find()) {
                        updates = Long.parseLong(m.group(1));
                        rate = Double.parseDouble(m.group(2));
                    }
                }
            }
            if (p.waitFor() != 0 || updates < 0) {
                throw new IllegalStateException("ByteTrack run failed on " + in + ": " + String.join(" ", cmd));
            }
            List<List<MotMetrics.Box>> hyp = new ArrayList<>();
            for (int i = 0; i < seq.frames().size(); i++) {
                hyp.add(new ArrayList<>());
            }
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] c = line.split(",");
                hyp.get(Integer.parseInt(c[0]) - 1).add(new MotMetrics.Box(Long.parseLong(c[1]), Double.parseDouble(c[2]),
                        Double.parseDouble(c[3]), Double.parseDouble(c[4]), Double.parseDouble(c[5])));
            }
            outs.add(new Out(MotMetrics.evaluate(seq.truth(), hyp, 0.5), updates, updates / rate));
        }
        return outs;
    }
}
