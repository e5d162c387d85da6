package io.videoworld.query.perception;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Vectors;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.Attributes;
import io.videoworld.query.perception.PerceptionResponses.DetectedObject;
import io.videoworld.query.perception.PerceptionResponses.Detections;
import io.videoworld.query.perception.PerceptionResponses.FrameInfo;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Seed 000 API-6 {@code detect_objects}, answered from what the ingest job's detector stored, or,
 * where nothing was stored near the asked time, by running the detector on the decoded frame
 * ({@code detection_method} says which). The detector is closed-vocabulary (COCO-80): {@code query}
 * ranks boxes by how well "colour label" descriptions of them match the query's embedding; it
 * cannot find what COCO has no label for, and says so.
 */
public final class ObjectTools {
    private final VideoRepository videos;
    private final ObjectFinder finder;
    private final TextEmbedder embedder;

    /** @param embedder ranks objects against a text query; null leaves them unranked */
    public ObjectTools(VideoRepository videos, ObjectFinder finder, TextEmbedder embedder) {
        this.videos = videos;
        this.finder = finder;
        this.embedder = embedder;
    }

    /** Seed 000 API-6. */
    public Detections detectObjects(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        String category = args.optionalString("category").orElse(null);
        String query = args.optionalString("query").or(() -> args.optionalString("text_query")).orElse(null);
        double threshold = args.optionalNumber("confidence_threshold", 0, 1).orElse(0.3);
        ObjectFinder.Seen seen = finder.objectsAt(v, t, true);
        float[] q = query == null || embedder == null ? null : embedder.embed(query);
        List<DetectedObject> out = new ArrayList<>();
        int n = 0;
        for (ObjectRepository.Found f : seen.found()) {
            if (f.score() < threshold || !ObjectGeometry.inCategory(f.category(), category)) {
                continue;
            }
            String colour = seen.image() == null ? null : PixelStats.dominantColour(seen.image(), ObjectGeometry.toD(f.bboxPixels()));
            String hint = (colour == null ? "" : colour + " ") + f.category();
            out.add(new DetectedObject(String.format("obj_tmp_%03d", ++n), f.category(), ObjectGeometry.xywh(f.bbox()),
                    ObjectGeometry.xywh(f.bboxPixels()), round(f.score(), 4), hint, colour == null ? null : new Attributes(colour),
                    q == null ? null : round(Vectors.cosine(q, embedder.embed(hint)), 4)));
        }
        if (q != null) {
            out.sort(Comparator.comparingDouble(DetectedObject::querySimilarity).reversed());
        }
        String matching = query == null ? null : embedder == null ? "not available (no embedder loaded); objects are unranked"
                : "closed-vocabulary detector (COCO-80): objects ranked by embedding similarity of 'colour label' to the query";
        return new Detections(t, seen.ptsMs() / 1000.0, new FrameInfo(seen.frameId(), seen.frameNumber()), seen.method(),
                finder.detectorName(), out, matching);
    }
}
