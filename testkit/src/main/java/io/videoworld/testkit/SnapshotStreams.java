package io.videoworld.testkit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Names;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.VideoDoc;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The fixed streams the REST snapshot test asks about, written straight to Elasticsearch as the
 * ingest job would: {@link #CAM}, the kitchen camera (6 s, three shots, on-screen text, people and a
 * cup detected and tracked, two episodic events, a subtitle file), {@link #RADIO} (a soundtrack
 * with a subtitle file) and {@link #GONE} (a stream whose source is gone and that has no shots).
 * What the query service itself writes for them (memories, entities) is deleted first, so every
 * run starts from the same state.
 */
public final class SnapshotStreams {
    public static final String CAM = "snap-cam";
    public static final String RADIO = "snap-radio";
    public static final String GONE = "snap-gone";
    public static final long EPOCH = 1_700_000_700_000L;
    private static final int W = 640;
    private static final int H = 360;

    private SnapshotStreams() {}

    /** Indexes the three streams under {@code dir}; {@code embed} gives the text embeddings. */
    public static void index(String esUrl, Path dir, Function<String, float[]> embed) throws Exception {
        KitchenCam.index(esUrl, dir, CAM, EPOCH, embed);
        Files.writeString(dir.resolve(CAM + ".srt"), "1\n00:00:00,500 --> 00:00:01,500\nGood morning, the kettle is on.\n\n"
                + "2\n00:00:04,200 --> 00:00:05,000\nWhere did I leave my keys?\n");
        Path radio = dir.resolve(RADIO + ".mkv");
        SoundFixture.write(radio);
        Files.writeString(dir.resolve(RADIO + ".srt"), "1\n00:00:04,000 --> 00:00:06,500\nCan you pass me the salt?\n");
        try (RestClientTransport t = EsClients.transport(esUrl)) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, EsIndices.ALL);
            forget(c, Names.MEMORIES_INDEX);
            forget(c, Names.ENTITIES_INDEX);
            SourceInfo sound = new SourceInfo(5, 9000L, 45L, "mpeg4", true, 1, 16000, null, null, 160, 120, 5);
            write(c, EsDocuments.video(new VideoDoc(RADIO, SourceKind.VIDEO, radio.toString(), sound, EPOCH, EPOCH, EPOCH + 9000, 9000, 45,
                    1, 0, 44, 160, 120, VideoDoc.ENDED)));
            write(c, EsDocuments.video(new VideoDoc(GONE, SourceKind.VIDEO, dir.resolve("gone.mp4").toString(),
                    new SourceInfo(25, 10_000L, 250L, "mpeg4", false, 0, 0, 1000L, 100L, W, H, 25), EPOCH, EPOCH, EPOCH + 9_960, 9_960,
                    250, 10, 9, 249, W, H, VideoDoc.ENDED)));
            objectsAndEpisodes(c, CAM, EPOCH, embed);
            c.indices().refresh(r -> r.index("vw-*"));
        }
    }

    /**
     * The kitchen camera under another stream id and push: {@link KitchenCam}'s shots plus the
     * detections, tracks and episodes of {@link #CAM}, for tests that must not share {@link #CAM}.
     */
    public static void indexCam(String esUrl, Path dir, String stream, long epoch, Function<String, float[]> embed) throws Exception {
        KitchenCam.index(esUrl, dir, stream, epoch, embed);
        try (RestClientTransport t = EsClients.transport(esUrl)) {
            ElasticsearchClient c = EsClients.sync(t);
            objectsAndEpisodes(c, stream, epoch, embed);
            c.indices().refresh(r -> r.index("vw-*"));
        }
    }

    private static void objectsAndEpisodes(ElasticsearchClient c, String stream, long epoch, Function<String, float[]> embed) throws Exception {
        objects(c, stream, epoch);
        String[][] events = {{"porch", "Someone walks across the porch towards the door", "0", "2000"},
            {"kitchen", "A cup of tea is made at the kitchen counter", "2000", "6000"}};
        for (int i = 0; i < events.length; i++) {
            long start = Long.parseLong(events[i][2]);
            long end = Long.parseLong(events[i][3]);
            write(c, EsDocuments.episode(new EpisodeDoc(stream, epoch, i + 1, 1, "scene_activity", "camera", epoch + start, epoch + end,
                    start, end, events[i][0], events[i][1], "[details] " + events[i][1], List.of(events[i][0]), List.of(), 2,
                    embed == null ? null : embed.apply(events[i][1]), "rules", true, false)));
        }
    }

    /**
     * Detections every 5 frames and four tracks: a person crossing shot 1 left to right, a person
     * standing in shot 2 holding a cup, and a person crossing shot 3 right to left who looks like
     * the first (same appearance), so an entity registered on the first picks up the third.
     */
    private static void objects(ElasticsearchClient c, String stream, long epoch) throws Exception {
        float[] walker = look(0, 1, 0.2f);
        float[] cook = look(40, 1, 0.3f);
        float[] cup = look(90, 1, 0.5f);
        List<List<TrackPoint>> timelines = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (long f = 0; f < 150; f += 5) {
            long pts = f * 40;
            List<Detection> seen = new ArrayList<>();
            if (f < 50) {
                double x = 0.1 + 0.4 * f / 50.0;
                seen.add(box("person", 0.91, x, 0.25, x + 0.15, 0.9, walker, timelines.get(0), f, pts));
            } else if (f < 100) {
                seen.add(box("person", 0.88, 0.3, 0.2, 0.55, 0.95, cook, timelines.get(1), f, pts));
                seen.add(box("cup", 0.64, 0.45, 0.5, 0.52, 0.6, cup, timelines.get(2), f, pts));
            } else {
                double x = 0.7 - 0.4 * (f - 100) / 50.0;
                seen.add(box("person", 0.86, x, 0.3, x + 0.14, 0.92, walker, timelines.get(3), f, pts));
            }
            write(c, EsDocuments.detections(new DetectedFrame(stream, epoch, f, pts, epoch + pts, W, H, f == 145, seen, null, "cpu")));
        }
        String[] categories = {"person", "person", "cup", "person"};
        float[][] looks = {walker, cook, cup, walker};
        for (int i = 0; i < 4; i++) {
            List<TrackPoint> tl = timelines.get(i);
            double mean = tl.stream().mapToDouble(TrackPoint::score).average().orElse(0);
            write(c, EsDocuments.track(new TrackDoc(stream, epoch, i + 1, categories[i], W, H, tl.get(0), tl.get(tl.size() - 1), tl.size(),
                    mean, false, 0, tl, looks[i])));
        }
    }

    /** A detection from a normalised box, also added to its track's timeline. */
    private static Detection box(String category, double score, double x1, double y1, double x2, double y2, float[] look,
            List<TrackPoint> timeline, long frame, long pts) {
        timeline.add(new TrackPoint(frame, pts, x1 * W, y1 * H, x2 * W, y2 * H, score));
        return new Detection(category, score, x1 * W, y1 * H, x2 * W, y2 * H, look);
    }

    /** A unit-length 128-bin colour histogram with two bins filled from {@code bin}, as the tracker stores. */
    private static float[] look(int bin, float first, float second) {
        float[] v = new float[128];
        v[bin] = first;
        v[bin + 1] = second;
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (v[i] / Math.sqrt(n));
        }
        return v;
    }

    /** Deletes what earlier runs had the service write about these streams; the server has no delete-by-query. */
    private static void forget(ElasticsearchClient c, String index) throws Exception {
        for (String stream : List.of(CAM, RADIO, GONE)) {
            for (Hit<JsonNode> h : c.search(s -> s.index(index).size(1000).query(q -> q.term(t -> t.field("stream_id").value(stream))),
                    JsonNode.class).hits().hits()) {
                c.delete(d -> d.index(index).id(h.id()));
            }
        }
        c.indices().refresh(r -> r.index(index));
    }

    /** Writes one document as the ingest job's sink would: its id, external version and JSON. */
    public static void write(ElasticsearchClient c, EsWrite w) throws Exception {
        c.index(i -> i.index(w.index()).id(w.id()).version(w.version()).versionType(VersionType.ExternalGte)
                .withJson(new ByteArrayInputStream(w.json())));
    }
}
