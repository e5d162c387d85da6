package io.videoworld.engines.memory;

import io.videoworld.core.Detection;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.Perception;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.Vectors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** One memory batch made from its keyframes, its title, app and text, and how it relates to the batches before it ({@link EpisodeBatching} cuts them). */
final class EpisodeBatches {
    private static final int MAX_LINES = 40;

    private EpisodeBatches() {}

    /**
     * The batch over [from, to) with keyframes {@code in}, related to the batches before it
     * ({@code context}, newest last; {@code tasks}; {@code views}: what remembered batches showed
     * last); {@code continued}: its first keyframe continues the keyframe before it.
     */
    static EpisodeBatch batch(String stream, long epoch, SourceKind kind, String shotId, String sceneId, long from, long to, long startEvent,
            long endEvent, List<Perception> in, long seq, List<EpisodeBatch.Digest> context, List<EpisodeBatch.Digest> tasks, List<TrackDoc> tracks,
            boolean continued, List<BatcherState.View> views) {
        // A keyframe whose perception failed says nothing about the screen: unknown, not blank.
        List<Perception> known = in.stream().filter(x -> !x.isFailed()).toList();
        boolean unknown = known.isEmpty() && !in.isEmpty() && !context.isEmpty();
        in = known;
        String title = kind == SourceKind.SCREEN ? WindowChrome.title(in) : title(in);
        String manual = kind == SourceKind.SCREEN && !in.isEmpty() ? WindowKinds.manual(ScreenContinuity.texts(in.get(0))) : null;
        if (title != null && manual != null && !TitleText.norm(title).contains(manual)) {
            // Every terminal shows the same title: the manual page it shows tells its tasks apart (for returns too).
            title = title + TitleText.PARTS + WindowChrome.MANUAL + manual;
        }
        LinkedHashSet<String> lines = new LinkedHashSet<>();
        Map<String, Integer> labels = new LinkedHashMap<>();
        float[] mean = null;
        for (Perception x : in) {
            for (TextLine l : x.lines()) {
                if (lines.size() < MAX_LINES && !l.text().isBlank()) {
                    lines.add(l.text().trim());
                }
            }
            for (Detection d : x.objects()) {
                if (d.score() >= 0.3) {
                    labels.merge(d.category(), 1, Integer::sum);
                }
            }
            if (x.textEmbedding() != null) {
                mean = mean == null ? new float[x.textEmbedding().length] : mean;
                for (int k = 0; k < mean.length; k++) {
                    mean[k] += x.textEmbedding()[k];
                }
            }
        }
        List<String> seen = new ArrayList<>();
        for (TrackDoc t : tracks) {
            if (t.first().ptsMs() < to && t.last().ptsMs() >= from) {
                seen.add(t.category() + " t:" + String.format("%06d", t.trackNumber()));
            }
        }
        float[] embedding = Vectors.unit(mean);
        List<String> lineList = List.copyOf(lines);
        String app = kind == SourceKind.SCREEN ? WindowChrome.app(title, lineList, WindowKinds.pagerRow(in)) : null;
        EpisodeBatch.Digest digest = new EpisodeBatch.Digest(seq, from, to, app, title,
                String.join(" | ", lineList.subList(0, Math.min(6, lineList.size()))), embedding, sceneId);
        EpisodePolicy.Relation r;
        if (unknown) {
            // Nothing could be read: no evidence the activity changed, so the batch continues the last
            // one and stands for it in later comparisons.
            EpisodeBatch.Digest last = context.get(context.size() - 1);
            r = new EpisodePolicy.Relation(EpisodeBatch.CONTINUE, -1, -1);
            app = last.app();
            title = last.title();
            embedding = last.embedding();
        } else if (continued && !context.isEmpty()) {
            // The window and its text carried on from the keyframe before: the same activity, whatever this piece's title reads.
            r = new EpisodePolicy.Relation(EpisodeBatch.CONTINUE, -1, Vectors.cosine(embedding, context.get(context.size() - 1).embedding()));
        } else if (kind == SourceKind.SCREEN && !context.isEmpty()) {
            r = ScreenReturns.relate(EpisodePolicy.relateChanged(digest, context, tasks), in.isEmpty() ? null : in.get(0), app, views,
                    context.get(context.size() - 1).batchSeq(), b -> appOf(b, context, tasks));
        } else {
            r = EpisodePolicy.relate(digest, context, tasks, kind);
        }
        if (app == null && EpisodeBatch.RETURN.equals(r.kind())) {
            // A window that names nothing (full screen, no chrome) is the app of the task it returns to.
            app = appOf(r.relatedBatch(), context, tasks);
        }
        if (app == null && kind == SourceKind.SCREEN && (WindowKinds.monospaced(in) || WindowKinds.typed(in))) {
            // No chrome and no convention named it: monospaced text without a prompt, or text typed into, is a text editor's.
            app = WindowKinds.EDITOR;
        }
        if (app == null && kind == SourceKind.SCREEN) {
            // Still nothing: how its text moves is a guess at its kind (pages turned, or scrolled), for its name only.
            app = WindowKinds.byMotion(in);
        }
        List<String> sortedLabels = labels.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).map(Map.Entry::getKey).toList();
        return new EpisodeBatch(stream, epoch, seq, kind, from, to, startEvent, endEvent, (int) Math.max(1, (to - from + 999) / 1000),
                shotId, sceneId, app, title, lineList, sortedLabels, seen, embedding, r.kind(), r.relatedBatch(), r.similarity(),
                List.copyOf(context), List.of(), EpisodeBatch.AMBIGUOUS.equals(r.kind()) ? null : "rules");
    }

    /**
     * A batch of speech alone over [from, to): no frames were read for it, so it has no title, text
     * or embedding; {@code relation} is decided by the caller.
     */
    static EpisodeBatch speech(String stream, long epoch, SourceKind kind, long seq, long from, long to, String relation,
            List<EpisodeBatch.Digest> context, List<EpisodeBatch.Utterance> said) {
        return new EpisodeBatch(stream, epoch, seq, kind, from, to, epoch + from, epoch + to, (int) Math.max(1, (to - from + 999) / 1000), null,
                null, null, null, List.of(), List.of(), List.of(), null, relation, -1, -1, List.copyOf(context), List.of(), "rules", said);
    }

    private static String appOf(long batchSeq, List<EpisodeBatch.Digest> context, List<EpisodeBatch.Digest> tasks) {
        for (List<EpisodeBatch.Digest> l : List.of(context, tasks)) {
            for (EpisodeBatch.Digest d : l) {
                if (d.batchSeq() == batchSeq) {
                    return d.app();
                }
            }
        }
        return null;
    }

    /** What later batches are compared with; a kind guessed from motion alone ({@link #guessed}) is left out, as unknown. */
    static EpisodeBatch.Digest digest(EpisodeBatch b) {
        String text = String.join(" | ", b.lines().subList(0, Math.min(6, b.lines().size())));
        if (b.sourceKind() == null && !b.said().isEmpty()) {
            // Speech alone: what was said is all there is to compare with.
            text = String.join(" ", b.said().stream().map(u -> u.text() == null ? "" : u.text()).toList()).trim();
            text = text.length() > 300 ? text.substring(0, 300) : text;
        }
        return new EpisodeBatch.Digest(b.batchSeq(), b.startPtsMs(), b.endPtsMs(), guessed(b) ? null : b.app(), b.title(),
                text, b.embedding(), b.sceneId());
    }

    /**
     * Whether a screen batch's app is only a guess at its kind: a page viewer or a browser from how
     * its text moves ({@link WindowKinds#byMotion}), an editor from its font or its typing, that
     * neither its title, its text nor the task it returned to names. A guess must not keep a
     * full-screen visit of a document from the visit in its window ("pdf" against "okular").
     */
    static boolean guessed(EpisodeBatch b) {
        return b.sourceKind() == SourceKind.SCREEN && (WindowKinds.PDF.equals(b.app()) || WindowKinds.BROWSER.equals(b.app())
                || WindowKinds.EDITOR.equals(b.app()))
                && !EpisodeBatch.RETURN.equals(b.relation()) && WindowChrome.app(b.title(), b.lines()) == null;
    }

    /** Cameras' caption: the topmost line read near the top edge of the first keyframe with text (screens: {@link WindowChrome}). */
    static String title(List<Perception> in) {
        for (Perception x : in) {
            String title = io.videoworld.core.ScreenTitles.title(x.lines(), x.height());
            if (title != null) {
                return title;
            }
        }
        return null;
    }
}
