package io.videoworld.engines.memory;

import io.videoworld.core.Vectors;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.SourceKind;
import java.util.List;

/**
 * The deterministic half of the episode decision: how a batch relates to the batches before it,
 * from the signals perception gives. Screens: the application named in the window title decides
 * (same app and similar text continues; another app is new, or a return when an earlier batch
 * showed it); the same app with dissimilar text is ambiguous. Cameras: the same scene continues,
 * an earlier scene is a return, a new scene is new unless its text is the same words. A gap of more than a minute always starts anew. Ambiguous
 * batches go to the LLM policy when one is configured; otherwise {@link #lean} settles them.
 */
public final class EpisodePolicy {
    static final long MAX_GAP_MS = 60_000;
    /** Tasks remembered for returns beyond the recent batches. */
    static final int TASKS = 32;
    static final double SAME_APP_SIMILAR = 0.5;
    static final double CONTINUES = 0.8;
    static final double DIFFERENT = 0.5;
    static final double SAME_WORDS = 0.97;
    /** Screens: under one window title, text less similar than this to the batch before is another task. */
    static final double TASK_CHANGE = 0.5;
    /** Screens: text at least this similar under one title is the same task (a return to it). */
    static final double SAME_TASK = 0.6;
    /** Screens: a window no convention names continues across a change of its title when its text is at least this similar. */
    static final double SAME_TEXT_UNNAMED = 0.9;
    /** Screens: an earlier batch whose text is at least this similar is the same task, returned to. */
    static final double RETURN_SAME_TEXT = 0.9;
    /** The same, for an earlier batch of the same app (a scrolled page of the task is less alike than the screen left). */
    static final double RETURN_SAME_APP = 0.8;

    private EpisodePolicy() {}

    /** A relation, the batch it refers to (returns) and the similarity behind it. */
    public record Relation(String kind, long relatedBatch, double similarity) {}

    public static Relation relate(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, SourceKind kind) {
        return relate(now, recent, List.of(), kind);
    }

    /** As {@link #relate(EpisodeBatch.Digest, List, SourceKind)}, with the latest batch of each earlier task for returns. */
    public static Relation relate(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, List<EpisodeBatch.Digest> tasks, SourceKind kind) {
        if (recent.isEmpty()) {
            return new Relation(EpisodeBatch.NEW, -1, -1);
        }
        EpisodeBatch.Digest prev = recent.get(recent.size() - 1);
        double sim = Vectors.cosine(now.embedding(), prev.embedding());
        if (now.startPtsMs() - prev.endPtsMs() > MAX_GAP_MS) {
            return returnOrNew(now, recent, sim);
        }
        if (kind == SourceKind.SCREEN && now.title() != null && prev.title() != null) {
            return relateWindow(now, prev, earlier(recent, tasks, prev), sim);
        }
        if (now.app() != null && prev.app() != null) {
            if (now.app().equals(prev.app())) {
                return sim < 0 || sim >= SAME_APP_SIMILAR ? new Relation(EpisodeBatch.CONTINUE, -1, sim)
                        : new Relation(EpisodeBatch.AMBIGUOUS, -1, sim);
            }
            if (kind == SourceKind.SCREEN) {
                // Screens: the same text is the task returned to; the same app alone may be another task of it.
                Relation same = sameText(now, earlier(recent, tasks, prev), sim);
                if (same.kind().equals(EpisodeBatch.RETURN)) {
                    return same;
                }
            }
            for (int i = recent.size() - 2; i >= 0; i--) {
                if (now.app().equals(recent.get(i).app())) {
                    return new Relation(EpisodeBatch.RETURN, recent.get(i).batchSeq(), Vectors.cosine(now.embedding(), recent.get(i).embedding()));
                }
            }
            return new Relation(EpisodeBatch.NEW, -1, sim);
        }
        if (kind == SourceKind.VIDEO) {
            return relateVideo(now, recent, prev, sim);
        }
        if (sim < 0) {
            return new Relation(kind == SourceKind.VIDEO ? EpisodeBatch.NEW : EpisodeBatch.AMBIGUOUS, -1, sim);
        }
        if (sim >= CONTINUES) {
            return new Relation(EpisodeBatch.CONTINUE, -1, sim);
        }
        if (sim <= DIFFERENT) {
            return returnOrNew(now, recent, sim);
        }
        return new Relation(EpisodeBatch.AMBIGUOUS, -1, sim);
    }

