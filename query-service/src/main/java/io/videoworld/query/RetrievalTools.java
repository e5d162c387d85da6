package io.videoworld.query;

import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.agent.Evidence;
import io.videoworld.query.agent.EvidenceSearch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000 API-15 {@code temporal_search} (seed 001 {@code search_segments_by_text}), in seed
 * 001's response shape: shots whose keyframes' on-screen text matches the query, by hybrid score
 * (BM25 + embedding, 0-1). What is searched today is the OCR text of keyframes, and the response
 * says so in {@code sources}; episodes and transcripts join the same search when they exist.
 */
public final class RetrievalTools {
    private final VideoRepository videos;
    private final EvidenceSearch search;

    public RetrievalTools(VideoRepository videos, EvidenceSearch search) {
        this.videos = videos;
        this.search = search;
    }

    public Map<String, Object> temporalSearch(Args args) throws IOException {
        long started = System.nanoTime();
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        double[] range = args.optionalTimeRange("time_range");
        double from = range[0];
        double to = range[1];
        List<Map<String, Object>> candidates = new ArrayList<>();
        for (Evidence e : search.search(List.of(v.streamId()), from, to, query)) {
            if (e.score() == null || candidates.size() >= topK) {
                continue;
            }
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("segment_id", e.segmentId());
            c.put("start_time", VideoTools.round(e.startTime(), 3));
            c.put("end_time", VideoTools.round(e.endTime(), 3));
            c.put("score", e.score());
            c.put("scene_id", e.sceneId());
            c.put("matched_reason", "on-screen text: \"" + e.matchedText().replace('\n', ' ') + "\"");
            c.put("frame_ids", e.frameIds());
            candidates.add(c);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("candidates", candidates);
        out.put("sources", List.of("ocr"));
        out.put("search_time_ms", VideoTools.round((System.nanoTime() - started) / 1e6, 2));
        return out;
    }
}
