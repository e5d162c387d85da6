package io.videoworld.engines.memory;

import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Returns to an earlier task on screens found by what the window shows rather than by its title
 * or by the gist of its text: a window returned to shows what it showed when it was left (the
 * same lines of the same page, scrolled a little at most), while two tasks of one app under one
 * title (two terminals, two changelogs in an editor) share a title and an embedding's gist but
 * not their lines. So every remembered batch keeps the content lines of its last keyframe; a
 * batch that starts at a cut returns to the earlier activity whose last screen shares most of its
 * first screen's lines (as in MIRIX, any recent event, not only the latest), and a return the
 * rules found by title and gist is dropped when the two screens share almost no line. A screen
 * that showed little (a shell after two commands) counts when all its lines are shown again, and a
 * full-screen window is remembered by the whole frame (its text starts where chrome would be).
 */
final class ScreenReturns {
    /** Share of the lines of the screen with fewer of them that the other shows too: the same task, as it was left. */
    static final double SAME_SCREEN = 0.5;
    /** Under this share two screens of a return found by title show different things (another task under that title). */
    static final double OTHER_SCREEN = 0.1;
    /** A remembered screen with fewer lines than this says too little even when all of them are shown again. */
    static final int FEW_LINES = 3;
    /** Lines kept per view, and letters per line: bounded state (views are kept for the recent batches and the remembered tasks). */
    private static final int LINES = 24;
    private static final int CHARS = 48;
    /** Words kept per view (a batch's keyframes), and the fewest a return by words must share. */
    private static final int WORDS = 160;
    static final int OWN_WORDS = 8;
    /**
     * And at least this share of the screen's words, a quarter: a sixth found a PDF read full screen, then in its window, on
     * tuning seed 279 (10 own words of 56), but also linked a changelog in the browser to it (8 of 47, one maintainer).
     */
    static final double OWN_SHARE = 1.0 / 4;
    private static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("\\b\\p{L}[\\p{L}\\p{N}]{4,}");

    private ScreenReturns() {}

    /**
     * The relation of a batch that starts at a cut: {@code rules} (the policy's), unless the
     * content of its first keyframe {@code first} says otherwise.
     */
    static EpisodePolicy.Relation relate(EpisodePolicy.Relation rules, Perception first, List<BatcherState.View> views, long prevSeq) {
        return relate(rules, first, null, views, prevSeq, seq -> null);
    }

    /**
     * As above, where the batch's window names app {@code app} (null: unknown) and {@code appOf}
     * gives the app of a remembered batch: a window of one app never returns to another's, however
     * alike their text (a changelog read in the terminal, then in the browser, is two tasks).
     */
    static EpisodePolicy.Relation relate(EpisodePolicy.Relation rules, Perception first, String app, List<BatcherState.View> views, long prevSeq,
            java.util.function.LongFunction<String> appOf) {
        if (first == null || views.isEmpty()) {
            return rules;
        }
        List<String> now = lines(first);
        // With its top band too: a window returned to full screen shows at the top what it showed under its chrome when
        // it was left (the remembered views keep the content band only, so chrome there never matches); the better share counts.
        List<String> whole = ScreenContinuity.norms(first, 0);
        if (whole.size() < ScreenContinuity.MIN_LINES) {
            return rules;
        }
        long left = views.stream().filter(v -> v.batchSeq() == prevSeq).mapToLong(BatcherState.View::activity).findFirst().orElse(prevSeq);
        BatcherState.View best = null;
        double bestShare = SAME_SCREEN;
        for (BatcherState.View v : views) {
            if (v.activity() == left || v.batchSeq() == prevSeq || v.lines().size() < FEW_LINES || otherApp(app, appOf.apply(v.batchSeq()))) {
                continue;
            }
            double share = Math.max(now.size() < ScreenContinuity.MIN_LINES ? 0 : ScreenContinuity.overlap(now, v.lines()), ScreenContinuity.overlap(whole, v.lines()));
            // A screen that showed little (a shell after two commands) is returned to only when every line of it is there again.
            if (share >= bestShare && (v.lines().size() >= ScreenContinuity.MIN_LINES || share >= 1)) {
                best = v;
                bestShare = share;
            }
        }
        if (best != null) {
            return new EpisodePolicy.Relation(EpisodeBatch.RETURN, best.batchSeq(), bestShare);
        }
        if (EpisodeBatch.NEW.equals(rules.kind())) {
            // A window that names its app finds its earlier activities by title; not those that named nothing (full
            // screen, no chrome): among them, by the document's own words (a PDF read full screen, then in its window).
            java.util.function.LongPredicate unnamed = app == null ? seq -> true : seq -> appOf.apply(seq) == null;
            EpisodePolicy.Relation document = byWords(first, views, left, prevSeq, unnamed);
            if (document != null) {
                return document;
            }
        }
        if (EpisodeBatch.RETURN.equals(rules.kind())) {
            BatcherState.View target = views.stream().filter(v -> v.batchSeq() == rules.relatedBatch()).findFirst().orElse(null);
            if (target != null && target.lines().size() >= ScreenContinuity.MIN_LINES && now.size() >= ScreenContinuity.MIN_LINES && ScreenContinuity.overlap(now, target.lines()) < OTHER_SCREEN) {
                return new EpisodePolicy.Relation(EpisodeBatch.NEW, -1, rules.similarity());
            }
        }
        return rules;
    }

