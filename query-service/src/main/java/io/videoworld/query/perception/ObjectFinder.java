package io.videoworld.query.perception;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.core.Detection;
import io.videoworld.core.Ids;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.DecodedImage;
import io.videoworld.perception.ObjectDetector;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.video.FrameAccess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects in the frame at a time: what the ingest job's detector stored when a sample lies
 * within 600 ms, else the detector run on the decoded frame (when one is configured), so every
 * object tool answers from the same place and says which it was.
 */
public final class ObjectFinder {
    /** Objects in one frame, how they were found ({@code precomputed} or {@code realtime}), and its pixels when asked for. */
    public record Seen(long ptsMs, String frameId, long frameNumber, int width, int height, String method, List<ObjectRepository.Found> found,
            DecodedImage image) {}

    private final ObjectRepository objects;
    private final FrameAccess frames;
    private final ObjectDetector detector;

    /** @param detector runs where nothing is stored near the asked time; null answers from stored detections only */
    public ObjectFinder(ObjectRepository objects, FrameAccess frames, ObjectDetector detector) {
        this.objects = objects;
        this.frames = frames;
        this.detector = detector;
    }

    /** The detector's name, as {@code detect_objects} reports it. */
    public String detectorName() {
        return detector == null ? "centernet" : detector.spec();
    }

    /** The objects near {@code timestamp}, with the frame's pixels when {@code needPixels}; 501 when none are stored and no detector runs. */
    public Seen objectsAt(VideoDoc v, double timestamp, boolean needPixels) throws IOException {
        long pts = Math.round(timestamp * 1000);
        var stored = objects.nearestDetections(v.streamId(), v.epochMs(), pts, 600);
        if (stored.isPresent()) {
            var s = stored.get();
            DecodedImage img = needPixels ? image(v, s.ptsMs() / 1000.0) : null;
            return new Seen(s.ptsMs(), Ids.frame(v.streamId(), s.frameIndex()), s.frameIndex(), s.width(), s.height(), "precomputed",
                    s.objects(), img);
        }
        if (detector == null) {
            throw new ApiException(501, "not_implemented", "timestamp", "no detections are stored near " + timestamp
                    + " s and the on-demand detector is not configured (start the query service with --models pointing at deploy/models.sh's directory)");
        }
        FrameAccess.Image picture = frames.at(v, List.of(timestamp)).get(0);
        DecodedImage img = DecodedImage.decode(picture.jpeg());
        List<ObjectRepository.Found> found = new ArrayList<>();
        // One model instance serves every request; DJL predictors are not thread-safe.
        synchronized (detector) {
            for (Detection d : detector.detect(List.of(img)).get(0)) {
                found.add(new ObjectRepository.Found(d.category(), d.score(), new double[] {d.x1() / img.width(), d.y1() / img.height(),
                        d.x2() / img.width(), d.y2() / img.height()}, new int[] {(int) Math.round(d.x1()), (int) Math.round(d.y1()),
                        (int) Math.round(d.x2()), (int) Math.round(d.y2())}));
            }
        }
        String frameId = picture.frameId();
        long number = Long.parseLong(frameId.substring(frameId.lastIndexOf(':') + 1));
        return new Seen(picture.ptsMs(), frameId, number, img.width(), img.height(), "realtime", found, img);
    }

    /** The decoded picture at a time (decoded from the source, or the nearest keyframe). */
    public DecodedImage image(VideoDoc v, double timestamp) throws IOException {
        return DecodedImage.decode(frames.at(v, List.of(timestamp)).get(0).jpeg());
    }
}
