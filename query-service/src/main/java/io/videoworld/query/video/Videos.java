package io.videoworld.query.video;

import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import java.io.IOException;

/** The stream a tool call names in {@code video_id} (or a 404 naming it), and its length in the seeds' terms. */
public final class Videos {
    private Videos() {}

    /** The stream named by the arguments' {@code video_id}. */
    public static VideoDoc require(VideoRepository videos, Args args) throws IOException {
        String id = args.requiredString("video_id");
        return byId(videos, id);
    }

    /** The stream with this id, or a 404 naming {@code video_id}. */
    public static VideoDoc byId(VideoRepository videos, String id) throws IOException {
        return videos.find(id).orElseThrow(() -> ApiException.notFound("video_id", "no video with id '" + id + "' has been ingested"));
    }

    /** The source's length when known; for live and screenshot streams, up to the end of the last frame. */
    public static double durationSeconds(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.durationMs() != null) {
            return s.durationMs() / 1000.0;
        }
        double frameMs = s.sampleFps() > 0 ? 1000.0 / s.sampleFps() : 0;
        return (v.lastPtsMs() + frameMs) / 1000.0;
    }

    /** Frames in the source's own numbering (its frame rate), which seed 000 frame numbers use. */
    public static long numFrames(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.totalFrames() != null) {
            return s.totalFrames();
        }
        return Math.round(durationSeconds(v) * s.fps());
    }
}
