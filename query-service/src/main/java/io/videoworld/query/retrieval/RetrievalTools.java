package io.videoworld.query.retrieval;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.core.Cue;
import io.videoworld.connectors.esread.HybridSearch;
import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.ScreenFilter;
import io.videoworld.core.ScreenTitles;
import io.videoworld.core.SourceKind;
import io.videoworld.query.api.ApiException;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Vectors;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.AudioTools;
import io.videoworld.query.retrieval.RetrievalResponses.Candidate;
import io.videoworld.query.retrieval.RetrievalResponses.SemanticCandidate;
import io.videoworld.query.retrieval.RetrievalResponses.SemanticSearch;
import io.videoworld.query.retrieval.RetrievalResponses.TextSearch;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Seed 000 API-15 {@code temporal_search} (seed 001 {@code search_segments_by_text}) and seed
 * 001 API 10 {@code search_segments_by_semantics}: hybrid (BM25 + embedding, scores 0-1) search
 * over the episodic events and the keyframes' on-screen text and labels (shots), plus transcript
 * cues when the video has any (subtitles or the endpoint) and the stretches of speech the ingest
 * job recognised ({@link EvidenceSearch#heard}: words in common, ranked by meaning). Each candidate says what matched; {@code sources} lists what was
 * searched. Semantics adds {@code matched_modalities}: visual (what was seen or read on screen)
 * and audio (what was said).
 */
public final class RetrievalTools {
    private final VideoRepository videos;
    private final EvidenceSearch search;
    private final MemoryRepository memory;
    private final TextEmbedder embedder;
    private final AudioTools audio;

    /** @param embedder embeds queries for the vector half of the search; null searches text only */
    public RetrievalTools(VideoRepository videos, EvidenceSearch search, MemoryRepository memory, TextEmbedder embedder, AudioTools audio) {
        this.videos = videos;
        this.search = search;
        this.memory = memory;
        this.embedder = embedder;
        this.audio = audio;
    }

    /** A candidate, its unrounded score (which orders candidates whose rounded scores tie) and where it matched: visual or audio. */
    private record Hit(Candidate candidate, double score, String modality) {}

    private static final Comparator<Hit> BEST_FIRST = Comparator.comparingDouble(Hit::score).reversed();

    /**
     * Shots whose screens match, then episodic events that match. A window-title filter leaves
     * episodes out: they record the application, not the title.
     */
    private List<Hit> visual(VideoDoc v, String query, double from, double to, int topK, ScreenFilter screen) throws IOException {
        List<Hit> hits = new ArrayList<>();
        for (Evidence e : search.search(List.of(v.streamId()), from, to, query, screen)) {
            if (e.score() != null) {
                hits.add(new Hit(new Candidate(e.segmentId(), round(e.startTime(), 3), round(e.endTime(), 3), e.score(), e.sceneId(),
                        "on-screen text: \"" + e.matchedText().replace('\n', ' ') + "\"", e.frameIds()), e.score(), "visual"));
            }
        }
        float[] vec = embedder == null ? null : embedder.embed(query);
        long toMs = to == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(to * 1000);
        if (screen.windowTitle() != null) {
            return hits;
        }
        for (HybridSearch.Scored s : memory.searchEpisodes(v.streamId(), v.epochMs(), query, vec, Math.round(from * 1000), toMs, topK,
                screen.normalApp())) {
            hits.add(new Hit(new Candidate(s.source().path("event_id").asText(), s.source().path("start_pts_ms").asLong() / 1000.0,
                    s.source().path("end_pts_ms").asLong() / 1000.0, round(s.score(), 4), null, "event: " + s.source().path("summary").asText(),
                    List.of()), s.score(), "visual"));
        }
        return hits;
    }

    /** Recognised speech and transcript cues that share words with the query, and cues that mean nearly the same. */
    private List<Hit> spoken(VideoDoc v, String query, double from, double to) throws IOException {
        List<Hit> hits = new ArrayList<>();
        float[] q = embedder == null ? null : embedder.embed(query);
        long toMs = to == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(to * 1000);
        for (EvidenceSearch.Heard h : search.heard(v.streamId(), v.epochMs(), query, q, Math.round(from * 1000), toMs, 20)) {
            hits.add(new Hit(new Candidate(h.doc().id(), h.doc().startMs() / 1000.0, h.doc().endMs() / 1000.0, round(h.score(), 4), null,
                    "said: \"" + h.doc().text() + "\"", List.of()), h.score(), "audio"));
        }
        if (audio == null) {
            return hits;
        }
        String lower = query.toLowerCase();
        for (Cue cue : audio.cues(v)) {
            if (cue.end() < from || cue.start() > to) {
                continue;
            }
            double lexical = lower.isBlank() ? 0 : overlap(lower, cue.text().toLowerCase());
            double semantic = q == null ? 0 : (1 + Vectors.cosine(q, embedder.embed(cue.text()))) / 2;
            double score = q == null ? lexical : (lexical + semantic) / 2;
            if (lexical > 0 || semantic > 0.75) {
                hits.add(new Hit(new Candidate(v.streamId() + ":cue:" + Math.round(cue.start() * 1000), cue.start(), cue.end(), round(score, 4),
                        null, "said: \"" + cue.text() + "\"", List.of()), score, "audio"));
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

    /**
     * The {@code app} and {@code window_title} arguments, which narrow a search to part of a screen
     * stream; a 400 naming the field when one is given for a camera.
     */
    static ScreenFilter screenFilter(VideoDoc v, Args args) {
        String app = args.optionalString("app").orElse(null);
        String title = args.optionalString("window_title").orElse(null);
        if ((app != null || title != null) && v.sourceKind() != SourceKind.SCREEN) {
            throw ApiException.badField(app != null ? "app" : "window_title", "'" + v.streamId()
                    + "' is a video, not a screen stream: it has no applications or window titles to filter on");
        }
        for (String[] f : new String[][] {{"app", app}, {"window_title", title}}) {
            if (f[1] != null && f[1].length() > 200) {
                throw ApiException.badField(f[0], "'" + f[0] + "' is longer than 200 characters");
            }
        }
        if (app != null && ScreenTitles.app(app) == null) {
            throw ApiException.badField("app", "an application name needs a letter or a digit");
        }
        return new ScreenFilter(app, title);
    }

    /** Seed 000 API-15. */
    public TextSearch temporalSearch(Args args) throws IOException {
        long started = System.nanoTime();
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        double[] range = args.optionalTimeRange("time_range");
        ScreenFilter screen = screenFilter(v, args);
        List<Hit> hits = visual(v, query, range[0], range[1], topK, screen);
        if (screen.isEmpty()) {
            hits.addAll(spoken(v, query, range[0], range[1]));
        }
        hits.sort(BEST_FIRST);
        List<String> sources = new ArrayList<>(List.of("ocr"));
        if (screen.windowTitle() == null) {
            sources.add("episodes");
        }
        if (screen.isEmpty() && audio != null && !audio.cues(v).isEmpty()) {
            sources.add("transcript");
        }
        if (screen.isEmpty() && search.hasSpeech(v.streamId(), v.epochMs())) {
            sources.add("speech");
        }
        return new TextSearch(hits.stream().limit(topK).map(Hit::candidate).toList(), sources, round((System.nanoTime() - started) / 1e6, 2));
    }

    /** Seed 001 API 10. */
    public SemanticSearch searchSegmentsBySemantics(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        double[] range = args.optionalTimeRange("time_range");
        String mode = args.optionalChoice("mode", Set.of("visual", "audio", "visual+audio"), "visual+audio");
        ScreenFilter screen = screenFilter(v, args);
        List<Hit> hits = new ArrayList<>();
        if (mode.contains("visual")) {
            hits.addAll(visual(v, query, range[0], range[1], topK, screen));
        }
        if (mode.contains("audio") && screen.isEmpty()) {
            hits.addAll(spoken(v, query, range[0], range[1]));
        }
        hits.sort(BEST_FIRST);
        String note = mode.contains("audio") && (audio == null || audio.cues(v).isEmpty()) && !search.hasSpeech(v.streamId(), v.epochMs())
                ? "no transcript for this video (no speech recognised by the ingest job, no subtitles, and no transcription endpoint "
                        + "configured or no speech)" : null;
        return new SemanticSearch(hits.stream().limit(topK).map(RetrievalTools::semantic).toList(), note);
    }

    private static SemanticCandidate semantic(Hit h) {
        Candidate c = h.candidate();
        return new SemanticCandidate(c.segmentId(), c.startTime(), c.endTime(), c.score(), List.of(h.modality()), c.matchedReason());
    }
}
