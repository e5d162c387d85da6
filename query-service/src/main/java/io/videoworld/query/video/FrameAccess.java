package io.videoworld.query.video;

import io.videoworld.connectors.esread.FrameRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.media.video.VideoSeeker;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Ids;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Pictures of a stream at given times. When the source video is still reachable (by its recorded
 * URI, see {@link SourceLocator}), frames are decoded from it at the exact time (frame-accurate
 * seek); otherwise the nearest stored keyframe is used, and each image says which it is ({@code origin}) and how far off it is.
 */
public final class FrameAccess {
    /** A frame's picture and where it came from. */
    public record Image(String frameId, long ptsMs, byte[] jpeg, String origin, long offsetMs) {}

    public static final String DECODED = "decoded";
    public static final String STORED = "stored_keyframe";
    public static final String NEAREST = "nearest_keyframe";

    private final FrameRepository frames;
    private final StoredKeyframes keyframes;
    private final FrameStore store;
    private final VideoSeeker seeker;
    private final SourceLocator sources;

    /**
     * @param seeker decodes source files; its owner (the wiring) closes it
     * @param sources where the recorded source URIs are opened here
     */
    public FrameAccess(FrameRepository frames, SegmentRepository segments, FrameStore store, VideoSeeker seeker, SourceLocator sources) {
        this.frames = frames;
        this.keyframes = new StoredKeyframes(segments, frames);
        this.store = store;
        this.seeker = seeker;
        this.sources = sources;
    }

    /** The stored keyframes of a push, from memory. */
    public StoredKeyframes keyframes() {
        return keyframes;
    }

    /** Whether frames of {@code v} can be decoded from its source, which is still reachable and not live. */
    public boolean decodable(VideoDoc v) {
        return source(v).isPresent();
    }

    /** Where the source of a recorded (not live: it has a duration) video with pictures in its file is opened here. */
    private java.util.Optional<String> source(VideoDoc v) {
        if (v.sourceKind() != SourceKind.VIDEO || (v.source() != null && v.source().durationMs() == null)
                || v.source() != null && io.videoworld.media.video.AudioOnlySource.isStandIn(v.source().codec())) {
            return java.util.Optional.empty();
        }
        return sources.locate(v.sourceUri());
    }

    /** The indexed frame nearest to a presentation time (producer numbering). */
    public static String nearestFrameId(VideoDoc v, long ptsMs) {
        double fps = v.source().sampleFps() > 0 ? v.source().sampleFps() : v.source().fps();
        long index = Math.max(0, Math.min(v.maxFrameIndex(), Math.round(ptsMs * fps / 1000.0)));
        return Ids.frame(v.streamId(), index);
    }

    /** Pictures at the given times: decoded from the source when it is reachable, else the nearest stored keyframes. */
    public List<Image> at(VideoDoc v, List<Double> timesSec) throws IOException {
        List<Image> out = new ArrayList<>();
        var source = source(v);
        if (source.isPresent()) {
            for (VideoSeeker.Decoded d : seeker.grab(source.get(), timesSec, 0)) {
                out.add(new Image(nearestFrameId(v, d.ptsMs()), d.ptsMs(), d.frame().jpeg(), DECODED, 0));
            }
            return out;
        }
        for (double t : timesSec) {
            long pts = Math.round(t * 1000);
            FrameDoc k = frames.nearestKeyframe(v.streamId(), v.epochMs(), pts).orElseThrow(() -> new ApiException(404,
                    "no_frames", "video_id", "the source of '" + v.streamId() + "' is not reachable and no keyframe is stored"));
            out.add(new Image(k.id(), k.ptsMs(), stored(k), NEAREST, Math.abs(k.ptsMs() - pts)));
        }
        return out;
    }

    /**
     * Frame ids only, without decoding or reading any picture: the indexed frame nearest each time,
     * or, when the source is gone, the nearest stored keyframe (from memory, see {@link StoredKeyframes}).
     */
    public List<Image> idsAt(VideoDoc v, List<Double> timesSec) throws IOException {
        List<Image> out = new ArrayList<>();
        boolean decodable = decodable(v);
        for (double t : timesSec) {
            long pts = Math.round(t * 1000);
            if (decodable) {
                out.add(new Image(nearestFrameId(v, pts), pts, null, DECODED, 0));
            } else {
                StoredKeyframes.Key k = keyframes.nearest(v, pts);
                if (k == null) {
                    throw new ApiException(404, "no_frames", "video_id", "the source of '" + v.streamId()
                            + "' is not reachable and no keyframe is stored");
                }
                out.add(new Image(k.frameId(), k.ptsMs(), null, NEAREST, Math.abs(k.ptsMs() - pts)));
            }
        }
        return out;
    }

    /** A frame by id: its stored JPEG if it is a keyframe, else decoded from the source, else the nearest keyframe. */
    public Image byId(String frameId, VideoDoc v) throws IOException {
        FrameDoc doc = frames.find(frameId).orElse(null);
        if (doc == null) {
            // Not (yet) indexed, but a frame number of a stream whose source can still be decoded.
            long index = frameIndex(frameId);
            double fps = v.source().sampleFps() > 0 ? v.source().sampleFps() : v.source().fps();
            if (index < 0 || index > v.maxFrameIndex() || !decodable(v)) {
                throw ApiException.notFound("frame_id", "no frame with id '" + frameId + "'");
            }
            return at(v, List.of(index / fps)).get(0);
        }
        if (doc.storeRef() != null) {
            return new Image(frameId, doc.ptsMs(), stored(doc), STORED, 0);
        }
        Image img = at(v, List.of(doc.ptsMs() / 1000.0)).get(0);
        return new Image(frameId, img.ptsMs(), img.jpeg(), img.origin(), Math.abs(img.ptsMs() - doc.ptsMs()));
    }

    private static long frameIndex(String frameId) {
        try {
            return Long.parseLong(frameId.substring(frameId.lastIndexOf(':') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private byte[] stored(FrameDoc k) throws IOException {
        return store.get(k.storeRef()).orElseThrow(() -> new ApiException(404, "no_frames", "frame_id",
                "keyframe '" + k.id() + "' is indexed but its JPEG is not in the frame store"));
    }
}
