package io.videoworld.engines.memory;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.testkit.DesktopSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Episodes scored against a generated session's truth: event starts against activity starts
 * (within {@value #TOLERANCE_S} s, each matched once; the session's start is not counted), returns
 * whose event links to an event of an earlier activity of the same task, and activities whose
 * event (the one covering the activity's middle) names the right app (or, where the window names
 * none, the right kind of app); and, so that linking everything does not pay, events that link
 * back although they start no return.
 */
record ScreenMemoryScore(int predicted, int truth, int matched, int returns, int linked, int activities, int appsRight, int batches,
        int ambiguous, int falseLinks) {
    static final double TOLERANCE_S = 2.0;

    static ScreenMemoryScore of(DesktopSession.Session s, ScreenMemoryRun.Result r) {
        List<Double> predicted = new ArrayList<>();
        for (EpisodeDoc e : r.events()) {
            if (e.startPtsMs() > TOLERANCE_S * 1000) {
                predicted.add(e.startPtsMs() / 1000.0);
            }
        }
        List<Integer> truth = s.truth().stream().map(DesktopSession.Activity::start).filter(t -> t > 0).toList();
        int matched = 0;
        List<Double> free = new ArrayList<>(predicted);
        for (int t : truth) {
            Double best = null;
            for (double p : free) {
                if (Math.abs(p - t) <= TOLERANCE_S && (best == null || Math.abs(p - t) < Math.abs(best - t))) {
                    best = p;
                }
            }
            if (best != null) {
                free.remove(best);
                matched++;
            }
        }
        int returns = 0;
        int linked = 0;
        int appsRight = 0;
        for (DesktopSession.Activity a : s.truth()) {
            EpisodeDoc covering = at(r.events(), (a.start() + a.end()) * 500L);
            if (covering != null && covering.app() != null && named(s, a, DesktopSession.norm(covering.app()))) {
                appsRight++;
            }
            if (!a.returns()) {
                continue;
            }
            returns++;
            EpisodeDoc e = r.events().stream().filter(x -> Math.abs(x.startPtsMs() / 1000.0 - a.start()) <= TOLERANCE_S).findFirst().orElse(null);
            if (e == null) {
                continue;
            }
            for (String id : e.linkedEventIds()) {
                EpisodeDoc target = r.events().stream().filter(x -> x.id().equals(id)).findFirst().orElse(null);
                if (target != null && target.startPtsMs() < e.startPtsMs() && sameTask(s, a, target)) {
                    linked++;
                    break;
                }
            }
        }
        int falseLinks = 0;
        for (EpisodeDoc e : r.events()) {
            boolean atReturn = s.truth().stream().anyMatch(a -> a.returns() && Math.abs(e.startPtsMs() / 1000.0 - a.start()) <= TOLERANCE_S);
            falseLinks += !e.linkedEventIds().isEmpty() && !atReturn ? 1 : 0;
        }
        return new ScreenMemoryScore(predicted.size(), truth.size(), matched, returns, linked, s.truth().size(), appsRight, r.batches().size(),
                r.ambiguous(), falseLinks);
    }

    /**
     * Why each return of the truth that was not linked was missed: the event that starts it (or
     * none within the tolerance), what that event links to, the earlier events of the task it should
     * have joined, and the relation, similarity, app and title of the batch that starts it.
     */
    static List<String> missedReturns(DesktopSession.Session s, ScreenMemoryRun.Result r) {
        List<String> out = new ArrayList<>();
        for (DesktopSession.Activity a : s.truth()) {
            if (!a.returns()) {
                continue;
            }
            EpisodeDoc e = r.events().stream().filter(x -> Math.abs(x.startPtsMs() / 1000.0 - a.start()) <= TOLERANCE_S).findFirst().orElse(null);
            boolean linked = e != null && e.linkedEventIds().stream().anyMatch(id -> r.events().stream()
                    .anyMatch(x -> x.id().equals(id) && x.startPtsMs() < e.startPtsMs() && sameTask(s, a, x)));
            if (linked) {
                continue;
            }
            List<String> should = r.events().stream().filter(x -> x.startPtsMs() < a.start() * 1000L && sameTask(s, a, x))
                    .map(x -> String.format(Locale.ROOT, "%s %.0f-%.0f app=%s", x.id(), x.startPtsMs() / 1e3, x.endPtsMs() / 1e3, x.app())).toList();
            EpisodeBatch b = r.batches().stream().filter(x -> Math.abs(x.startPtsMs() / 1000.0 - a.start()) <= TOLERANCE_S).findFirst().orElse(null);
            out.add(String.format(Locale.ROOT, "missed return %d-%d s (task %s, %s%s): event %s, links %s; should join %s; batch %s", a.start(), a.end(),
                    a.task(), a.kind(), a.fullScreen() ? ", full screen" : "", e == null ? "none starts here" : e.id(),
                    e == null ? "-" : e.linkedEventIds(), should.isEmpty() ? "no earlier event of the task (cut missed)" : should,
                    b == null ? "none starts here" : String.format(Locale.ROOT, "%d %s->%d sim %.2f by %s app=%s title=%s", b.batchSeq(), b.relation(),
                            b.relatedBatch(), b.similarity(), b.decidedBy(), b.app(), b.title())));
        }
        return out;
    }

    /**
     * Each activity whose event was given a wrong app name: the truth's app and kind, whether it
     * was full screen or without title bars, the name given, and the batch's title at its middle.
     */
    static List<String> missedNames(DesktopSession.Session s, ScreenMemoryRun.Result r) {
        List<String> out = new ArrayList<>();
        for (DesktopSession.Activity a : s.truth()) {
            long mid = (a.start() + a.end()) * 500L;
            EpisodeDoc covering = at(r.events(), mid);
            if (covering != null && covering.app() != null && named(s, a, DesktopSession.norm(covering.app()))) {
                continue;
            }
            EpisodeBatch b = r.batches().stream().filter(x -> x.startPtsMs() <= mid && x.endPtsMs() > mid).findFirst().orElse(null);
            out.add(String.format(Locale.ROOT, "missed name %d-%d s (task %s, %s %s%s%s): event %s app=%s; batch app=%s title=%s", a.start(), a.end(),
                    a.task(), a.kind(), a.app(), a.fullScreen() ? ", full screen" : "", s.variant().titled() ? "" : ", no title bars",
                    covering == null ? "none" : covering.id() + String.format(Locale.ROOT, " %.0f-%.0f", covering.startPtsMs() / 1e3,
                            covering.endPtsMs() / 1e3), covering == null ? "-" : covering.app(), b == null ? "-" : b.app(), b == null ? "-" : b.title()));
        }
        return out;
    }

    /**
     * Whether {@code app} is what a person would call the activity's app: the name its window
     * shows; where the window shows none (no title bars, full screen), its kind ("browser") too.
     */
    private static boolean named(DesktopSession.Session s, DesktopSession.Activity a, String app) {
        return app.equals(a.app()) || (!s.variant().titled() || a.fullScreen()) && app.equals(a.kind());
    }

    /** Whether most of the event lies in earlier activities of the task of {@code a}. */
    private static boolean sameTask(DesktopSession.Session s, DesktopSession.Activity a, EpisodeDoc target) {
        long inside = 0;
        for (DesktopSession.Activity b : s.truth()) {
            if (b.task().equals(a.task()) && b.start() < a.start()) {
                inside += Math.max(0, Math.min(b.end() * 1000L, target.endPtsMs()) - Math.max(b.start() * 1000L, target.startPtsMs()));
            }
        }
        return inside * 2 >= Math.max(1, target.endPtsMs() - target.startPtsMs());
    }

    private static EpisodeDoc at(List<EpisodeDoc> events, long ptsMs) {
        EpisodeDoc best = null;
        for (EpisodeDoc e : events) {
            if (e.startPtsMs() <= ptsMs && (best == null || e.startPtsMs() > best.startPtsMs())) {
                best = e;
            }
        }
        return best;
    }

    ScreenMemoryScore plus(ScreenMemoryScore o) {
        return new ScreenMemoryScore(predicted + o.predicted, truth + o.truth, matched + o.matched, returns + o.returns, linked + o.linked,
                activities + o.activities, appsRight + o.appsRight, batches + o.batches, ambiguous + o.ambiguous, falseLinks + o.falseLinks);
    }

    static ScreenMemoryScore zero() {
        return new ScreenMemoryScore(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    double precision() {
        return predicted == 0 ? 0 : (double) matched / predicted;
    }

    double recall() {
        return truth == 0 ? 1 : (double) matched / truth;
    }

    double f1() {
        double p = precision();
        double r = recall();
        return p + r == 0 ? 0 : 2 * p * r / (p + r);
    }

    double returnsLinked() {
        return returns == 0 ? 1 : (double) linked / returns;
    }

    double appsRightShare() {
        return activities == 0 ? 1 : (double) appsRight / activities;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "boundaries P/R/F1 %.2f/%.2f/%.2f (%d events, %d activity changes, %d matched); returns linked %d/%d (%.0f%%, %d links elsewhere); "
                + "app names right %d/%d (%.0f%%); ambiguous batches (model calls) %d/%d = %.2f per batch", precision(), recall(), f1(), predicted,
                truth, matched, linked, returns, 100 * returnsLinked(), falseLinks, appsRight, activities, 100 * appsRightShare(), ambiguous, batches,
                batches == 0 ? 0.0 : (double) ambiguous / batches);
    }
}
