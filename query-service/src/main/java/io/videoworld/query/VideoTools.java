package io.videoworld.query;

import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Video API tools of seed 000 (API-1 {@code get_video_info}, API-2
 * {@code get_temporal_structure}) over the indexed streams. A stream id is the seeds'
 * {@code video_id}.
 *
 * <p>Until shot detection has run for a stream, its temporal structure is one segment spanning
 * the whole stream, and the response says so in {@code source} and {@code note} rather than
 * inventing boundaries.
 */
public final class VideoTools {
    private final VideoRepository videos;

    public VideoTools(VideoRepository videos) {
        this.videos = videos;
    }

    private VideoDoc video(Args args) throws IOException {
        String id = args.requiredString("video_id");
        return videos.find(id).orElseThrow(() -> ApiException.notFound("video_id", "no video with id '" + id + "' has been ingested"));
    }

    /** Seed 000 API-1. */
    public Map<String, Object> getVideoInfo(Args args) throws IOException {
        VideoDoc v = video(args);
        SourceInfo s = v.source();
        double duration = durationSeconds(v);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("video_id", v.streamId());
        out.put("duration", round(duration, 3));
        out.put("fps", round(s.fps(), 3));
        out.put("resolution", Map.of("width", s.width(), "height", s.height()));
        out.put("aspect_ratio", aspectRatio(s.width(), s.height()));
        out.put("has_audio", s.hasAudio());
        out.put("audio_channels", s.audioChannels());
        out.put("audio_sample_rate", s.audioSampleRate());
        out.put("num_frames", numFrames(v));
        out.put("file_size_mb", s.fileSizeBytes() == null ? null : round(s.fileSizeBytes() / 1_048_576.0, 2));
        out.put("codec", s.codec());
        out.put("bitrate_kbps", s.bitrateKbps());
        out.put("source_kind", v.sourceKind().wireName());
        out.put("source_uri", v.sourceUri());
        Map<String, Object> indexed = new LinkedHashMap<>();
        indexed.put("frames", v.framesIndexed());
        indexed.put("sample_fps", round(s.sampleFps(), 3));
        indexed.put("resolution", Map.of("width", v.width(), "height", v.height()));
        indexed.put("first_event_time", Instant.ofEpochMilli(v.firstEventTimeMs()).toString());
        indexed.put("last_event_time", Instant.ofEpochMilli(v.lastEventTimeMs()).toString());
        indexed.put("status", v.status());
        out.put("indexed", indexed);
        return out;
    }

    /** Seed 000 API-2. */
    public Map<String, Object> getTemporalStructure(Args args) throws IOException {
        String granularity = args.optionalChoice("granularity", Set.of("coarse", "fine"), "coarse");
        VideoDoc v = video(args);
        double duration = round(durationSeconds(v), 3);
        long frames = numFrames(v);
        Map<String, Object> seg = new LinkedHashMap<>();
        seg.put("segment_id", "seg_001");
        seg.put("start_time", 0.0);
        seg.put("end_time", duration);
        seg.put("start_frame", 0);
        seg.put("end_frame", frames);
        seg.put("duration", duration);
        seg.put("num_frames", frames);
        seg.put("type", "coarse".equals(granularity) ? "scene" : "shot");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("video_id", v.streamId());
        out.put("granularity", granularity);
        out.put("segments", List.of(seg));
        out.put("total_segments", 1);
        out.put("source", "whole_stream");
        out.put("note", "no shot boundaries are indexed for this stream yet; the whole stream is one segment");
        return out;
    }

    /** The source's length when known; for live and screenshot streams, up to the end of the last frame. */
    static double durationSeconds(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.durationMs() != null) {
            return s.durationMs() / 1000.0;
        }
        double frameMs = s.sampleFps() > 0 ? 1000.0 / s.sampleFps() : 0;
        return (v.lastPtsMs() + frameMs) / 1000.0;
    }

    /** Frames in the source's own numbering (its frame rate), which seed 000 frame numbers use. */
    static long numFrames(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.totalFrames() != null) {
            return s.totalFrames();
        }
        return Math.round(durationSeconds(v) * s.fps());
    }

    /** The familiar name of a ratio when within 1% of it, otherwise the reduced fraction. */
    static String aspectRatio(int w, int h) {
        if (w <= 0 || h <= 0) {
            return null;
        }
        int[][] common = {{16, 9}, {4, 3}, {21, 9}, {16, 10}, {3, 2}, {1, 1}, {9, 16}, {3, 4}};
        double r = (double) w / h;
        for (int[] c : common) {
            if (Math.abs(r - (double) c[0] / c[1]) / r < 0.01) {
                return c[0] + ":" + c[1];
            }
        }
        int g = gcd(w, h);
        return (w / g) + ":" + (h / g);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
