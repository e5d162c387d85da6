package io.videoworld.query;

import io.videoworld.connectors.es.MemoryRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.agent.Evidence;
import io.videoworld.query.agent.EvidenceSearch;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.Decimals;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 000 API-15 {@code temporal_search} (seed 001 {@code search_segments_by_text}) and seed
 * 001 API 10 {@code search_segments_by_semantics}: hybrid (BM25 + embedding, scores 0-1) search
 * over the episodic events and the keyframes' on-screen text and labels (shots), plus transcript
 * cues when the video has any. Each candidate says what matched; {@code sources} lists what was
 * searched. Semantics adds {@code matched_modalities}: visual (what was seen or read on screen)
 * and audio (what was said).
 */
public final class RetrievalTools {
    private final VideoRepository videos;
    private final EvidenceSearch search;
    private final MemoryRepository memory;
    private final TextEmbedder embedder;
    private final AudioTools audio;

    public RetrievalTools(VideoRepository videos, EvidenceSearch search, MemoryRepository memory, TextEmbedder embedder, AudioTools audio) {
        this.videos = videos;
        this.search = search;
        this.memory = memory;
        this.embedder = embedder;
        this.audio = audio;
    }

    private record Hit(Map<String, Object> candidate, double score) {}

    private List<Hit> visual(VideoDoc v, String query, double from, double to, int topK) throws IOException {
        List<Hit> hits = new ArrayList<>();
        for (Evidence e : search.search(List.of(v.streamId()), from, to, query)) {
            if (e.score() == null) {
                continue;
            }
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("segment_id", e.segmentId());
            c.put("start_time", Decimals.round(e.startTime(), 3));
            c.put("end_time", Decimals.round(e.endTime(), 3));
            c.put("score", e.score());
            c.put("scene_id", e.sceneId());
            c.put("matched_reason", "on-screen text: \"" + e.matchedText().replace('\n', ' ') + "\"");
            c.put("frame_ids", e.frameIds());
            hits.add(new Hit(c, e.score()));
        }
        float[] vec = embedder == null ? null : embedder.embed(query);
        long toMs = to == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(to * 1000);
        for (MemoryRepository.Scored s : memory.searchEpisodes(v.streamId(), v.epochMs(), query, vec, Math.round(from * 1000), toMs, topK)) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("segment_id", s.source().path("event_id").asText());
            c.put("start_time", s.source().path("start_pts_ms").asLong() / 1000.0);
            c.put("end_time", s.source().path("end_pts_ms").asLong() / 1000.0);
            c.put("score", Decimals.round(s.score(), 4));
            c.put("scene_id", null);
            c.put("matched_reason", "event: " + s.source().path("summary").asText());
            c.put("frame_ids", List.of());
            hits.add(new Hit(c, s.score()));
        }
        return hits;
    }

    private List<Hit> spoken(VideoDoc v, String query, double from, double to) throws IOException {
        List<Hit> hits = new ArrayList<>();
        if (audio == null) {
            return hits;
        }
        float[] q = embedder == null ? null : embedder.embed(query);
        String lower = query.toLowerCase();
        for (io.videoworld.connectors.audio.Cue cue : audio.cues(v)) {
            if (cue.end() < from || cue.start() > to) {
                continue;
            }
            double lexical = lower.isBlank() ? 0 : overlap(lower, cue.text().toLowerCase());
            double semantic = q == null ? 0 : (1 + ObjectTools.cosine(q, embedder.embed(cue.text()))) / 2;
            double score = q == null ? lexical : (lexical + semantic) / 2;
            if (lexical > 0 || semantic > 0.75) {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("segment_id", v.streamId() + ":cue:" + Math.round(cue.start() * 1000));
                c.put("start_time", cue.start());
                c.put("end_time", cue.end());
                c.put("score", Decimals.round(score, 4));
                c.put("scene_id", null);
                c.put("matched_reason", "said: \"" + cue.text() + "\"");
                c.put("frame_ids", List.of());
                hits.add(new Hit(c, score));
            }
        }
        return hits;
    }

    /** Share of the query's words that occur in the text. */
    private static double overlap(String query, String text) {
        String[] words = query.split("\\W+");
        int n = 0;
        int in = 0;
        for (String w : words) {
            if (w.length() > 2) {
                n++;
                if (text.contains(w)) {
                    in++;
                }
            }
        }
        return n == 0 ? 0 : (double) in / n;
    }

    public Map<String, Object> temporalSearch(Args args) throws IOException {
        long started = System.nanoTime();
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        double[] range = args.optionalTimeRange("time_range");
        List<Hit> hits = visual(v, query, range[0], range[1], topK);
        List<Hit> said = spoken(v, query, range[0], range[1]);
        hits.addAll(said);
        hits.sort((a, b) -> Double.compare(b.score(), a.score()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("candidates", hits.stream().limit(topK).map(Hit::candidate).toList());
        List<String> sources = new ArrayList<>(List.of("ocr", "episodes"));
        if (audio != null && !audio.cues(v).isEmpty()) {
            sources.add("transcript");
        }
        out.put("sources", sources);
        out.put("search_time_ms", Decimals.round((System.nanoTime() - started) / 1e6, 2));
        return out;
    }

    public Map<String, Object> searchSegmentsBySemantics(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        double[] range = args.optionalTimeRange("time_range");
        String mode = args.optionalChoice("mode", Set.of("visual", "audio", "visual+audio"), "visual+audio");
        List<Map<String, Object>> out = new ArrayList<>();
        List<Hit> hits = new ArrayList<>();
        if (mode.contains("visual")) {
            for (Hit h : visual(v, query, range[0], range[1], topK)) {
                h.candidate().put("matched_modalities", List.of("visual"));
                hits.add(h);
            }
        }
        if (mode.contains("audio")) {
            for (Hit h : spoken(v, query, range[0], range[1])) {
                h.candidate().put("matched_modalities", List.of("audio"));
                hits.add(h);
            }
        }
        hits.sort((a, b) -> Double.compare(b.score(), a.score()));
        for (Hit h : hits.subList(0, Math.min(topK, hits.size()))) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("segment_id", h.candidate().get("segment_id"));
            c.put("start_time", h.candidate().get("start_time"));
            c.put("end_time", h.candidate().get("end_time"));
            c.put("score", h.candidate().get("score"));
            c.put("matched_modalities", h.candidate().get("matched_modalities"));
            c.put("explanation", h.candidate().get("matched_reason"));
            out.add(c);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("candidates", out);
        if (mode.contains("audio") && (audio == null || audio.cues(v).isEmpty())) {
            r.put("audio_note", "no transcript for this video (no subtitles, and no transcription endpoint configured or no speech)");
        }
        return r;
    }
}
