package io.videoworld.query;

import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import java.io.IOException;

/** The stream a tool call names in {@code video_id}, or a 404 naming it. */
final class Videos {
    private Videos() {}

    static VideoDoc require(VideoRepository videos, Args args) throws IOException {
        String id = args.requiredString("video_id");
        return byId(videos, id);
    }

    static VideoDoc byId(VideoRepository videos, String id) throws IOException {
        return videos.find(id).orElseThrow(() -> ApiException.notFound("video_id", "no video with id '" + id + "' has been ingested"));
    }
}
