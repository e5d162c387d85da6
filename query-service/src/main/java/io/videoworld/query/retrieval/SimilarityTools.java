package io.videoworld.query.retrieval;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Segment;
import io.videoworld.core.Vectors;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.ObjectGeometry;
import io.videoworld.query.perception.TrackMotion;
import io.videoworld.query.retrieval.RetrievalResponses.Similar;
import io.videoworld.query.retrieval.RetrievalResponses.SimilarSegment;
import io.videoworld.query.video.Videos;
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
 * most alike (a shot scores its best keyframe; similarity 0-1). A range in which nothing was
 * analysed uses the keyframe still on screen, the shot's last one before it. {@code motion} compares how
 * things move: a 16-number descriptor of the tracks in a range (8 directions of movers, weighted
 * twice, 4 speed bands in body heights per second, moving share, count of movers and of still objects,
 * people share, vehicles share), cosine against every other shot's.
 */
public final class SimilarityTools {
    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final PerceptionRepository perception;
    private final ObjectRepository objects;

    public SimilarityTools(VideoRepository videos, SegmentRepository segments, PerceptionRepository perception,
            ObjectRepository objects) {
        this.videos = videos;
        this.segments = segments;
        this.perception = perception;
        this.objects = objects;
    }

    /** Seed 000 API-16. */
    public Similar findSimilarSegments(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String metric = args.optionalChoice("similarity_metric", Set.of("visual", "semantic", "motion"), "visual");
        int topK = args.optionalInt("top_k", 1, 100).orElse(10);
        Args example = args.optionalObject("example_segment").orElseThrow(() -> ApiException.badField("example_segment", "'example_segment' is required"));
        double start = example.requiredNumber("start_time", 0, 1e9);
        double end = example.requiredNumber("end_time", 0, 1e9);
        if (end <= start) {
            throw ApiException.badField("example_segment.end_time", "'example_segment.end_time' must be after 'start_time'");
        }
        if ("motion".equals(metric)) {
            return motion(v, start, end, topK);
        }
        List<PerceptionRepository.Vectors> inside = perception.inRange(v.streamId(), v.epochMs(), Math.round(start * 1000), Math.round(end * 1000));
        boolean visual = "visual".equals(metric);
        List<Segment> shots = segments.list(v.streamId(), v.epochMs(), Segment.SHOT);
        String since = "";
        if (inside.stream().noneMatch(k -> (visual ? k.imageDescriptor() : k.textEmbedding()) != null)) {
            // A gated stream analyses a frame only when the picture changes; a range with none still
            // shows the shot's last analysed keyframe, so that frame stands for the range.
            long at = Math.round(start * 1000);
            Segment holding = shots.stream().filter(s -> s.startPtsMs() <= at && at < s.endPtsMs()).findFirst().orElse(null);
            if (holding != null) {
                inside = perception.lastBefore(v.streamId(), v.epochMs(), holding.startPtsMs(), at);
                since = inside.isEmpty() ? "" : " (nothing newer was analysed; the keyframe on screen since " + inside.get(0).ptsMs() / 1000.0 + " s)";
            }
        }
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
        Vectors.normaliseInPlace(mean);
        Map<String, Double> best = new LinkedHashMap<>();
        Map<String, Segment> byId = new LinkedHashMap<>();
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
        List<SimilarSegment> similar = best.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(topK)
                .map(e -> match(byId.get(e.getKey()), e.getValue())).toList();
        return new Similar(similar, used + " analysed keyframe(s) from " + start + " to " + end + " s" + since
                + (text.length() == 0 ? "" : "; on-screen text: \"" + text + "\""), metric);
    }

    private Similar motion(VideoDoc v, double start, double end, int topK) throws IOException {
        long from = Math.round(start * 1000);
        long to = Math.round(end * 1000);
        List<ObjectRepository.Track> all = objects.tracks(v.streamId(), v.epochMs(), 0, Long.MAX_VALUE / 4);
        float[] query = motionOf(all, from, to);
        if (query == null) {
            throw new ApiException(404, "not_found", "example_segment", "no object was tracked for two samples or more between " + start + " and "
                    + end + " s, so there is no motion to compare");
        }
        List<Segment> shots = segments.list(v.streamId(), v.epochMs(), Segment.SHOT);
        List<Map.Entry<Segment, Double>> scored = new ArrayList<>();
        for (Segment s : shots) {
            if (s.endPtsMs() > from && s.startPtsMs() < to) {
                continue;
            }
            float[] d = motionOf(all, s.startPtsMs(), s.endPtsMs());
            if (d != null) {
                scored.add(Map.entry(s, Math.max(0, Vectors.cosine(d, query))));
            }
        }
        scored.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
        List<SimilarSegment> similar = scored.stream().limit(topK).map(e -> match(e.getKey(), e.getValue())).toList();
        return new Similar(similar, "tracked motion from " + start + " to " + end + " s (directions, speeds, movers and still objects)", "motion");
    }

    /** The unit-length motion descriptor of the tracks seen in [from, to), or null when nothing was tracked there. */
    static float[] motionOf(List<ObjectRepository.Track> tracks, long from, long to) {
        float[] d = new float[16];
        int seen = 0;
        for (var t : tracks) {
            List<ObjectRepository.Point> pts = t.timeline().stream().filter(p -> p.ptsMs() >= from && p.ptsMs() < to).toList();
            if (pts.size() < 2) {
                continue;
            }
            seen++;
            double speed = TrackMotion.heightsPerSecond(pts);
            double[] a = pts.get(0).bbox();
            double[] b = pts.get(pts.size() - 1).bbox();
            double angle = Math.atan2((b[1] + b[3]) / 2 - (a[1] + a[3]) / 2, (b[0] + b[2]) / 2 - (a[0] + a[2]) / 2);
            int dir = (int) Math.floorMod(Math.round(angle / (Math.PI / 4)), 8);
            if (speed >= 0.15) {
                // Direction is what tells two movements apart, so it outweighs the shares below.
                d[dir] += 2;
                d[12] += 1;
            } else {
                d[13] += 1;
            }
            d[8 + (speed < 0.15 ? 0 : speed < 0.6 ? 1 : speed < 1.5 ? 2 : 3)] += 1;
            d[14] += "person".equals(t.category()) ? 1 : 0;
            d[15] += ObjectGeometry.GROUPS.get("vehicle").contains(t.category()) ? 1 : 0;
        }
        if (seen == 0) {
            return null;
        }
        for (int i = 0; i < 16; i++) {
            d[i] /= seen;
        }
        return Vectors.normaliseInPlace(d);
    }

    private static SimilarSegment match(Segment s, double similarity) {
        return new SimilarSegment(s.id(), round(s.startPtsMs() / 1000.0, 3), round(s.endPtsMs() / 1000.0, 3), round(similarity, 3), s.sceneId());
    }
}
