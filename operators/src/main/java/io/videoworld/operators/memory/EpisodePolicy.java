package io.videoworld.operators.memory;

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
    static final double SAME_APP_SIMILAR = 0.5;
    static final double CONTINUES = 0.8;
    static final double DIFFERENT = 0.5;
    static final double SAME_WORDS = 0.97;

    private EpisodePolicy() {}

    /** A relation, the batch it refers to (returns) and the similarity behind it. */
    public record Relation(String kind, long relatedBatch, double similarity) {}

    public static Relation relate(EpisodeBatch.Digest now, List<EpisodeBatch.Digest> recent, SourceKind kind) {
        if (recent.isEmpty()) {
            return new Relation(EpisodeBatch.NEW, -1, -1);
        }
        EpisodeBatch.Digest prev = recent.get(recent.size() - 1);
        double sim = Vectors.cosine(now.embedding(), prev.embedding());
        if (now.startPtsMs() - prev.endPtsMs() > MAX_GAP_MS) {
            return returnOrNew(now, recent, sim);
        }
        if (now.app() != null && prev.app() != null) {
            if (now.app().equals(prev.app())) {
                return sim < 0 || sim >= SAME_APP_SIMILAR ? new Relation(EpisodeBatch.CONTINUE, -1, sim)
                        : new Relation(EpisodeBatch.AMBIGUOUS, -1, sim);
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
}
