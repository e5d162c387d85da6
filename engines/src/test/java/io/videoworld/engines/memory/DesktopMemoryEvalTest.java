package io.videoworld.engines.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.EpisodeDoc;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.perception.OcrEngine;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.testkit.DesktopSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The screen-memory evaluation: held-out five-minute desktop sessions ({@link DesktopSession},
 * never tuned on) through the job's engines with the real OCR ({@link ScreenMemoryRun}), scored
 * by {@link ScreenMemoryScore}, with the sessions that have a panel and those without title bars
 * reported apart, and questions about the sessions' text answered with clips ({@link ScreenAnswersScore}).
 * {@code -Dvw.eval.seeds=tuning} runs the tuning seeds instead, {@code fresh}, {@code fresh-2}, {@code fresh-3}, {@code fresh-4}, {@code fresh-5} and {@code fresh-6} the second to seventh held-out sets (and assert
 * nothing); {@code vw.eval.sessions}, {@code vw.eval.seconds}, {@code vw.eval.width} and
 * {@code vw.eval.keyframe-every} change the run; {@code vw.eval.verbose} prints every batch and event;
 * {@code vw.eval.panel=gnome} draws every session under a GNOME-like top bar instead of its seed's panel;
 * {@code vw.eval.cache} keeps what perception saw ({@link ScreenMemoryCache}, for tuning the memory alone); sets separated by
 * {@code ;} ({@code held-out;fresh-4}) run one after the other, each reported apart.
 */
class DesktopMemoryEvalTest {
    private static final long EPOCH = 1_700_000_000_000L;
    // Floors, not targets (#13 asks 0.9 / 90% / 90%): under what the held-out run gives here
    // (2026-11-25: F1 0.92, returns 11 of 12, names 66 of 66), because another machine's man pages and docs give other
    // text and OCR varies from run to run (a return or two flips); they catch a regression, the
    // printed figures are the claim.
    private static final double F1_FLOOR = 0.85;
    private static final double RETURNS_FLOOR = 0.75;
    private static final double APPS_FLOOR = 0.90;

    @TempDir
    Path tmp;

    @Test
    void heldOutSessionsSegmentLinkAndNameAsAPersonWould() throws Exception {
        // Several sets in one run ("held-out;fresh-4"), each reported apart: the models load once.
        Path models = ModelDirectory.locate();
        try (OcrEngine ocr = OcrEngine.load(models); TextEmbedder embedder = TextEmbedder.load(models)) {
            for (String which : System.getProperty("vw.eval.seeds", "held-out").split(";")) {
                evaluate(which.strip(), ocr, embedder);
            }
        }
    }