    /**
     * Screens, a batch whose first keyframe does not continue the one before ({@link ScreenContinuity}:
     * another window, document or page under the same title): the rules' relation, except that it
     * cannot continue; the same title with similar text is then a return to the most similar
     * earlier batch with that title, else nearly the same text anywhere, else a new task.
     */
    static Relation relateChanged(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, List<EpisodeBatch.Digest> tasks) {
        Relation r = relate(now, recent, tasks, SourceKind.SCREEN);
        if (!EpisodeBatch.CONTINUE.equals(r.kind())) {
            return r;
        }
        EpisodeBatch.Digest prev = recent.get(recent.size() - 1);
        List<EpisodeBatch.Digest> earlier = earlier(recent, tasks, prev);
        EpisodeBatch.Digest best = null;
        double bestSim = SAME_TASK;
        for (EpisodeBatch.Digest d : earlier) {
            double s = Vectors.cosine(now.embedding(), d.embedding());
            if (now.title() != null && WindowChrome.same(now.title(), d.title()) && s >= bestSim) {
                best = d;
                bestSim = s;
            }
        }
        return best != null ? new Relation(EpisodeBatch.RETURN, best.batchSeq(), bestSim) : sameText(now, earlier, r.similarity());
    }

    /**
     * Screens whose window title was found: the same title continues the task (scrolling, typing,
     * new lines, paging) unless the text under it changed wholesale (a manual page opened in the
     * terminal, another tab behind the same tab strip), which returns to an earlier batch with that
     * title and similar text, or starts a new task; another title returns to the most similar
     * earlier batch with that title, or starts a new task.
     */
    private static Relation relateWindow(EpisodeBatch.Digest now, EpisodeBatch.Digest prev, List<EpisodeBatch.Digest> earlier, double sim) {
        boolean sameTitle = WindowChrome.same(now.title(), prev.title());
        if (sameTitle && (sim < 0 || sim >= TASK_CHANGE)) {
            return new Relation(EpisodeBatch.CONTINUE, -1, sim);
        }
        if (!sameTitle && (now.app() == null || prev.app() == null) && sim >= SAME_TEXT_UNNAMED) {
            // A window no convention names may have had a line of its text taken for its title: the text decides.
            return new Relation(EpisodeBatch.CONTINUE, -1, sim);
        }
        EpisodeBatch.Digest best = null;
        double bestSim = -2;
        for (EpisodeBatch.Digest d : earlier) {
            double s = Vectors.cosine(now.embedding(), d.embedding());
            // Some titles are shared by every task of an app (a terminal's): the text must still be of that task.
            if (WindowChrome.same(now.title(), d.title()) && s >= (sameTitle ? SAME_TASK : TASK_CHANGE) && s > bestSim) {
                best = d;
                bestSim = s;
            }
        }
        if (best != null) {
            return new Relation(EpisodeBatch.RETURN, best.batchSeq(), bestSim);
        }
        return sameText(now, earlier, sim);
    }

    /**
     * A new task, unless an earlier batch of a compatible app shows nearly the same text: a task
     * is found as it was left, whatever its title reads now (a window without chrome, a title
     * OCR read differently).
     */
    private static Relation sameText(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> earlier, double sim) {
        EpisodeBatch.Digest best = null;
        double bestSim = -1;
        for (EpisodeBatch.Digest d : earlier) {
            double s = Vectors.cosine(now.embedding(), d.embedding());
            boolean sameApp = now.app() != null && now.app().equals(d.app());
            if ((sameApp || now.app() == null || d.app() == null) && s >= (sameApp ? RETURN_SAME_APP : RETURN_SAME_TEXT) && s > bestSim) {
                best = d;
                bestSim = s;
            }
        }
        return best == null ? new Relation(EpisodeBatch.NEW, -1, sim) : new Relation(EpisodeBatch.RETURN, best.batchSeq(), bestSim);
    }

    /**
     * Whether two batches show documents of other numbers of pages (false when either shows none):
     * the number of pages is the document's own ({@link WindowKinds#pages}), where their names and
     * gists may be alike (three {@code changelog.Debian.pdf} of 29, 18 and 3 pages).
     */
    static boolean otherLength(EpisodeBatch.Digest a, EpisodeBatch.Digest b) {
        int[] x = pages(a);
        int[] y = pages(b);
        return x != null && y != null && x[1] != y[1];
    }

