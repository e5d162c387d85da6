package io.videoworld.query.retrieval;

import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.MomentSearch;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.connectors.esread.ScreenFilter;
import io.videoworld.connectors.esread.SegmentRepository;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.videoworld.connectors.esread.TranscriptRepository;
import io.videoworld.connectors.esread.TtlCache;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.Segment;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory the agent searches. {@link #moments} (what {@code /v1/ask} cites): episodic events
 * ranked by the keyframes whose text matches the question, and in each a clip of at most ten
 * seconds around the keyframes where that text was read ({@link MomentSearch}); a stream where no
 * text matches gives its shots in time order. Stretches of speech the ingest job recognised
 * ({@code vw-transcripts}) whose words match are moments too, ranked with the screen moments by
 * the same kind of score ({@link #heard}), and cited with the words said. {@link #search} (what {@code temporal_search}
 * lists): the shots of the named streams inside the time range, ranked by how well the text read
 * in their keyframes matches the question (BM25 + embedding, see {@link PerceptionRepository});
 * shots with no match follow in time order. Each clip's text line says only what is known about it.
 */
public final class EvidenceSearch {
    static final int MAX_CLIPS = 40;

    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final PerceptionRepository perception;
    private final TextEmbedder embedder;
    private final MomentSearch moments;
    private final MemoryRepository memory;
    private final TranscriptRepository transcripts;
    /** Agents and pages ask the same questions again; an embedding costs a millisecond of CPU. */
    private final Cache<String, float[]> embeddings = Caffeine.newBuilder().maximumSize(1000).recordStats().build();
    private final TtlCache<String, List<PerceptionRepository.Match>> matches = new TtlCache<>(500);

    /** @param embedder the question's embedding for the vector half of the search; null for BM25 only */
    public EvidenceSearch(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception, MemoryRepository memory,
            TextEmbedder embedder) {
        this(videos, segments, perception, memory, embedder, null);
    }

    /** @param transcripts the recognised speech to search as well; null searches screens and events only */
    public EvidenceSearch(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception, MemoryRepository memory,
            TextEmbedder embedder, TranscriptRepository transcripts) {
        this.memory = memory;
        this.transcripts = transcripts;
        this.videos = videos;
        this.segments = segments;
        this.perception = perception;
        this.embedder = embedder;
        this.moments = new MomentSearch(perception, memory, segments);
    }

    /**
     * The {@code max} best clips of the named streams in [from, to] for {@code question}, best
     * first and numbered from 1: where text matched, clips of at most ten seconds inside the events
     * that cover them; for a stream where nothing matched, its shots in time order after them.
     */
    public List<Evidence> moments(List<String> streams, double from, double to, String question, int max) throws IOException {
        return moments(streams, from, to, question, max, QueryPlan.NONE);
    }

    /**
     * As {@link #moments(List, double, double, String, int)}, searching the plan's terms (the
     * question's embedding still ranks by meaning) in [from, to] (the caller narrows it by the plan's
     * times); where the plan names a place, clips in events that took place there come first, and
     * where it asks for the first or last time, the clips scoring near the best are put in time order.
     */
    public List<Evidence> moments(List<String> streams, double from, double to, String question, int max, QueryPlan plan) throws IOException {
        float[] vector = embedder == null || question == null || question.isBlank() ? null : embedding(question);
        String text = plan.searchText(question);
        boolean rerank = plan.place() != null || plan.order() != null;
        int fetch = rerank ? Math.max(3 * max, 15) : max;
        List<MomentSearch.Moment> found = new ArrayList<>();
        Map<MomentSearch.Moment, TranscriptDoc> spoken = new IdentityHashMap<>();
        List<String> unmatched = new ArrayList<>();
        long fromMs = Math.round(from * 1000);
        long toMs = to == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(to * 1000);
        for (String stream : streams) {
            VideoDoc v = videos.find(stream).orElse(null);
            if (v == null) {
                continue;
            }
            List<MomentSearch.Moment> ms = moments.search(stream, v.epochMs(), v.lastPtsMs(), text, vector, fromMs, toMs, fetch);
            found.addAll(ms);
            List<MomentSearch.Moment> said = said(stream, v.epochMs(), text, vector, fromMs, toMs, fetch, spoken);
            found.addAll(said);
            if (ms.isEmpty() && said.isEmpty()) {
                unmatched.add(stream);
            }
        }
        // Every event's best clip before any second clip, across streams as within one.
        found.sort(Comparator.comparing((MomentSearch.Moment m) -> !m.first()).thenComparing(Comparator.comparingDouble(MomentSearch.Moment::score).reversed()));
        if (rerank) {
            found = constrained(found, plan);
        }
        List<Evidence> out = new ArrayList<>();
        for (MomentSearch.Moment m : found.subList(0, Math.min(max, found.size()))) {
            TranscriptDoc heard = spoken.get(m);
            out.add(heard == null ? evidence(out.size() + 1, m) : said(out.size() + 1, m, heard));
        }
        if (out.size() < max && !unmatched.isEmpty()) {
            for (Evidence e : search(unmatched, from, to, null)) {
                if (out.size() >= max) {
                    break;
                }
                out.add(new Evidence(out.size() + 1, e.streamId(), e.segmentId(), e.sceneId(), e.startTime(), e.endTime(), e.frameIds(),
                        e.thumbnails(), e.episodeIds(), e.score(), e.matchedText(), e.matchedTimes(),
                        e.text().replaceFirst("^\\[clip \\d+\\]", "[clip " + (out.size() + 1) + "]")));
            }
        }
        return out;
    }

    /** A recognised stretch of speech that matched, and its score in [0, 1]. */
    public record Heard(TranscriptDoc doc, double score) {}

    /**
     * The {@code k} recognised stretches of a push overlapping [fromMs, toMs] whose words match
     * {@code text}, best first. As keyframes are scored: BM25 (divided by the best hit's) averaged
     * with (1 + cos) / 2 of the question's and the stretch's text embeddings; BM25 alone without an
     * embedder. Speech that shares no word with the text is not found (the index holds no vectors).
     */
    public List<Heard> heard(String stream, long epochMs, String text, float[] vector, long fromMs, long toMs, int k) throws IOException {
        if (transcripts == null) {
            return List.of();
        }
        List<Heard> out = new ArrayList<>();
        for (TranscriptRepository.Match m : transcripts.search(stream, epochMs, text, fromMs, toMs, k)) {
            double score = vector == null || embedder == null ? m.score()
                    : (m.score() + (1 + io.videoworld.core.Vectors.cosine(vector, embedding(m.doc().text()))) / 2) / 2;
            out.add(new Heard(m.doc(), score));
        }
        out.sort(Comparator.comparingDouble(Heard::score).reversed());
        return out;
    }

    /** Whether the ingest job indexed speech for a push (false without transcripts to search). */
    public boolean hasSpeech(String stream, long epochMs) throws IOException {
        return transcripts != null && transcripts.any(stream, epochMs);
    }

    /** The matched stretches of speech as moments (each its own clip, in the event that covers its start); each remembered in {@code spoken}. */
    private List<MomentSearch.Moment> said(String stream, long epochMs, String text, float[] vector, long fromMs, long toMs, int k,
            Map<MomentSearch.Moment, TranscriptDoc> spoken) throws IOException {
        List<Heard> heard = heard(stream, epochMs, text, vector, fromMs, toMs, k);
        if (heard.isEmpty()) {
            return List.of();
        }
        List<com.fasterxml.jackson.databind.JsonNode> covering = memory.episodesAt(stream, epochMs, heard.stream().map(h -> h.doc().startMs()).toList());
        List<MomentSearch.Moment> out = new ArrayList<>();
        for (Heard h : heard) {
            long a = h.doc().startMs();
            com.fasterxml.jackson.databind.JsonNode e = covering.stream()
                    .filter(d -> d.path("start_pts_ms").asLong() <= a && d.path("end_pts_ms").asLong() > a)
                    .min(Comparator.comparingLong(d -> d.path("end_pts_ms").asLong() - d.path("start_pts_ms").asLong())).orElse(null);
            MomentSearch.Moment m = new MomentSearch.Moment(stream, epochMs, e == null ? null : e.path("event_id").asText(), e, a, h.doc().endMs(),
                    List.of(a), perception.framesInRange(stream, epochMs, a, h.doc().endMs()), h.score(), h.doc().text(), true, null);
            spoken.put(m, h.doc());
            out.add(m);
        }
        return out;
    }

    /** A clip of speech: the words said (quoted, as data), when, and by which recogniser. */
    private static Evidence said(int clip, MomentSearch.Moment m, TranscriptDoc t) {
        double a = t.startMs() / 1000.0;
        double b = t.endMs() / 1000.0;
        List<String> ids = m.frameIndexes().stream().map(f -> Ids.frame(m.streamId(), f)).toList();
        String text = String.format(Locale.ROOT, "[clip %d] stream %s, %.1f-%.1f s%s; said there (speech recognised by %s): \"%s\"", clip,
                m.streamId(), a, b, event(m), t.recognizer(), abbreviate(t.text()));
        return new Evidence(clip, m.streamId(), m.episodeId() != null ? m.episodeId() : t.id(), null, a, b, ids,
                ids.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(), m.episodeId() == null ? List.of() : List.of(m.episodeId()),
                Math.round(m.score() * 1000) / 1000.0, t.text(), List.of(a), text);
    }

    /** " in event ID (a-b s, app: "summary")" for a clip in an event, else empty. */
    private static String event(MomentSearch.Moment m) {
        return m.episode() == null ? "" : String.format(Locale.ROOT, " in event %s (%.1f-%.1f s%s: %s)", m.episodeId(),
                m.episode().path("start_pts_ms").asLong() / 1000.0, m.episode().path("end_pts_ms").asLong() / 1000.0,
                m.episode().path("app").isTextual() ? ", " + m.episode().path("app").asText() : "", "\"" + abbreviate(m.episode().path("summary").asText()) + "\"");
    }

    /** Score share of the best clip within which "the first / last time" orders clips by time. */
    static final double ORDER_TIER = 0.75;

    /** The clips in the plan's place first (when any is), then, when it asks, the best-scoring of those in time order. */
    static List<MomentSearch.Moment> constrained(List<MomentSearch.Moment> found, QueryPlan plan) {
        List<MomentSearch.Moment> lead = new ArrayList<>();
        List<MomentSearch.Moment> rest = new ArrayList<>();
        for (MomentSearch.Moment m : found) {
            (plan.place() == null || inPlace(m, plan.place()) ? lead : rest).add(m);
        }
        if (lead.isEmpty()) {
            // Nothing took place where the plan says: the place cannot narrow anything, the clips stay as ranked.
            lead.addAll(rest);
            rest.clear();
        }
        if (plan.order() != null && !lead.isEmpty()) {
            double best = lead.stream().mapToDouble(MomentSearch.Moment::score).max().orElse(0);
            List<MomentSearch.Moment> tier = new ArrayList<>(lead.stream().filter(m -> m.score() >= ORDER_TIER * best).toList());
            Comparator<MomentSearch.Moment> byTime = Comparator.comparingLong(MomentSearch.Moment::startMs);
            tier.sort("latest".equals(plan.order()) ? byTime.reversed() : byTime);
            List<MomentSearch.Moment> others = lead.stream().filter(m -> !tier.contains(m)).toList();
            lead = new ArrayList<>(tier);
            lead.addAll(others);
        }
        lead.addAll(rest);
        return lead;
    }

    /** Whether the clip's event took place in {@code place}: its place or application, a label, or a word of its summary. */
    private static boolean inPlace(MomentSearch.Moment m, String place) {
        if (m.episode() == null) {
            return false;
        }
        String p = place.toLowerCase(Locale.ROOT);
        if (m.episode().path("app").asText("").toLowerCase(Locale.ROOT).equals(p)) {
            return true;
        }
        for (com.fasterxml.jackson.databind.JsonNode l : m.episode().path("labels")) {
            if (l.asText("").toLowerCase(Locale.ROOT).equals(p)) {
                return true;
            }
        }
        return java.util.Arrays.asList(m.episode().path("summary").asText("").toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).contains(p);
    }

    private static Evidence evidence(int clip, MomentSearch.Moment m) {
        double a = m.startMs() / 1000.0;
        double b = m.endMs() / 1000.0;
        List<String> ids = m.frameIndexes().stream().map(f -> Ids.frame(m.streamId(), f)).toList();
        List<Double> times = m.matchedPtsMs().stream().map(t -> t / 1000.0).toList();
        String event = event(m);
        String text = String.format(Locale.ROOT, "[clip %d] stream %s, %.1f-%.1f s%s; the question's text was read at %s s: \"%s\"", clip,
                m.streamId(), a, b, event, String.join(", ", times.stream().map(t -> String.format(Locale.ROOT, "%.1f", t)).toList()),
                abbreviate(m.text()));
        return new Evidence(clip, m.streamId(), m.episodeId() != null ? m.episodeId() : m.shotId(), null, a, b, ids, ids.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(),
                m.episodeId() == null ? List.of() : List.of(m.episodeId()), Math.round(m.score() * 1000) / 1000.0, m.text(), times, text);
    }

    public List<Evidence> search(List<String> streams, double from, double to, String question) throws IOException {
        return search(streams, from, to, question, ScreenFilter.NONE);
    }

    /** As {@link #search(List, double, double, String)}, matching only keyframes {@code screen} admits. */
    public List<Evidence> search(List<String> streams, double from, double to, String question, ScreenFilter screen) throws IOException {
        record Scored(String stream, Segment shot, PerceptionRepository.Match best) {}
        float[] vector = embedder == null || question == null || question.isBlank() ? null : embedding(question);
        List<Scored> found = new ArrayList<>();
        for (String stream : streams) {
            VideoDoc v = videos.find(stream).orElse(null);
            if (v == null) {
                continue;
            }
            List<PerceptionRepository.Match> matches = question == null ? List.of()
                    : this.matches.get(stream + "\u0000" + v.epochMs() + "\u0000" + question + "\u0000" + screen,
                            k -> perception.search(stream, v.epochMs(), question, vector, 50, screen));
            for (Segment s : segments.list(stream, v.epochMs(), Segment.SHOT)) {
                if (s.endPtsMs() / 1000.0 <= from || s.startPtsMs() / 1000.0 >= to) {
                    continue;
                }
                PerceptionRepository.Match best = matches.stream()
                        .filter(m -> m.frameIndex() >= s.startFrame() && m.frameIndex() < s.endFrame())
                        .max(Comparator.comparingDouble(PerceptionRepository.Match::score)).orElse(null);
                found.add(new Scored(stream, s, best));
            }
        }
        found.sort(Comparator.comparingDouble((Scored x) -> x.best() == null ? -1 : x.best().score()).reversed());
        List<Evidence> out = new ArrayList<>();
        for (Scored x : found) {
            if (out.size() >= MAX_CLIPS) {
                break;
            }
            Segment s = x.shot();
            double a = s.startPtsMs() / 1000.0;
            double b = s.endPtsMs() / 1000.0;
            List<String> ids = s.keyframes().stream().map(k -> Ids.frame(x.stream(), k.frameIndex())).toList();
            int clip = out.size() + 1;
            String read = x.best() == null ? "" : "; on screen: \"" + abbreviate(x.best().text().replace('\n', ' ')) + "\"";
            String text = "[clip " + clip + "] stream " + x.stream() + ", " + tenths(s.startPtsMs()) + "-" + tenths(s.endPtsMs())
                    + " s: a shot that begins with a " + ("start".equals(s.transitionIn()) ? "the start of the stream" : s.transitionIn())
                    + "; keyframes at " + String.join(", ", s.keyframes().stream().map(k -> tenths(k.ptsMs())).toList()) + " s" + read;
            out.add(new Evidence(clip, x.stream(), s.id(), s.sceneId(), a, b, ids, ids.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(),
                    List.of(), x.best() == null ? null : Math.round(x.best().score() * 1000) / 1000.0,
                    x.best() == null ? null : x.best().text(), x.best() == null ? List.of() : List.of(x.best().ptsMs() / 1000.0), text));
        }
        return out;
    }

    /**
     * Milliseconds as seconds with one decimal, half up: what {@code String.format("%.1f", ms / 1000.0)}
     * writes, without its per-call pattern parsing and locale symbols (every search formats the
     * keyframe times of up to {@value #MAX_CLIPS} shots).
     */
    static String tenths(long ms) {
        if (ms < 0) {
            return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
        }
        long t = (ms + 50) / 100;
        return (t / 10) + "." + (t % 10);
    }

    /** The question-embedding and match caches' hits and misses, for the service's metrics. */
    public Map<String, CacheStats> cacheStats() {
        return Map.of("question_embeddings", embeddings.stats(), "evidence_matches", matches.stats());
    }

    private float[] embedding(String question) {
        float[] v = embeddings.getIfPresent(question);
        if (v == null) {
            v = embedder.embed(question);
            embeddings.put(question, v);
        }
        return v;
    }

    /**
     * Read or heard text as it goes into a clip's line, at most 200 characters on one line, with its
     * double quotes made single: the line quotes it, and text on a screen cannot close the quote
     * and pass itself off as the service's own words to a model.
     */
    static String abbreviate(String s) {
        String t = s.replace('"', '\'').replaceAll("[\\r\\n\\t]+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "…" : t;
    }
}