    /**
     * A window that names nothing (full screen, no chrome) returned to at another page than it was
     * left on shares no line with what it showed last, and pages of alike documents share their
     * gist (every changelog's); but a document's own words (its package, its people, its terms)
     * recur on its pages and appear in no other task. So: the earlier activity whose words the
     * first screen shares, among words no other remembered activity showed, at least
     * {@value #OWN_WORDS} of them and a quarter of the screen's words ({@link #OWN_SHARE}), four times as many as any other.
     */
    private static EpisodePolicy.Relation byWords(Perception first, List<BatcherState.View> views, long left, long prevSeq,
            java.util.function.LongPredicate candidate) {
        Set<String> now = new HashSet<>(words(List.of(first), 0));
        java.util.Map<Long, Set<String>> byActivity = new java.util.HashMap<>();
        java.util.Map<Long, Long> latest = new java.util.HashMap<>();
        for (BatcherState.View v : views) {
            byActivity.computeIfAbsent(v.activity(), a -> new HashSet<>()).addAll(v.words());
            latest.merge(v.activity(), v.batchSeq(), Math::max);
        }
        java.util.Map<String, Integer> seenIn = new java.util.HashMap<>();
        byActivity.values().forEach(ws -> ws.forEach(w -> seenIn.merge(w, 1, Integer::sum)));
        long best = -1;
        int bestOwn = 0;
        int second = 0;
        for (java.util.Map.Entry<Long, Set<String>> e : byActivity.entrySet()) {
            if (e.getKey() == left || latest.get(e.getKey()) == prevSeq || !candidate.test(latest.get(e.getKey()))) {
                continue;
            }
            int own = (int) now.stream().filter(w -> e.getValue().contains(w) && seenIn.get(w) == 1).count();
            if (own > bestOwn) {
                second = bestOwn;
                best = latest.get(e.getKey());
                bestOwn = own;
            } else {
                second = Math.max(second, own);
            }
        }
        boolean found = bestOwn >= OWN_WORDS && bestOwn >= OWN_SHARE * now.size() && second * 4 <= bestOwn;
        return found ? new EpisodePolicy.Relation(EpisodeBatch.RETURN, best, (double) bestOwn / now.size()) : null;
    }

    /** Words (a letter, then four or more letters or digits, lower case) of the keyframes' lines below the top {@code top} of the frame, bounded. */
    static List<String> words(List<Perception> in, double top) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (Perception p : in) {
            for (io.videoworld.core.TextLine l : p.lines()) {
                if (l.y() < p.height() * top || l.y() > p.height() * (1 - WindowChrome.BOTTOM_BAND)) {
                    continue;
                }
                java.util.regex.Matcher m = WORD.matcher(l.text().toLowerCase(java.util.Locale.ROOT));
                while (m.find() && out.size() < WORDS) {
                    out.add(m.group());
                }
            }
        }
        return List.copyOf(out);
    }

    private static boolean otherApp(String a, String b) {
        return a != null && b != null && !a.equals(b);
    }

    /**
     * Keeps the view of {@code batch} (its last keyframe {@code last}) and drops the views of
     * batches no longer among the recent ones ({@code context}) or the remembered tasks.
     */
    static void remember(List<BatcherState.View> views, EpisodeBatch batch, Perception last, List<EpisodeBatch.Digest> context, List<EpisodeBatch.Digest> tasks) {
        remember(views, batch, last, List.of(last), context, tasks);
    }

    /** As above, keeping the words of all the batch's keyframes {@code all} too. */
    static void remember(List<BatcherState.View> views, EpisodeBatch batch, Perception last, List<Perception> all, List<EpisodeBatch.Digest> context,
            List<EpisodeBatch.Digest> tasks) {
        long activity = batch.batchSeq();
        if (EpisodeBatch.CONTINUE.equals(batch.relation()) && !views.isEmpty()) {
            BatcherState.View prev = views.get(views.size() - 1);
            activity = prev.batchSeq() == batch.batchSeq() - 1 ? prev.activity() : activity;
        } else if (EpisodeBatch.RETURN.equals(batch.relation())) {
            // A return is the task it returns to: its words are that task's own, not shared with another activity.
            activity = views.stream().filter(v -> v.batchSeq() == batch.relatedBatch()).mapToLong(BatcherState.View::activity).findFirst()
                    .orElse(activity);
        }
        List<String> shown = lines(last);
        if (shown.size() < ScreenContinuity.MIN_LINES) {
            // A full-screen window's text starts at the top, in the band kept out for chrome: the whole frame is its content.
            shown = bounded(ScreenContinuity.norms(last, 0));
        }
        views.add(new BatcherState.View(batch.batchSeq(), activity, shown, words(all, WindowChrome.TOP_BAND)));
        Set<Long> kept = new HashSet<>();
        context.forEach(d -> kept.add(d.batchSeq()));
        tasks.forEach(d -> kept.add(d.batchSeq()));
        views.removeIf(v -> !kept.contains(v.batchSeq()));
    }

    /** The content lines of a keyframe (chrome bands left out), normalised and bounded. */
    static List<String> lines(Perception p) {
        return bounded(ScreenContinuity.norms(p));
    }

    private static List<String> bounded(List<String> norms) {
        List<String> out = new ArrayList<>();
        for (String l : norms) {
            if (out.size() < LINES) {
                out.add(l.length() > CHARS ? l.substring(0, CHARS) : l);
            }
        }
        return out;
    }
}
