package io.videoworld.connectors.esread;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a question's answer was on screen: the keyframes whose text matches it (hybrid search over
 * {@code vw-perception}), grouped by the episodic events that cover them, the events ranked by
 * their best keyframe plus their own text match ({@code vw-episodes}), and for each event a clip
 * of at most {@value #CLIP_MS} ms around its best keyframe, kept inside that event and that shot,
 * with the keyframes it covers. Keyframes no event covers (a camera, an event not written yet)
 * are grouped by their shot instead. {@code /v1/ask}, {@code read_memory} and the desktop evaluation
 * all rank with this class, so the evaluation's figures are the service's.
 */
public final class MomentSearch {
    /** The longest clip cited. */
    public static final long CLIP_MS = 10_000;
    /** Keyframes fetched per search: enough to reach past the first few events. */
    static final int KEYFRAMES = 50;
    /**
     * How much an event's own text match (summary, details) adds to its best keyframe's score: a
     * tie-breaker. On the tuning sessions 0.25 cost hit@1 (long events' details share many words
     * with any question) where 0 and this did not.
     */
    public static final double EVENT_WEIGHT = 0.05;
    /** A second clip of one event is cited only for a keyframe this close to the event's best. */
    static final double SECOND_CLIP = 0.9;

    /**
     * One clip where the answering text was read.
     *
     * @param episodeId the event that covers it, or null where no event covers it (yet)
     * @param episode the event's document (no embedding, no details), or null
     * @param startMs clip start, presentation time
     * @param endMs clip end (at most {@link #CLIP_MS} after the start)
     * @param matchedPtsMs the times of the keyframes in the clip whose text matched, best first
     * @param frameIndexes every analysed keyframe in the clip, in time order
     * @param score the event's rank score in [0, 1]: its best keyframe's and (a little) its own text match
     * @param text the line of the best keyframe that shares most words with the question
     * @param first whether this is its event's best clip (second clips follow every event's first)
     * @param shotId the shot it lies in, or null; where no event covers a keyframe, its shot groups it
     */
    public record Moment(String streamId, long epochMs, String episodeId, JsonNode episode, long startMs, long endMs, List<Long> matchedPtsMs,
            List<Long> frameIndexes, double score, String text, boolean first, String shotId) {}

    private final PerceptionRepository perception;
    private final MemoryRepository memory;
    private final SegmentRepository segments;

    private final double eventWeight;

    public MomentSearch(PerceptionRepository perception, MemoryRepository memory, SegmentRepository segments) {
        this(perception, memory, segments, EVENT_WEIGHT);
    }

    /** @param eventWeight how much an event's own text match adds (evaluations compare weights; the service uses {@link #EVENT_WEIGHT}) */
    public MomentSearch(PerceptionRepository perception, MemoryRepository memory, SegmentRepository segments, double eventWeight) {
        this.perception = perception;
        this.memory = memory;
        this.segments = segments;
        this.eventWeight = eventWeight;
    }

    /**
     * The {@code max} best clips of a push in [fromMs, toMs]: first the best clip of each event, in
     * the events' order, then second clips; empty when no keyframe's text matches at all.
     */
    public List<Moment> search(String streamId, long epochMs, long endOfStreamMs, String query, float[] vector, long fromMs, long toMs, int max)
            throws IOException {
        List<PerceptionRepository.Match> matches = perception.search(streamId, epochMs, query, vector, KEYFRAMES).stream()
                .filter(m -> m.ptsMs() >= fromMs && m.ptsMs() <= toMs).toList();
        if (matches.isEmpty() || max <= 0) {
            return List.of();
        }
        List<JsonNode> covering = memory.episodesAt(streamId, epochMs, matches.stream().map(PerceptionRepository.Match::ptsMs).toList());
        Map<String, Double> eventText = new HashMap<>();
        for (HybridSearch.Scored s : memory.searchEpisodes(streamId, epochMs, query, vector, fromMs, toMs, 20)) {
            eventText.put(s.source().path("event_id").asText(), s.score());
        }
        List<Segment> shots = segments.list(streamId, epochMs, Segment.SHOT);
        // Matches grouped by the event that covers them (the shortest, where returns make events overlap).
        Map<String, List<PerceptionRepository.Match>> groups = new LinkedHashMap<>();
        Map<String, JsonNode> events = new HashMap<>();
        for (PerceptionRepository.Match m : matches) {
            // An event that ends where the next begins covers that time less than the next does.
            JsonNode e = covering.stream().filter(d -> d.path("start_pts_ms").asLong() <= m.ptsMs() && d.path("end_pts_ms").asLong() >= m.ptsMs())
                    .min(Comparator.comparing((JsonNode d) -> d.path("end_pts_ms").asLong() == m.ptsMs())
                            .thenComparingLong(d -> d.path("end_pts_ms").asLong() - d.path("start_pts_ms").asLong())).orElse(null);
            Segment shot = shotAt(shots, m.ptsMs());
            String key = e != null ? e.path("event_id").asText() : shot != null ? shot.id() : "@" + m.ptsMs() / CLIP_MS;
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
            if (e != null) {
                events.put(key, e);
            }
        }
        List<Group> ranked = new ArrayList<>();
        groups.forEach((k, ms) -> ranked.add(new Group(k, (ms.get(0).score() + eventWeight * eventText.getOrDefault(k, 0.0)) / (1 + eventWeight), ms)));
        ranked.sort(Comparator.comparingDouble(Group::score).reversed());
        List<Moment> first = new ArrayList<>();
        List<Moment> second = new ArrayList<>();
        for (Group g : ranked) {
            if (first.size() >= max) {
                break;
            }
            JsonNode e = events.get(g.key());
            long lo = Math.max(fromMs, e == null ? 0 : e.path("start_pts_ms").asLong());
            long hi = Math.min(Math.min(toMs, endOfStreamMs), e == null ? Long.MAX_VALUE : e.path("end_pts_ms").asLong());
            PerceptionRepository.Match best = g.matches().get(0);
            Moment m1 = moment(streamId, epochMs, g, best, e, lo, hi, shots, query, true);
            first.add(m1);
            PerceptionRepository.Match other = g.matches().stream().filter(m -> m.ptsMs() < m1.startMs() || m.ptsMs() > m1.endMs())
                    .filter(m -> m.score() >= SECOND_CLIP * best.score()).findFirst().orElse(null);
            if (other != null && first.size() + second.size() < max) {
                second.add(moment(streamId, epochMs, g, other, e, lo, hi, shots, query, false));
            }
        }
        List<Moment> out = new ArrayList<>(first);
        second.stream().limit(Math.max(0, max - out.size())).forEach(out::add);
        return out;
    }

    /** The matched keyframes covered by one event (or, where none covers them, one stretch of time), best first. */
    private record Group(String key, double score, List<PerceptionRepository.Match> matches) {}

    /** The clip around {@code m}: {@link #CLIP_MS} centred on it, inside [lo, hi] and the shot it lies in. */
    private Moment moment(String streamId, long epochMs, Group group, PerceptionRepository.Match m, JsonNode e, long lo, long hi,
            List<Segment> shots, String query, boolean first) throws IOException {
        long t = m.ptsMs();
        Segment shot = shotAt(shots, t);
        if (shot != null) {
            lo = Math.max(lo, shot.startPtsMs());
            hi = Math.min(hi, shot.endPtsMs());
        }
        lo = Math.min(lo, t);
        hi = Math.max(hi, t);
        long a = Math.max(lo, t - CLIP_MS / 2);
        long b = Math.min(hi, a + CLIP_MS);
        a = Math.max(lo, b - CLIP_MS);
        List<PerceptionRepository.Match> inGroup = group.matches();
        long from = a;
        long to = b;
        List<Long> matched = inGroup.stream().map(PerceptionRepository.Match::ptsMs).filter(p -> p >= from && p <= to).toList();
        Set<Long> frames = new TreeSet<>();
        frames.addAll(perception.framesInRange(streamId, epochMs, a, b));
        frames.add(m.frameIndex());
        String id = e == null ? null : e.path("event_id").asText();
        return new Moment(streamId, epochMs, id, e, a, b, matched.isEmpty() ? List.of(t) : matched, List.copyOf(frames), group.score(),
                bestLine(m.text(), query), first, shot == null ? null : shot.id());
    }

    private static Segment shotAt(List<Segment> shots, long t) {
        for (Segment s : shots) {
            if (s.startPtsMs() <= t && t < s.endPtsMs()) {
                return s;
            }
        }
        return null;
    }

    /** The line of {@code text} sharing most words (3+ letters) with {@code query}; the first line when none does. */
    public static String bestLine(String text, String query) {
        String[] lines = text == null ? new String[0] : text.split("\n");
        if (lines.length == 0) {
            return "";
        }
        Set<String> words = words(query);
        String best = lines[0];
        int bestHits = 0;
        for (String l : lines) {
            int hits = 0;
            for (String w : words(l)) {
                hits += words.contains(w) ? 1 : 0;
            }
            if (hits > bestHits) {
                best = l;
                bestHits = hits;
            }
        }
        return best.strip();
    }

    private static Set<String> words(String s) {
        Set<String> out = new java.util.HashSet<>();
        for (String w : (s == null ? "" : s.toLowerCase(Locale.ROOT)).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() >= 3) {
                out.add(w);
            }
        }
        return out;
    }
}
