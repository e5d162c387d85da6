package io.videoworld.query.retrieval;

import io.videoworld.connectors.es.PerceptionRepository;
import io.videoworld.connectors.es.ScreenFilter;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.TtlCache;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory the agent searches: the shots of the named streams inside the time range, ranked by
 * how well the text read in their keyframes matches the question (BM25 + embedding, see
 * {@link PerceptionRepository}); shots with no match follow in time order. Episodes, tracks and
 * transcripts join this search as they are built. Each clip's text line says only what is known
 * about it.
 */
public final class EvidenceSearch {
    static final int MAX_CLIPS = 40;

    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final PerceptionRepository perception;
    private final TextEmbedder embedder;
    /** Agents and pages ask the same questions again; an embedding costs a millisecond of CPU. */
    private final Map<String, float[]> embeddings = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > 1000;
        }
    });
    private final TtlCache<String, List<PerceptionRepository.Match>> matches = new TtlCache<>(500);

    /** @param embedder the question's embedding for the vector half of the search; null for BM25 only */
    public EvidenceSearch(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception, TextEmbedder embedder) {
        this.videos = videos;
        this.segments = segments;
        this.perception = perception;
        this.embedder = embedder;
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
            String text = String.format(Locale.ROOT, "[clip %d] stream %s, %.1f-%.1f s: a shot that begins with a %s; keyframes at %s s%s",
                    clip, x.stream(), a, b, "start".equals(s.transitionIn()) ? "the start of the stream" : s.transitionIn(),
                    String.join(", ", s.keyframes().stream().map(KeyframeRef::ptsMs)
                            .map(ms -> String.format(Locale.ROOT, "%.1f", ms / 1000.0)).toList()), read);
            out.add(new Evidence(clip, x.stream(), s.id(), s.sceneId(), a, b, ids, ids.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(),
                    List.of(), x.best() == null ? null : Math.round(x.best().score() * 1000) / 1000.0,
                    x.best() == null ? null : x.best().text(), text));
        }
        return out;
    }

    private float[] embedding(String question) {
        float[] v = embeddings.get(question);
        if (v == null) {
            v = embedder.embed(question);
            embeddings.put(question, v);
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