    /** The page and number of pages a batch's first lines show, or null. */
    private static int[] pages(EpisodeBatch.Digest d) {
        return d.text() == null ? null : WindowKinds.pages(List.of(d.text().split(" \\| ")));
    }

    /** The batches before {@code prev} a return may go back to: the recent ones, then each remembered task, newest first, once each. */
    private static List<EpisodeBatch.Digest> earlier(List<EpisodeBatch.Digest> recent, List<EpisodeBatch.Digest> tasks, EpisodeBatch.Digest prev) {
        List<EpisodeBatch.Digest> out = new java.util.ArrayList<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        seen.add(prev.batchSeq());
        for (List<EpisodeBatch.Digest> l : List.of(recent, tasks)) {
            for (int i = l.size() - 1; i >= 0; i--) {
                if (seen.add(l.get(i).batchSeq())) {
                    out.add(l.get(i));
                }
            }
        }
        return out;
    }

    /**
     * Cameras: a batch in the same scene continues (two batches of a live shot, whose scene is not
     * known yet, are the same scene); a batch in a scene seen a little earlier returns to it; a new
     * scene is a new activity unless the text on screen is the same words (a caption carried across
     * cameras), and near that is ambiguous.
     */
    private static Relation relateVideo(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, EpisodeBatch.Digest prev, double sim) {
        if (java.util.Objects.equals(now.sceneId(), prev.sceneId())) {
            return new Relation(EpisodeBatch.CONTINUE, -1, sim);
        }
        for (int i = recent.size() - 2; i >= 0; i--) {
            if (now.sceneId() != null && now.sceneId().equals(recent.get(i).sceneId())) {
                return new Relation(EpisodeBatch.RETURN, recent.get(i).batchSeq(), Vectors.cosine(now.embedding(), recent.get(i).embedding()));
            }
        }
        if (sim >= SAME_WORDS) {
            return new Relation(EpisodeBatch.CONTINUE, -1, sim);
        }
        return new Relation(sim >= CONTINUES ? EpisodeBatch.AMBIGUOUS : EpisodeBatch.NEW, -1, sim);
    }

    private static Relation returnOrNew(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, double sim) {
        for (int i = recent.size() - 2; i >= 0; i--) {
            EpisodeBatch.Digest d = recent.get(i);
            boolean sameApp = now.app() != null && now.app().equals(d.app());
            if (sameApp || Vectors.cosine(now.embedding(), d.embedding()) >= CONTINUES) {
                return new Relation(EpisodeBatch.RETURN, d.batchSeq(), Vectors.cosine(now.embedding(), d.embedding()));
            }
        }
        return new Relation(EpisodeBatch.NEW, -1, sim);
    }

    /** How an ambiguous batch is settled without a model: similar enough text continues. */
    public static String lean(EpisodeBatch b) {
        if (b.sourceKind() == SourceKind.VIDEO) {
            // A camera that changed scene has, without a model's view, changed activity.
            return EpisodeBatch.NEW;
        }
        return b.similarity() >= 0.6 ? EpisodeBatch.CONTINUE : EpisodeBatch.NEW;
    }

    /**
     * The application a window title names: the part after the last dash ("Inbox - Mail" is
     * mail), or the whole title when it has none; letters and digits only, lower case, so OCR's
     * spacing does not matter ("Code Editor" and "CodeEditor" are one app).
     */
    public static String appOf(String title) {
        return io.videoworld.core.ScreenTitles.app(title);
    }

    /** Keeps the latest batch of each window title (and of each text under one title, or without one), so a return finds a task older than the recent batches. */
    static void remember(List<EpisodeBatch.Digest> tasks, EpisodeBatch.Digest d) {
        if (d.title() == null && d.embedding() == null) {
            return;
        }
        // A window without a title (full screen, no chrome) is remembered by its text alone.
        // Two documents of one name and of other lengths (every changelog.Debian.pdf alike in gist) are two tasks, both kept.
        tasks.removeIf(t -> (d.title() == null ? t.title() == null : WindowChrome.same(t.title(), d.title()))
                && (t.embedding() == null || d.embedding() == null || Vectors.cosine(t.embedding(), d.embedding()) >= SAME_TASK)
                && !otherLength(t, d));
        tasks.add(d);
        while (tasks.size() > TASKS) {
            tasks.remove(0);
        }
    }
}
