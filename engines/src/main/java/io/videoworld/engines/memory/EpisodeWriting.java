package io.videoworld.engines.memory;

import io.videoworld.core.Vectors;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.SourceKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The Flink-free engine of {@code EpisodeWriter}: one MIRIX decision per batch (insert, merge,
 * replace, or close-and-continue past {@value #MAX_DETAILS} characters of details) against the
 * stream's ten latest events (and links returns to any of the {@value #LINKABLE} before them), returning the next state and the documents to write.
 */
public final class EpisodeWriting implements java.io.Serializable {
    /** Details longer than this start a new event. */
    public static final int MAX_DETAILS = 5000;
    static final int KEEP = 10;
    /** Older events kept (without their text) so a return can still link to them. */
    static final int LINKABLE = 40;
    private static final int KEY_LINES = 8;
    /** Characters of speech one batch's details line carries at most. */
    private static final int MAX_SAID = 1200;
    /** Characters of the quote a summary carries. */
    private static final int QUOTE = 120;

    /** The state after a batch, the documents it writes (a deletion is a doc marked deleted), and the decision taken. */
    public record Step(WriterState state, List<EpisodeDoc> docs, String decision) {}

    private final long idleMs;

    /** Writing whose state's timer falls {@code idleMs} after a stream's latest batch. */
    public EpisodeWriting(long idleMs) {
        this.idleMs = idleMs;
    }

    /**
     * Decides one batch against state {@code s} (null for a new stream; an older push's state is
     * replaced by a newer push's batch). A batch of an older push than the state's is ignored
     * (null). The returned state's timer is {@code idleMs} after the latest batch.
     */
    public Step write(WriterState s, EpisodeBatch b) {
        if (s != null && b.epochMs() < s.epochMs()) {
            return null;
        }
        if (s == null || b.epochMs() > s.epochMs()) {
            s = new WriterState(b.epochMs(), 1, List.of(), Long.MIN_VALUE, -1);
        }
        List<EpisodeDoc> out = new ArrayList<>();
        String decision;
        List<WriterState.Event> events = new ArrayList<>(s.events());
        long next = s.nextSeq();
        String relation = EpisodeBatch.AMBIGUOUS.equals(b.relation()) ? EpisodePolicy.lean(b) : b.relation();
        String by = b.decidedBy() == null ? "fallback" : b.decidedBy();
        WriterState.Event current = events.isEmpty() ? null : events.get(events.size() - 1);
        if (EpisodeBatch.RETURN.equals(relation) && chosen(b) != null && current != null && !current.closed()
                && chosen(b).equals(EpisodeDoc.id(b.streamId(), current.seq()))) {
            relation = EpisodeBatch.CONTINUE; // the model "returned" to the open event: it merges
        }
        String details = details(b);
        if (EpisodeBatch.CONTINUE.equals(relation) && current != null && !current.closed()) {
            if (current.details().length() + details.length() + 1 > MAX_DETAILS) {
                WriterState.Event closed = close(current, by);
                events.set(events.size() - 1, closed);
                out.add(doc(b, closed, false));
                WriterState.Event fresh = fresh(b, next++, details, List.of(EpisodeDoc.id(b.streamId(), current.seq())), by);
                events.add(fresh);
                out.add(doc(b, fresh, false));
                decision = "insert";
            } else {
                WriterState.Event merged = merge(current, b, details, by);
                events.set(events.size() - 1, merged);
                out.add(doc(b, merged, false));
                decision = "merge";
            }
        } else if (current != null && !current.closed() && duplicates(current, b)) {
            // Replace: the batch was judged new, yet repeats the event just before it; consolidate both into one.
            WriterState.Event gone = new WriterState.Event(current.seq(), current.revision() + 1, current.occurredAtMs(), current.endEventTimeMs(),
                    current.startPtsMs(), current.endPtsMs(), current.app(), current.title(), current.keyLines(), current.labels(),
                    current.details(), current.links(), current.embeddingSum(), current.embeddedBatches(), current.batches(),
                    current.batchSeqs(), by, true, current.said());
            out.add(doc(b, gone, true));
            WriterState.Event merged = merge(current, b, details, by);
            WriterState.Event consolidated = new WriterState.Event(next++, 1, merged.occurredAtMs(), merged.endEventTimeMs(),
                    merged.startPtsMs(), merged.endPtsMs(), merged.app(), merged.title(), merged.keyLines(), merged.labels(), merged.details(),
                    merged.links(), merged.embeddingSum(), merged.embeddedBatches(), merged.batches(), merged.batchSeqs(), by, false, merged.said());
            events.set(events.size() - 1, consolidated);
            out.add(doc(b, consolidated, false));
            decision = "replace";
        } else {
            List<String> links = new ArrayList<>();
            if (EpisodeBatch.RETURN.equals(relation)) {
                String earlier = eventOfBatch(events, b);
                if (earlier != null) {
                    links.add(earlier);
                }
            }
            if (current != null && !current.closed()) {
                // Once the activity has moved on, the previous event takes no more batches.
                WriterState.Event closed = close(current, by);
                events.set(events.size() - 1, closed);
                out.add(doc(b, closed, false));
            }
            WriterState.Event fresh = fresh(b, next++, details, links, by);
            events.add(fresh);
            out.add(doc(b, fresh, false));
            decision = "insert";
        }
        // Beyond the latest KEEP, closed events stay only as what a return needs to find them: their batches.
        for (int i = 0; i < events.size() - KEEP; i++) {
            WriterState.Event e = events.get(i);
            if (!e.details().isEmpty()) {
                events.set(i, new WriterState.Event(e.seq(), e.revision(), e.occurredAtMs(), e.endEventTimeMs(), e.startPtsMs(), e.endPtsMs(),
                        e.app(), e.title(), List.of(), List.of(), "", List.of(), null, 0, e.batches(), e.batchSeqs(), e.decidedBy(), true, null));
            }
        }
        while (events.size() > KEEP + LINKABLE) {
            events.remove(0);
        }
        long end = Math.max(s.lastEventTimeMs(), b.endEventTimeMs());
        return new Step(new WriterState(s.epochMs(), next, events, end, end + idleMs), out, decision);
    }

    /** The event a return goes back to: the one holding the related batch, else the most similar event found in the index. */
    private static String eventOfBatch(List<WriterState.Event> events, EpisodeBatch b) {
        if (chosen(b) != null) {
            return chosen(b);
        }
        for (WriterState.Event e : events) {
            if (e.batchSeqs().contains(b.relatedBatch())) {
                return EpisodeDoc.id(b.streamId(), e.seq());
            }
        }
        for (EpisodeBatch.RelevantEvent r : b.relevant()) {
            if (b.app() == null || b.app().equals(r.app())) {
                return r.eventId();
            }
        }
        return null;
    }

    /** The event the model merged the batch into (the first relevant one; {@code EpisodeContext#named}), or null. */
    private static String chosen(EpisodeBatch b) {
        return "llm".equals(b.decidedBy()) && EpisodeBatch.RETURN.equals(b.relation()) && b.relatedBatch() < 0 && !b.relevant().isEmpty()
                ? b.relevant().get(0).eventId() : null;
    }

    private static boolean duplicates(WriterState.Event e, EpisodeBatch b) {
        return e.app() != null && e.app().equals(b.app()) && b.startPtsMs() - e.endPtsMs() <= 2000
                && Vectors.cosine(Vectors.unit(e.embeddingSum()), b.embedding()) >= 0.9;
    }

    private static WriterState.Event fresh(EpisodeBatch b, long seq, String details, List<String> links, String by) {
        List<String> key = keyLines(List.of(), b);
        return new WriterState.Event(seq, 1, b.startEventTimeMs(), b.endEventTimeMs(), b.startPtsMs(), b.endPtsMs(), b.app(), b.title(), key,
                b.labels(), details, links, b.embedding() == null ? null : b.embedding().clone(), b.embedding() == null ? 0 : 1, 1,
                List.of(b.batchSeq()), by, false, quote(b));
    }

    private static WriterState.Event merge(WriterState.Event e, EpisodeBatch b, String details, String by) {
        LinkedHashSet<String> labels = new LinkedHashSet<>(e.labels());
        labels.addAll(b.labels());
        float[] sum = e.embeddingSum();
        int embedded = e.embeddedBatches();
        if (b.embedding() != null) {
            sum = sum == null ? new float[b.embedding().length] : sum.clone();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += b.embedding()[i];
            }
            embedded++;
        }
        List<Long> seqs = new ArrayList<>(e.batchSeqs());
        seqs.add(b.batchSeq());
        if (seqs.size() > 50) {
            seqs.remove(0);
        }
        // A batch of speech that came late may end before the event does: the event never shrinks.
        return new WriterState.Event(e.seq(), e.revision() + 1, e.occurredAtMs(), Math.max(e.endEventTimeMs(), b.endEventTimeMs()), e.startPtsMs(),
                Math.max(e.endPtsMs(), b.endPtsMs()), e.app() != null ? e.app() : b.app(), b.title() != null ? b.title() : e.title(),
                keyLines(e.keyLines(), b), List.copyOf(labels), e.details() + "\n" + details, e.links(), sum, embedded, e.batches() + 1, seqs, by,
                false, e.said() != null ? e.said() : quote(b));
    }

    private static WriterState.Event close(WriterState.Event e, String by) {
        return new WriterState.Event(e.seq(), e.revision() + 1, e.occurredAtMs(), e.endEventTimeMs(), e.startPtsMs(), e.endPtsMs(), e.app(),
                e.title(), e.keyLines(), e.labels(), e.details(), e.links(), e.embeddingSum(), e.embeddedBatches(), e.batches(), e.batchSeqs(),
                e.decidedBy(), true, e.said());
    }

    /** The lines a summary quotes: the old ones first (they stay), new ones after, at most eight. */
    static List<String> keyLines(List<String> old, EpisodeBatch b) {
        List<String> fresh = new ArrayList<>();
        // On screens the title is the app, said once in the summary; on cameras the first line is just text.
        boolean screen = b.sourceKind() == SourceKind.SCREEN;
        for (String l : b.lines()) {
            if (!(screen && l.equals(b.title())) && !old.contains(l) && !fresh.contains(l) && l.length() > 2) {
                fresh.add(l);
            }
        }
        int newCount = Math.min(fresh.size(), old.isEmpty() ? KEY_LINES : 3);
        int oldCount = Math.min(old.size(), KEY_LINES - newCount);
        List<String> out = new ArrayList<>(old.subList(0, oldCount));
        out.addAll(fresh.subList(0, newCount));
        return out;
    }

    /** One batch's details line: its time range, title, text, objects and tracks. */
    static String details(EpisodeBatch b) {
        StringBuilder sb = new StringBuilder();
        sb.append('[').append(clock(b.startPtsMs())).append('-').append(clock(b.endPtsMs())).append("] ");
        boolean screen = b.sourceKind() == SourceKind.SCREEN;
        if (screen && b.title() != null) {
            sb.append(b.title()).append(": ");
        }
        String text = String.join(" | ", b.lines().stream().filter(l -> !(screen && l.equals(b.title()))).toList());
        sb.append(text.length() > 400 ? text.substring(0, 400) + "..." : text);
        if (!b.labels().isEmpty()) {
            sb.append("; objects: ").append(String.join(", ", b.labels()));
        }
        if (!b.tracks().isEmpty()) {
            sb.append("; tracks: ").append(String.join(", ", b.tracks().subList(0, Math.min(8, b.tracks().size()))));
        }
        if (!b.said().isEmpty()) {
            sb.append(text.isEmpty() && b.labels().isEmpty() && b.tracks().isEmpty() ? "said: " : "; said: ").append(said(b.said()));
        }
        return sb.toString();
    }

    /** What was said, each stretch with its own times (a late one may lie before the batch): {@code [00:00:42-00:00:45] "…"}. */
    static String said(List<EpisodeBatch.Utterance> said) {
        StringBuilder sb = new StringBuilder();
        for (EpisodeBatch.Utterance u : said) {
            if (sb.length() > MAX_SAID) {
                sb.append(" ...");
                break;
            }
            sb.append(sb.length() == 0 ? "" : " ").append('[').append(clock(u.startPtsMs())).append('-').append(clock(u.endPtsMs())).append("] ");
            String text = u.text() == null ? null : plain(u.text());
            sb.append(text == null ? "(speech not recognised)" : text.isEmpty() ? "(no words recognised)" : "\"" + text + "\"");
        }
        return sb.toString();
    }

    /** A short quote of the first words recognised in the batch, or null. */
    static String quote(EpisodeBatch b) {
        for (EpisodeBatch.Utterance u : b.said()) {
            String text = u.text() == null ? "" : plain(u.text());
            if (!text.isEmpty()) {
                return text.length() > QUOTE ? text.substring(0, QUOTE).replaceAll("\\s+\\S*$", "") + "..." : text;
            }
        }
        return null;
    }

    /** Recognised text on one line, its double quotes made single (it is quoted as data). */
    private static String plain(String text) {
        return text.replaceAll("\\s+", " ").replace('"', '\'').trim();
    }

    static String summary(WriterState.Event e, SourceKind kind) {
        StringBuilder sb = new StringBuilder();
        if (kind == null) {
            // Sound alone (a podcast, a recording): what was said is the summary.
            sb.append("Speech");
            if (e.said() != null) {
                sb.append(": \"").append(e.said()).append('"');
            }
            return sb.toString();
        }
        if (kind == SourceKind.SCREEN) {
            sb.append(e.title() != null ? "Using " + e.title() : "Looking at the screen");
        } else {
            sb.append("Camera scene");
            if (!e.labels().isEmpty()) {
                sb.append(" with ").append(String.join(", ", e.labels().subList(0, Math.min(5, e.labels().size()))));
            }
        }
        if (!e.keyLines().isEmpty()) {
            sb.append(kind == SourceKind.SCREEN ? ": " : "; text: ").append(String.join("; ", e.keyLines()));
        }
        if (kind == SourceKind.SCREEN && !e.labels().isEmpty()) {
            sb.append(". Objects: ").append(String.join(", ", e.labels()));
        }
        if (e.said() != null && (kind == SourceKind.VIDEO || e.keyLines().isEmpty())) {
            // Cameras, and screens with no text read: a few words of what was said.
            sb.append("; said: \"").append(e.said()).append('"');
        }
        String s = sb.toString();
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }

    private static EpisodeDoc doc(EpisodeBatch b, WriterState.Event e, boolean deleted) {
        boolean screen = b.sourceKind() == SourceKind.SCREEN;
        boolean heard = b.sourceKind() == null;
        return new EpisodeDoc(b.streamId(), b.epochMs(), e.seq(), e.revision(), screen ? "screen_activity" : heard ? "speech_activity" : "scene_activity",
                screen ? "user" : heard ? "speaker" : "camera", e.occurredAtMs(), e.endEventTimeMs(), e.startPtsMs(), e.endPtsMs(), e.app(),
                summary(e, b.sourceKind()), e.details(), e.labels(), e.links(), e.batches(), Vectors.unit(e.embeddingSum()), e.decidedBy(), e.closed(),
                deleted);
    }


    private static String clock(long ms) {
        long s = ms / 1000;
        return String.format("%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
