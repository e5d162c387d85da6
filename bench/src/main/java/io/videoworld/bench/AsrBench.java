package io.videoworld.bench;

import io.videoworld.core.AudioChunk;
import io.videoworld.engines.audio.Speech;
import io.videoworld.engines.audio.SpeechSegmenter;
import io.videoworld.engines.audio.SpeechState;
import io.videoworld.media.audio.AudioTrack;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.audio.Recognition;
import io.videoworld.perception.audio.SileroVad;
import io.videoworld.perception.audio.SphinxRecognizer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/videoworld bench asr}: word error rate of the embedded recogniser (Silero VAD stretches
 * decoded by Sphinx4, the path the ingest job takes) beside Debian's {@code pocketsphinx_continuous}
 * on the same audio in the same run, speech/non-speech F1 of the voice-activity model and of the
 * stretches against hand-checked times, and CPU seconds per second of audio, on recorded speech
 * whose text its package ships ({@code deploy/samples.sh --speech}; truth in
 * {@code bench/speech/truth.tsv}, split into a tuning and a held-out half).
 */
public final class AsrBench {
    static final Path TRUTH = Path.of("bench/speech/truth.tsv");
    static final Path FIRST = Path.of("bench/speech/first-heldout.md");
    /** Silence put before and after every clip, for the recogniser and the reference alike. */
    static final double PAD_S = 0.5;
    static final String PS = "/usr/bin/pocketsphinx_continuous";
    static final String PS_MODEL = "/usr/share/pocketsphinx/model/en-us/";
    private static final double F1_STEP_S = 0.01;

    /** One clip of the truth file. */
    record Clip(String file, String split, String source, List<double[]> speech, String text) {}

    /** What one engine made of one clip. */
    record Scored(String hyp, int errors, int words, double cpuS) {}

    private AsrBench() {}

