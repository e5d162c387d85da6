package io.videoworld.query;

import io.videoworld.connectors.es.PerceptionRepository;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 000 API-16 {@code find_similar_segments} (seed 001 {@code search_similar_to_example}),
 * answered in seed 001's shape: the example range's analysed keyframes are averaged into one
 * vector — the colour/layout descriptor for {@code visual}, the on-screen-text embedding for
 * {@code semantic} — and the nearest keyframes elsewhere in the stream decide which shots are
 * most alike (a shot scores its best keyframe; similarity 0-1). {@code motion} needs tracks and
 * answers 501 until they exist.
 */
public final class SimilarityTools {
    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final PerceptionRepository perception;

    public SimilarityTools(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception) {
        this.videos = videos;
        this.segments = segments;
        this.perception = perception;
    }

    public Map<String, Object> findSimilarSegments(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String metric = args.optionalChoice("similarity_metric", Set.of("visual", "semantic", "motion"), "visual");
        if ("motion".equals(metric)) {
            throw new ApiException(501, "not_implemented", "similarity_metric", "motion similarity needs tracks, which are not built yet");
        }
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        Args example = args.optionalObject("example_segment").orElseThrow(() -> ApiException.badField("example_segment", "'example_segment' is required"));
        double start = example.requiredNumber("start_time", 0, 1e9);
        double end = example.requiredNumber("end_time", 0, 1e9);
        if (end <= start) {
            throw ApiException.badField("example_segment.end_time", "'example_segment.end_time' must be after 'start_time'");
        }
        List<PerceptionRepository.Vectors> inside = perception.inRange(v.streamId(), v.epochMs(), Math.round(start * 1000), Math.round(end * 1000));
        boolean visual = "visual".equals(metric);
        float[] mean = null;
        int used = 0;
        StringBuilder text = new StringBuilder();
        for (PerceptionRepository.Vectors k : inside) {
            float[] vec = visual ? k.imageDescriptor() : k.textEmbedding();
            if (vec == null) {
                continue;
            }
            mean = mean == null ? new float[vec.length] : mean;
            for (int i = 0; i < vec.length; i++) {
                mean[i] += vec[i];
            }
            used++;
            if (!k.text().isBlank() && text.length() < 200) {
                text.append(text.length() == 0 ? "" : " / ").append(k.text().replace('\n', ' '));
            }
        }
        if (mean == null) {
            throw new ApiException(404, "not_found", "example_segment", "no analysed keyframe with " + (visual ? "an image descriptor" : "on-screen text")
                    + " between " + start + " and " + end + " s");
        }
        normalise(mean);
        Map<String, Double> best = new LinkedHashMap<>();
        Map<String, Segment> byId = new LinkedHashMap<>();
        List<Segment> shots = segments.list(v.streamId(), v.epochMs(), Segment.SHOT);
        for (PerceptionRepository.Match m : perception.nearest(v.streamId(), v.epochMs(), visual ? "image_descriptor" : "text_embedding",
                mean, Math.max(50, topK * 5))) {
            for (Segment s : shots) {
                boolean inExample = s.endPtsMs() / 1000.0 > start && s.startPtsMs() / 1000.0 < end;
                if (!inExample && m.frameIndex() >= s.startFrame() && m.frameIndex() < s.endFrame()) {
                    best.merge(s.id(), m.score(), Math::max);
                    byId.put(s.id(), s);
                }
            }
        }
        List<Map<String, Object>> similar = new ArrayList<>();
        best.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(topK).forEach(e -> {
            Segment s = byId.get(e.getKey());
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("segment_id", s.id());
            r.put("start_time", VideoTools.round(s.startPtsMs() / 1000.0, 3));
            r.put("end_time", VideoTools.round(s.endPtsMs() / 1000.0, 3));
            r.put("similarity", VideoTools.round(e.getValue(), 3));
            r.put("scene_id", s.sceneId());
            similar.add(r);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("similar_segments", similar);
        out.put("example_summary", used + " analysed keyframe(s) from " + start + " to " + end + " s"
                + (text.length() == 0 ? "" : "; on-screen text: \"" + text + "\""));
        out.put("similarity_metric", metric);
        return out;
    }

    private static void normalise(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        double n = Math.sqrt(sum);
        for (int i = 0; i < v.length && n > 0; i++) {
            v[i] = (float) (v[i] / n);
        }
    }
}
