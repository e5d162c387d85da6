package io.videoworld.testkit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * A small indexed stream for query-service tests: a real 6 s video (cuts at 2 s and 4 s) whose
 * stream and shot documents are written straight to Elasticsearch, as the ingest job would.
 */
public final class KitchenCam {
    private KitchenCam() {}

    public static void index(String esUrl, Path dir, String stream, long epoch) throws Exception {
        index(esUrl, dir, stream, epoch, null);
    }

    /**
     * Also writes what inference would have read in each shot's middle keyframe (porch light, coffee
     * mug, weather), embedded with {@code embed} when given; the first and last shots get the
     * same image descriptor, as if the camera came back to the porch.
     */
    public static void index(String esUrl, Path dir, String stream, long epoch, Function<String, float[]> embed) throws Exception {
        Path video = dir.resolve(stream + ".mp4");
        SampleVideo.write(video, 640, 360, 25, 6.0, List.of(2.0, 4.0));
        try (RestClientTransport t = EsClients.transport(esUrl)) {
            ElasticsearchClient client = EsClients.sync(t);
            EsIndices.ensure(client, EsIndices.ALL);
            SourceInfo info = new SourceInfo(25, 6000L, 150L, "mpeg4", false, 0, 0, 1000L, 100L, 640, 360, 25);
            write(client, EsDocuments.video(new VideoDoc(stream, SourceKind.VIDEO, video.toString(), info, epoch, epoch,
                    epoch + 5960, 5960, 150, 6, 5, 149, 640, 360, VideoDoc.ENDED)));
            for (int i = 0; i < 3; i++) {
                long start = i * 50L;
                List<KeyframeRef> keys = List.of(new KeyframeRef(start, start * 40, epoch + start * 40, 0, 640, 360, 9000, "first"),
                        new KeyframeRef(start + 25, (start + 25) * 40, epoch + (start + 25) * 40, 0, 640, 360, 9000, "middle"));
                write(client, EsDocuments.segment(new Segment(stream, Segment.SHOT, epoch, SourceKind.VIDEO, start, start + 50,
                        start * 40, (start + 50) * 40, epoch + start * 40, epoch + (start + 50) * 40, i == 0 ? "start" : "cut",
                        i == 0 ? "none" : "adaptive", 40, start, 1, start + 25, keys, true)));
                write(client, EsDocuments.segment(new Segment(stream, Segment.SCENE, epoch, SourceKind.VIDEO, start, start + 50,
                        start * 40, (start + 50) * 40, epoch + start * 40, epoch + (start + 50) * 40, i == 0 ? "start" : "cut",
                        i == 0 ? "none" : "adaptive", 40, start, 1, start + 25, List.of(), true)));
            }
            if (embed != null) {
                String[] read = {"Porch light switch by the door", "Coffee mug on the kitchen table", "Weather: rain expected tonight"};
                for (int i = 0; i < 3; i++) {
                    long frame = i * 50L + 25;
                    write(client, EsDocuments.perception(new Perception(stream, epoch, frame, frame * 40, "middle",
                            List.of(new TextLine(read[i], 40, 40, 400, 30, 0.97)), read[i], embed.apply(read[i]),
                            unit(176, i == 2 ? 0 : i), "cpu", 640, 360, List.of(), epoch + frame * 40)));
                }
            }
            client.indices().refresh(r -> r.index("vw-*"));
        }
    }

    private static float[] unit(int dims, int axis) {
        float[] v = new float[dims];
        v[axis] = 1;
        return v;
    }


    private static void write(ElasticsearchClient c, EsWrite w) throws Exception {
        c.index(i -> i.index(w.index()).id(w.id()).version(w.version()).versionType(VersionType.ExternalGte)
                .withJson(new ByteArrayInputStream(w.json())));
    }
}