    /**
     * {@code [--split tune|heldout|all] [--vad-threshold P] [--min-silence MS] [--min-speech MS]
     * [--sphinx NAME=VALUE]... [--no-reference] [--first] [--profile]}.
     */
    public static void main(String[] args) throws Exception {
        String split = "heldout";
        SpeechSegmenter.Params d = SpeechSegmenter.Params.DEFAULT;
        double threshold = d.threshold();
        long minSilence = d.minSilenceMs();
        long minSpeech = d.minSpeechMs();
        Map<String, String> sphinx = new LinkedHashMap<>();
        boolean reference = true;
        boolean first = false;
        boolean profile = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--split" -> split = args[++i];
                case "--vad-threshold" -> threshold = Double.parseDouble(args[++i]);
                case "--min-silence" -> minSilence = Long.parseLong(args[++i]);
                case "--min-speech" -> minSpeech = Long.parseLong(args[++i]);
                case "--sphinx" -> {
                    String[] kv = args[++i].split("=", 2);
                    sphinx.put(kv[0], kv[1]);
                }
                case "--no-reference" -> reference = false;
                case "--first" -> first = true;
                case "--profile" -> profile = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        List<Clip> clips = new ArrayList<>();
        for (Clip c : readTruth(TRUTH)) {
            if (split.equals("all") || c.split().equals(split)) {
                clips.add(c);
            }
        }
        Path samples = ModelDirectory.samples();
        if (profile) {
            profile(samples, clips);
            return;
        }
        if (first && Files.exists(FIRST)) {
            System.err.println("bench asr: " + FIRST + " exists: the held-out half was scored before tuning already");
            System.exit(2);
        }
        BenchRecord.start("asr", args);
        SpeechSegmenter.Params params = new SpeechSegmenter.Params(threshold, minSilence, minSpeech, d.maxSpeechMs());
        boolean cli = reference && Files.isExecutable(Path.of(PS)) && Files.isDirectory(Path.of(PS_MODEL));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Path tmp = Files.createTempDirectory("vw-asr");
        StringBuilder table = new StringBuilder();
        table.append("| clip | split | seconds | reference text | sphinx4 (job path) | WER | pocketsphinx_continuous | WER | VAD F1 | stretch F1 |\n");
        table.append("|---|---|---:|---|---|---:|---|---:|---:|---:|\n");
        int sErr = 0;
        int pErr = 0;
        int words = 0;
        double audioS = 0;
        double sCpu = 0;
        double vCpu = 0;
        double pCpu = 0;
        List<float[]> all = new ArrayList<>();
        long[] vadTally = new long[3];
        long[] stretchTally = new long[3];
        long loadStart = mx.getCurrentThreadCpuTime();
        long wallStart = System.nanoTime();
        try (SileroVad vad = new SileroVad(ModelDirectory.locate()); SphinxRecognizer asr = new SphinxRecognizer(sphinx)) {
            double loadCpu = (mx.getCurrentThreadCpuTime() - loadStart) / 1e9;
            double loadWall = (System.nanoTime() - wallStart) / 1e9;
            SpeechSegmenter segmenter = new SpeechSegmenter(vad, params);
            for (Clip c : clips) {
                float[] audio = padded(AudioTrack.read(file(samples, c).toString()));
                double seconds = audio.length / (double) AudioChunk.RATE;
                audioS += seconds;
                all.add(audio);
                List<double[]> truth = shifted(c.speech());
                // The voice-activity model alone: each 32 ms window at the threshold.
                long t0 = mx.getCurrentThreadCpuTime();
                float[] p = vad.probabilities(audio);
                List<double[]> windows = new ArrayList<>();
                double w = SileroVad.WINDOW / (double) AudioChunk.RATE;
                for (int i = 0; i < p.length; i++) {
                    if (p[i] >= threshold) {
                        windows.add(new double[] {i * w, (i + 1) * w});
                    }
                }
                // The job's path: 1 s chunks through the segmenter, each stretch through Sphinx4.
                long t1 = mx.getCurrentThreadCpuTime();
                List<Speech> stretches = segment(segmenter, audio);
                long t2 = mx.getCurrentThreadCpuTime();
                StringBuilder hyp = new StringBuilder();
                for (Speech s : stretches) {
                    Recognition r = asr.recognize(s.samples());
                    if (!r.text().isEmpty()) {
                        hyp.append(hyp.length() == 0 ? "" : " ").append(r.text());
                    }
                }
                long t3 = mx.getCurrentThreadCpuTime();
                vCpu += (t1 - t0 + t2 - t1) / 2e9;
                sCpu += (t3 - t2) / 1e9;
                List<double[]> found = new ArrayList<>();
                for (Speech s : stretches) {
                    found.add(new double[] {s.startMs() / 1000.0, s.endMs() / 1000.0});
                }
                long[] vt = overlap(truth, windows, seconds);
                long[] st = overlap(truth, found, seconds);
                for (int k = 0; k < 3; k++) {
                    vadTally[k] += vt[k];
                    stretchTally[k] += st[k];
                }
                List<String> ref = words(c.text());
                int se = ref.isEmpty() ? 0 : distance(ref, words(hyp.toString()));
                String pHyp = "-";
                String pWer = "-";
                if (cli && !ref.isEmpty()) {
                    Path wav = tmp.resolve("clip.wav");
                    writeWav(wav, audio);
                    Scored ps = pocketsphinx(wav, tmp);
                    pCpu += ps.cpuS();
                    int pe = distance(ref, words(ps.hyp()));
                    pErr += pe;
                    pHyp = ps.hyp();
                    pWer = pct(pe, ref.size());
                }
                if (!ref.isEmpty()) {
                    sErr += se;
                    words += ref.size();
                }
                table.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %s |%n", c.file(), c.split(), seconds,
                        ref.isEmpty() ? "(no speech)" : String.join(" ", ref), hyp.length() == 0 ? "-" : hyp, ref.isEmpty() ? "-" : pct(se, ref.size()),
                        pHyp.isEmpty() ? "-" : pHyp, pWer, f1(vt), f1(st)));
            }
            System.out.printf(Locale.ROOT, "speech recognition on %d recorded clips (split %s, %.1f s of audio with %.1f s of silence added at each end), "
                    + "shipped text as reference; shared 2-core machine, other builds running%n", clips.size(), split, audioS, PAD_S);
            System.out.println("settings: VAD threshold " + threshold + ", min silence " + minSilence + " ms, min speech " + minSpeech + " ms; Sphinx4 "
                    + (sphinx.isEmpty() ? "defaults" : sphinx.toString()) + (cli ? "; reference " + PS + " with Debian's pocketsphinx-en-us model"
                            : !reference ? "; reference column skipped (--no-reference)"
                                    : "; reference column skipped: " + PS + " or " + PS_MODEL + " missing (apt-get install pocketsphinx pocketsphinx-en-us)"));
            System.out.println();
            System.out.print(table);
            System.out.println();
            System.out.println("pooled over the split:");
            System.out.println();
            System.out.println("| engine | WER | CPU s per audio s (one core) | speech/non-speech F1 |");
            System.out.println("|---|---:|---:|---:|");
            System.out.printf(Locale.ROOT, "| sphinx4:en-us (job path, after the VAD) | %s | %.3f | - |%n", pct(sErr, words), sCpu / audioS);
            System.out.printf(Locale.ROOT, "| pocketsphinx_continuous (reference CLI, whole clip) | %s | %s | - |%n", cli ? pct(pErr, words) : "skipped",
                    cli ? String.format(Locale.ROOT, "%.3f", pCpu / audioS) : "-");
            if (cli) {
                // The reference once over all clips end to end: its model loads once, as the recogniser's does in the job.
                int n = 0;
                for (float[] a : all) {
                    n += a.length;
                }
                float[] joined = new float[n];
                int at = 0;
                for (float[] a : all) {
                    System.arraycopy(a, 0, joined, at, a.length);
                    at += a.length;
                }
                Path wav = tmp.resolve("all.wav");
                writeWav(wav, joined);
                Scored once = pocketsphinx(wav, tmp);
                System.out.printf(Locale.ROOT, "| pocketsphinx_continuous on all clips in one file (model loaded once) | - | %.3f | - |%n", once.cpuS() / audioS);
            }
            System.out.printf(Locale.ROOT, "| silero-vad-v5 windows at the threshold | - | %.4f | %s |%n", vCpu / audioS, f1(vadTally));
            System.out.printf(Locale.ROOT, "| speech stretches (segmenter) | - | - | %s |%n", f1(stretchTally));
            System.out.println();
            System.out.printf(Locale.ROOT, "%d reference words; Sphinx4 model load %.1f s wall, %.1f s CPU (once per subtask, not in the ratios); "
                    + "pocketsphinx CPU includes its model load per clip%n", words, loadWall, loadCpu);
            if (first) {
                Files.writeString(FIRST, "# Held-out half scored once, before any tuning\n\n" + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ", `bin/videoworld bench asr "
                        + String.join(" ", args) + "`\n\n| engine | WER | CPU s per audio s |\n|---|---:|---:|\n"
                        + String.format(Locale.ROOT, "| sphinx4:en-us (job path) | %s | %.3f |%n", pct(sErr, words), sCpu / audioS)
                        + (cli ? String.format(Locale.ROOT, "| pocketsphinx_continuous | %s | %.3f |%n", pct(pErr, words), pCpu / audioS) : "")
                        + String.format(Locale.ROOT, "| VAD windows F1 | %s | - |%n| stretches F1 | %s | - |%n", f1(vadTally), f1(stretchTally)),
                        StandardCharsets.UTF_8);
            }
            if (Files.exists(FIRST) && !split.equals("tune")) {
                System.out.println();
                for (String line : Files.readAllLines(FIRST)) {
                    System.out.println(line.startsWith("# ") ? line.substring(2) + ":" : line);
                }
            }
        } finally {
            try (var files = Files.list(tmp)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(tmp);
        }
    }

    static Path file(Path samples, Clip c) {
        Path p = samples.resolve("speech-bench").resolve(c.file());
        if (!Files.isRegularFile(p)) {
            p = samples.resolve("speech").resolve(c.file());
        }
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("no clip " + c.file() + " under " + samples + " (run deploy/samples.sh --speech)");
        }
        return p;
    }

    /** The truth file: file, split, source, speech times ({@code start-end} seconds, {@code ;}-separated), text, sha256. */
    static List<Clip> readTruth(Path truth) throws IOException {
        List<Clip> out = new ArrayList<>();
        for (String line : Files.readAllLines(truth)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("file\t")) {
                continue;
            }
            String[] f = line.split("\t");
            List<double[]> speech = new ArrayList<>();
            if (!f[3].equals("-")) {
                for (String span : f[3].split(";")) {
                    String[] se = span.split("-");
                    speech.add(new double[] {Double.parseDouble(se[0]), Double.parseDouble(se[1])});
                }
            }
            out.add(new Clip(f[0], f[1], f[2], speech, f[4].equals("-") ? "" : f[4]));
        }
        return out;
    }

    static float[] padded(float[] clip) {
        int pad = (int) (PAD_S * AudioChunk.RATE);
        float[] out = new float[clip.length + 2 * pad];
        System.arraycopy(clip, 0, out, pad, clip.length);
        return out;
    }

    static List<double[]> shifted(List<double[]> spans) {
        List<double[]> out = new ArrayList<>();
        for (double[] s : spans) {
            out.add(new double[] {s[0] + PAD_S, s[1] + PAD_S});
        }
        return out;
    }

    static List<Speech> segment(SpeechSegmenter segmenter, float[] audio) throws Exception {
        List<Speech> out = new ArrayList<>();
        SpeechState state = null;
        long seq = 0;
        for (int from = 0; from < audio.length; from += AudioChunk.RATE) {
            int to = Math.min(audio.length, from + AudioChunk.RATE);
            AudioChunk chunk = AudioChunk.s16("bench", seq++, 0, from * 1000L / AudioChunk.RATE, audio, from, to);
            if (state == null) {
                state = SpeechSegmenter.start(chunk);
            }
            out.addAll(segmenter.accept(state, chunk));
        }
        if (state != null) {
            out.addAll(segmenter.flush(state));
        }
        return out;
    }

    /** Lower case, letters, digits and apostrophes; everything else separates words. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).replace('\u2019', '\'').split("[^a-z0-9']+")) {
            String t = w.replaceAll("^'+|'+$", "");
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Word-level Levenshtein distance: substitutions, deletions and insertions. */
    static int distance(List<String> ref, List<String> hyp) {
        int[] prev = new int[hyp.size() + 1];
        int[] cur = new int[hyp.size() + 1];
        for (int j = 0; j <= hyp.size(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= ref.size(); i++) {
            cur[0] = i;
            for (int j = 1; j <= hyp.size(); j++) {
                int sub = prev[j - 1] + (ref.get(i - 1).equals(hyp.get(j - 1)) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[hyp.size()];
    }

    /** True positives, false positives and false negatives in 10 ms steps over a clip. */
    static long[] overlap(List<double[]> truth, List<double[]> found, double seconds) {
        long[] t = new long[3];
        for (int i = 0; i * F1_STEP_S < seconds; i++) {
            double x = (i + 0.5) * F1_STEP_S;
            boolean a = inside(truth, x);
            boolean b = inside(found, x);
            if (a && b) {
                t[0]++;
            } else if (b) {
                t[1]++;
            } else if (a) {
                t[2]++;
            }
        }
        return t;
    }

    private static boolean inside(List<double[]> spans, double x) {
        for (double[] s : spans) {
            if (x >= s[0] && x < s[1]) {
                return true;
            }
        }
        return false;
    }

    static String f1(long[] t) {
        if (t[0] + t[1] + t[2] == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.3f", 2.0 * t[0] / (2.0 * t[0] + t[1] + t[2]));
    }

    static String pct(int errors, int words) {
        return words == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * errors / words);
    }

    static void writeWav(Path wav, float[] audio) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(44 + audio.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + audio.length * 2).put("WAVE".getBytes(StandardCharsets.US_ASCII));
        b.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1).putShort((short) 1).putInt(AudioChunk.RATE)
                .putInt(AudioChunk.RATE * 2).putShort((short) 2).putShort((short) 16);
        b.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(audio.length * 2);
        for (float v : audio) {
            b.putShort((short) Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
        }
        Files.write(wav, b.array());
    }

    /** Debian's pocketsphinx_continuous on a WAV, its CPU time (user + system, model load included) from the shell's {@code times}. */
    static Scored pocketsphinx(Path wav, Path tmp) throws Exception {
        Path out = tmp.resolve("ps.out");
        String cmd = PS + " -infile " + wav + " -hmm " + PS_MODEL + "en-us -lm " + PS_MODEL + "en-us.lm.bin -dict " + PS_MODEL
                + "cmudict-en-us.dict -logfn /dev/null > " + out + "; times";
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String times = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("pocketsphinx_continuous failed on " + wav + ": " + times);
        }
        String[] lines = times.strip().split("\\R");
        String[] children = lines[lines.length - 1].trim().split("\\s+");
        double cpu = seconds(children[0]) + seconds(children[1]);
        StringBuilder hyp = new StringBuilder();
        for (String line : Files.readAllLines(out)) {
            String l = line.strip();
            if (!l.isEmpty()) {
                hyp.append(hyp.length() == 0 ? "" : " ").append(l);
            }
        }
        return new Scored(hyp.toString(), 0, 0, cpu);
    }

    /** {@code 0m1.234s} in seconds. */
    static double seconds(String t) {
        int m = t.indexOf('m');
        return Double.parseDouble(t.substring(0, m)) * 60 + Double.parseDouble(t.substring(m + 1, t.length() - 1));
    }

    /** Loudness in 20 ms steps and the span above the clip's noise floor, for checking the speech times by eye. */
    static void profile(Path samples, List<Clip> clips) throws Exception {
        for (Clip c : clips) {
            float[] a = AudioTrack.read(file(samples, c).toString());
            int step = AudioChunk.RATE / 50;
            int n = a.length / step;
            double[] db = new double[n];
            double max = -100;
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (int k = i * step; k < (i + 1) * step; k++) {
                    sum += a[k] * a[k];
                }
                db[i] = Math.max(-100, 10 * Math.log10(sum / step + 1e-12));
                max = Math.max(max, db[i]);
            }
            StringBuilder bar = new StringBuilder();
            int firstOn = -1;
            int lastOn = -1;
            for (int i = 0; i < n; i++) {
                double rel = db[i] - max;
                bar.append(rel > -10 ? '#' : rel > -20 ? '+' : rel > -30 ? '.' : ' ');
                if (rel > -30) {
                    firstOn = firstOn < 0 ? i : firstOn;
                    lastOn = i;
                }
            }
            System.out.printf(Locale.ROOT, "%-32s %5.2fs peak %5.1f dB  -30 dB span %.2f-%.2f  |%s|%n", c.file(), a.length / (double) AudioChunk.RATE, max,
                    firstOn * 0.02, (lastOn + 1) * 0.02, bar);
        }
    }
}