    private void evaluate(String which, OcrEngine ocr, TextEmbedder embedder) throws Exception {
        List<Long> seeds = switch (which) {
            case "held-out" -> DesktopSession.HELD_OUT;
            case "tuning" -> DesktopSession.TUNING;
            case "fresh" -> DesktopSession.FRESH;
            case "fresh-2" -> DesktopSession.FRESH_2;
            case "fresh-3" -> DesktopSession.FRESH_3;
            case "fresh-4" -> DesktopSession.FRESH_4;
            case "fresh-5" -> DesktopSession.FRESH_5;
            case "fresh-6" -> DesktopSession.FRESH_6;
            default -> Arrays.stream(which.split(",")).map(Long::parseLong).toList();
        };
        seeds = seeds.subList(0, Math.min(seeds.size(), Integer.getInteger("vw.eval.sessions", seeds.size())));
        int seconds = Integer.getInteger("vw.eval.seconds", 300);
        int width = Integer.getInteger("vw.eval.width", 640);
        double every = Double.parseDouble(System.getProperty("vw.eval.keyframe-every", "4"));
        boolean verbose = Boolean.getBoolean("vw.eval.verbose");
        String panel = System.getProperty("vw.eval.panel"); // every session under this panel ("gnome"), not its seed's own
        String drawn = panel == null ? "" : "-" + panel;
        Map<String, ScreenMemoryScore> groups = new LinkedHashMap<>();
        ScreenMemoryCache cache = new ScreenMemoryCache(System.getProperty("vw.eval.cache"));
        ScreenAnswersScore answers = new ScreenAnswersScore(embedder);
        ScreenMemoryRun run = new ScreenMemoryRun(ocr, embedder, width, every).observe(answers::observe);
        for (long seed : seeds) {
            long t0 = System.nanoTime();
            DesktopSession.Session s = cache.session("s" + seed + "-" + seconds + drawn,
                    folder -> DesktopSession.write(folder != null ? folder : tmp.resolve("s" + seed), seed, seconds, EPOCH, panel));
            long t1 = System.nanoTime();
            String stream = "desk-" + seed;
            List<ScreenMemoryRun.Tick> ticks = cache.ticks(stream + "-" + seconds + "-" + width + "-" + every + drawn,
                    () -> run.perceive(stream, s.folder(), EPOCH));
            ScreenMemoryRun.Result r = run.remember(ticks);
            long t2 = System.nanoTime();
            ScreenMemoryScore score = ScreenMemoryScore.of(s, r);
            System.out.printf("seed %d %s: %s; %d keyframes, render %.1f s, pipeline %.1f s (OCR %.1f s)%n", seed, s.variant(), score,
                    r.keyframes(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, r.ocrMs() / 1e3);
            // Printed always (a line per miss): the held-out misses are reported, never tuned on.
            ScreenMemoryScore.missedReturns(s, r).forEach(m -> System.out.println("  " + m));
            ScreenMemoryScore.missedNames(s, r).forEach(m -> System.out.println("  " + m));
            if (verbose) {
                s.truth().forEach(a -> System.out.println("  truth " + a));
                if (Boolean.getBoolean("vw.eval.keyframes")) {
                    ScreenMemoryRun.printKeyframes(ticks);
                }
                r.batches().forEach(b -> System.out.printf("  batch %d %.0f-%.0f %s->%d app=%s title=%s%n", b.batchSeq(), b.startPtsMs() / 1e3,
                        b.endPtsMs() / 1e3, b.relation(), b.relatedBatch(), b.app(), b.title()));
                for (EpisodeDoc e : r.events()) {
                    System.out.printf("  event %s %.0f-%.0f app=%s links=%s %s%n", e.id(), e.startPtsMs() / 1e3, e.endPtsMs() / 1e3, e.app(),
                            e.linkedEventIds(), e.summary().substring(0, Math.min(110, e.summary().length())));
                }
            }
            List<String> keys = new ArrayList<>(List.of("all"));
            keys.add(s.variant().panel().equals("none") ? "no panel" : "panel (top or bottom)");
            keys.add(s.variant().titled() ? "title bars" : "no title bars");
            for (String k : keys) {
                groups.merge(k, score, ScreenMemoryScore::plus);
            }
            answers.ask(s, "desk-" + seed, EPOCH, r.events(), keys);
        }
        answers.report(which);
        groups.forEach((k, v) -> System.out.printf("%s sessions (%s, %d s, %d px, keyframes every %.1f s): %s%n", which, k, seconds, width, every, v));
        if (which.equals("held-out") && panel == null && seeds.size() == 5 && seconds == 300 && width == 640 && every == 4) {
            // Floors a little under what the held-out sessions gave when this was written (see README); the issue's
            // targets (F1 0.9, returns 90%, app names 90%): returns are not reached yet.
            ScreenMemoryScore all = groups.get("all");
            assertThat(all.f1()).as("boundary F1").isGreaterThanOrEqualTo(F1_FLOOR);
            assertThat(all.returnsLinked()).as("returns linked").isGreaterThanOrEqualTo(RETURNS_FLOOR);
            assertThat(all.appsRightShare()).as("app names right").isGreaterThanOrEqualTo(APPS_FLOOR);
            assertThat(all.ambiguous()).as("model calls per batch").isLessThanOrEqualTo((int) (0.4 * all.batches()));
            answers.checkFloors();
        }
    }
}
