package io.videoworld.query.timeline;

import io.videoworld.connectors.esread.TranscriptRepository;
import io.videoworld.core.TranscriptDoc;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Names;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Decimals;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /v1/streams/{id}/timeline}: the lanes of the timeline page that no tool lists, for the
 * stream's latest push: its episodes (summary, details, labels, revision) and its tracks (category,
 * lifespan, and up to {@value #MAX_POINTS} points of the box, so the page can draw a track's box on
 * any frame), and the stretches of speech the ingest job recognised (what was said, or that the
 * recogniser failed). Times are seconds of presentation time, as the tools answer them.
 */
public final class TimelineLanes {
    static final int MAX_POINTS = 60;

    /** The answer. */
    public record Lanes(String streamId, long epochMs, double duration, List<Episode> episodes, List<Track> tracks, List<Speech> speech) {}

    /** A stretch of speech: what was said (null when recognition failed), its status and the recogniser. */
    public record Speech(String id, double startTime, double endTime, String text, String status, String recognizer) {}

    /** An episodic event as indexed. */
    public record Episode(String id, double startTime, double endTime, String summary, String details, List<String> labels,
            String eventType, String app, long revision, int batches) {}

    /** A tracked object: its lifespan and where its box was. */
    public record Track(String id, long number, String category, double startTime, double endTime, int samples, double meanScore,
            boolean alive, List<Point> points) {}

    /** A track's box {@code [x1, y1, x2, y2]} (0-1) at a time. */
    public record Point(double time, double[] bbox) {}

    private final ElasticsearchClient es;
    private final VideoRepository videos;
    private final ObjectRepository objects;
    private final TranscriptRepository transcripts;

    public TimelineLanes(ElasticsearchClient es, VideoRepository videos, ObjectRepository objects) {
        this.es = es;
        this.transcripts = new TranscriptRepository(es);
        this.videos = videos;
        this.objects = objects;
    }

    public Lanes lanes(String streamId) throws IOException {
        VideoDoc v = videos.find(streamId).orElseThrow(() -> ApiException.notFound("id", "no stream '" + streamId + "' is indexed"));
        List<Track> tracks = new ArrayList<>();
        for (ObjectRepository.Track t : objects.tracks(streamId, v.epochMs(), 0, Long.MAX_VALUE / 2)) {
            List<Point> points = new ArrayList<>();
            int step = Math.max(1, (t.timeline().size() + MAX_POINTS - 1) / MAX_POINTS);
            for (int i = 0; i < t.timeline().size(); i += step) {
                ObjectRepository.Point p = t.timeline().get(i);
                points.add(new Point(sec(p.ptsMs()), p.bbox()));
            }
            tracks.add(new Track(t.id(), t.number(), t.category(), sec(t.firstMs()), sec(t.lastMs()), t.samples(),
                    Decimals.round(t.meanScore(), 3), t.alive(), points));
        }
        tracks.sort((a, b) -> Double.compare(a.startTime(), b.startTime()));
        return new Lanes(streamId, v.epochMs(), sec(Math.max(v.lastPtsMs(), v.source() == null || v.source().durationMs() == null ? 0
                : v.source().durationMs())), episodes(streamId, v.epochMs()), tracks, speech(streamId, v.epochMs()));
    }

    private List<Speech> speech(String streamId, long epochMs) throws IOException {
        List<Speech> out = new ArrayList<>();
        for (TranscriptDoc t : transcripts.overlapping(streamId, epochMs, 0, Long.MAX_VALUE / 2)) {
            out.add(new Speech(t.id(), sec(t.startMs()), sec(t.endMs()), t.text(), t.status(), t.recognizer()));
        }
        return out;
    }

    private List<Episode> episodes(String streamId, long epochMs) throws IOException {
        try {
            List<Episode> out = new ArrayList<>();
            for (Hit<JsonNode> h : es.search(s -> s.index(Names.EPISODES_INDEX).size(1000)
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))))
                    .source(src -> src.filter(f -> f.excludes("embedding")))
                    .sort(o -> o.field(f -> f.field("start_pts_ms").order(SortOrder.Asc))), JsonNode.class).hits().hits()) {
                JsonNode d = h.source();
                List<String> labels = new ArrayList<>();
                d.path("labels").forEach(l -> labels.add(l.asText()));
                out.add(new Episode(h.id(), sec(d.path("start_pts_ms").asLong()), sec(d.path("end_pts_ms").asLong()), d.path("summary").asText(""),
                        d.path("details").asText(""), labels, d.path("event_type").asText(null), d.path("app").asText(null),
                        d.path("revision").asLong(1), d.path("batches").asInt()));
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    private static double sec(long ms) {
        return Decimals.round(ms / 1000.0, 3);
    }
}
