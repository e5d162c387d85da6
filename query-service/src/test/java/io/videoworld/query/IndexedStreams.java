package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.connectors.framestore.LocalFrameStore;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.VideoDoc;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;

/** Screen streams written as the ingest job writes them ({@link EsDocuments}), with stored keyframes, for the stream and entity tests. */
final class IndexedStreams {
    private IndexedStreams() {}

    /**
     * A stream of {@code seconds} steps from {@code epoch}: a keyframe each step (document and
     * stored JPEG), a shot, an episode and a track every two steps of {@code stepMs}.
     */
    static void write(String es, String stream, long epoch, int seconds, Path frames) throws Exception {
        write(es, stream, epoch, seconds, 1000, frames);
    }

    static void write(String es, String stream, long epoch, int seconds, long stepMs, Path frames) throws Exception {
        LocalFrameStore store = new LocalFrameStore(frames);
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, EsIndices.ALL);
            long lastMs = (seconds - 1) * stepMs;
            put(c, EsDocuments.video(new VideoDoc(stream, SourceKind.SCREEN, "/screens/" + stream, new SourceInfo(1, null, null, null, false, 0, 0,
                    null, null, 320, 200, 1), epoch, epoch, epoch + lastMs, lastMs, seconds, 1, 0, seconds - 1, 320, 200, VideoDoc.LIVE)));
            for (int s = 0; s < seconds; s++) {
                String key = Keyframe.storeKey(stream, epoch, s);
                store.put(key, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) s});
                put(c, EsDocuments.frame(new FrameDoc(stream, epoch, s, s * stepMs, epoch + s * stepMs, 0, 320, 200, 3, SourceKind.SCREEN,
                        stream + ":shot:" + String.format("%010d", s / 2 * 2), null, "first", key)));
            }
            for (int s = 0; s + 1 < seconds; s += 2) {
                long a = s * stepMs;
                long b = a + 2 * stepMs;
                put(c, EsDocuments.segment(new Segment(stream, Segment.SHOT, epoch, SourceKind.SCREEN, s, s + 2, a, b, epoch + a, epoch + b,
                        s == 0 ? "start" : "cut", "chrome", 1, s, 1, s, List.of(new KeyframeRef(s, a, epoch + a, 0, 320, 200, 3, "first")), true)));
                put(c, EsDocuments.episode(new EpisodeDoc(stream, epoch, s / 2 + 1, 1, "screen_activity", "user", epoch + a, epoch + b, a, b,
                        "mail", "Reading mail " + s, "[details]", List.of(), List.of(), 1, null, "rules", true, false)));
                TrackPoint p = new TrackPoint(s, a, 10, 10, 50, 50, 0.9);
                TrackPoint q = new TrackPoint(s + 1, a + stepMs, 12, 10, 52, 50, 0.9);
                put(c, EsDocuments.track(new TrackDoc(stream, epoch, s / 2 + 1, "person", 320, 200, p, q, 2, 0.9, false, 0, List.of(p, q), null)));
            }
            c.indices().refresh(r -> r.index("vw-*"));
        }
    }

    /** Writes documents as the ingest job's sink would, then refreshes. */
    static void put(String es, List<EsWrite> writes) throws Exception {
        try (RestClientTransport t = EsClients.transport(es)) {
            ElasticsearchClient c = EsClients.sync(t);
            EsIndices.ensure(c, EsIndices.ALL);
            for (EsWrite w : writes) {
                put(c, w);
            }
            c.indices().refresh(r -> r.index("vw-*"));
        }
    }

    private static void put(ElasticsearchClient c, EsWrite w) throws Exception {
        c.index(i -> i.index(w.index()).id(w.id()).version(w.version()).versionType(VersionType.ExternalGte)
                .withJson(new ByteArrayInputStream(w.json())));
    }

}
